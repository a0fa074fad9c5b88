"""Hypothesis profiles (docs/testing.md).

- ``ci``: derandomized (the same examples on every run, so a red CI run replays exactly), a fixed
  example budget, no deadline (a shared CI machine's timing says nothing about the code); loaded
  when the ``CI`` environment variable is set (CI services set it; ``.ci/run`` sets it too).
- ``default``: hypothesis' own random search with the same budget and no deadline, so local runs
  keep looking for new counterexamples.

A test's own ``@settings(max_examples=...)`` still sets its budget; the profile supplies what the
test leaves open (derandomize, deadline). ``HYPOTHESIS_PROFILE=name`` picks a profile by hand.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

EXAMPLES = 100  # the budget of a test that sets none
_COMMON = dict(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])

settings.register_profile("ci", derandomize=True, print_blob=True, **_COMMON)
settings.register_profile("default", **_COMMON)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "default")
)
