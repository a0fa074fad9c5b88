"""Balance analysis: outcomes (raw chunks or DataFrames) -> tables.

pandas, numpy and scipy only: no numba import anywhere under ``cardsim.analysis``.
"""
