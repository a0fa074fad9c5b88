"""Charts: finished tables in, matplotlib figures out (Agg backend only, no display needed).

Every chart function takes a table made by ``cardsim.analysis`` and a caption (what was run:
games, seed), and returns a ``matplotlib.figure.Figure``; ``render.png(fig)`` turns it into PNG
bytes for a report and closes it. matplotlib is imported only here.
"""
