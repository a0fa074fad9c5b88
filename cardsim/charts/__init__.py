"""Charts: finished tables in, matplotlib figures out (Agg backend only, no display needed).

Every chart function takes a table made by ``cardsim.analysis`` and returns a
``matplotlib.figure.Figure``; ``render.png(fig)`` turns it into PNG bytes for a report and closes
it. A chart carries its title, axes and legend, never its caption: the report writes the caption
once, as text under the chart (``report.Figure``). matplotlib is imported only here.
"""
