"""Every sample output in the README is what its command prints today (``readme_samples``): the
numbers a new user compares first can never go stale."""

import pytest

from tests import readme_samples

SAMPLES = readme_samples.samples(readme_samples.README.read_text())


def test_the_readme_has_samples_of_the_main_commands():
    commands = {s.args[0] for s in SAMPLES}
    assert {"run", "compare", "sweep", "diff", "power"} <= commands


@pytest.mark.parametrize("sample", SAMPLES, ids=[s.command for s in SAMPLES])
def test_a_readme_sample_is_what_the_command_prints(sample):
    printed = readme_samples.run(sample)
    runs = sample.runs()
    assert runs, "a sample shows at least one line of output"
    for shown, actual in zip(runs, readme_samples.located(sample, printed), strict=True):
        assert shown == actual, "run `python -m tests.readme_samples` to regenerate"
