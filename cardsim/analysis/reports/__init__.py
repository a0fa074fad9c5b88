"""Reports: tables, figures and plain-words verdicts, written as self-contained HTML and markdown.

``report`` holds the building blocks (``Report``, ``Section``, ``Table``, ``Figure``); the
standard balance report of a run is ``balance``; the reports of experiments are
``experiment_report`` (compare, sweep, diff), ``ladder_report`` and ``tuning_report``;
``report_record`` is what ``cardsim report --format json`` says.
"""
