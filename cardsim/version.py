"""cardsim's version, in a module of its own: every layer records it (run metadata, ``--version``)
and none of them has to import the package root, whose public API loads the layers above."""

__version__ = "0.1.0"  # as pyproject.toml's [project] version
