"""The rulesets: one package per game, each with the same small set of files (see STYLE)."""
