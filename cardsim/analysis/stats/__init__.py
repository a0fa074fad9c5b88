"""Statistics of outcomes: per-game frames and streamed counts -> figures with intervals.

Win rates by seat and turn order (``seats``), game length, scores, counters, paired differences
of runs on the same games (``paired``), games needed (``power``), Plackett-Luce ratings
(``rating``), the streamed run summary (``summary``) and the balance report's figures in bounded
memory (``balance_stats``, ``histogram``). Nothing here plays a game or writes a report.
"""
