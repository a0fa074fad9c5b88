"""Every sample output in the README and in docs/ is what its command prints today
(``readme_samples``): the numbers a new user compares first can never go stale."""

import pytest

from tests import readme_samples

SAMPLES = [
    (path.relative_to(readme_samples.REPO).as_posix(), sample)
    for path in readme_samples.documents()
    for sample in readme_samples.samples(path.read_text())
]


def test_the_readme_shows_a_run_and_a_variant_comparison():
    """A newcomer finds a first result and a rule change's effect without opening docs/."""
    commands = {s.args[0] for page, s in SAMPLES if page == "README.md"}
    assert {"run", "diff"} <= commands


def test_the_samples_cover_the_main_commands():
    commands = {s.args[0] for _, s in SAMPLES}
    assert {"run", "compare", "sweep", "diff", "power"} <= commands


@pytest.mark.parametrize("page, sample", SAMPLES, ids=[f"{p}: {s.command}" for p, s in SAMPLES])
def test_a_sample_is_what_the_command_prints(page, sample):
    printed = readme_samples.run(sample)
    runs = sample.runs()
    assert runs, "a sample shows at least one line of output"
    for shown, actual in zip(runs, readme_samples.located(sample, printed), strict=True):
        assert shown == actual, f"run `python -m tests.readme_samples {page}` to regenerate"
