"""A toy ruleset that lives outside ``cardsim``: proof that a new game plugs into the core (runner,
outcomes, CLI) through its ``RULESET`` alone."""
