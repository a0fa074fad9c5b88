"""Every rule option of every registered ruleset is varied somewhere in its engine-vs-reference
tests: an option that keeps its default in every differential configuration could be wrong in
both the engine and the reference without any test noticing.

Convention (every ruleset follows it): ``tests/test_<name with underscores>_reference.py`` defines
a module-level ``DIFFERENTIAL_RULES``, the list of rule-override dicts (``{"option": value}``) its
engine-vs-reference tests run (whole games and lockstep). This test finds the module from the
registry's name, resolves each dict with the ruleset's own options, and asks that every option
take a value other than its default in at least one of them.
"""

from __future__ import annotations

import importlib

import pytest

from cardsim.core import registry
from cardsim.core.options import resolve_options


def differential_module(name: str):
    module = f"tests.test_{name.replace('-', '_')}_reference"
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as exc:
        pytest.fail(f"ruleset {name!r} has no engine-vs-reference test module {module} ({exc})")


def _plain(value):
    return list(value) if isinstance(value, tuple) else value


@pytest.mark.parametrize("name", registry.available())
def test_every_rule_option_takes_a_non_default_value_in_a_differential_config(name):
    ruleset = registry.get(name)
    configs = getattr(differential_module(name), "DIFFERENTIAL_RULES", None)
    assert configs, f"{name}: its reference test module defines no DIFFERENTIAL_RULES"
    defaults = resolve_options(ruleset.options, {}, name)
    varied = set()
    for given in configs:
        values = resolve_options(ruleset.options, given, name)  # an unknown name fails here
        varied |= {k for k, v in values.items() if _plain(v) != _plain(defaults[k])}
    missing = sorted(o.name for o in ruleset.options if o.name not in varied)
    assert not missing, f"{name}: never varied in the differential tests: {', '.join(missing)}"
