"""The sample outputs of the README and of docs/, checked against (and regenerated from) what
the commands print.

A sample is a fenced block whose first line is a command, ``$ cardsim ...`` (a trailing ``\\``
continues it on the next line), followed by parts of what the command prints: runs of lines
separated by ``...`` lines, which stand for output left out. The first run starts at the first
line of the output; every later run starts at the next output line that begins with the same
words as the run's first line (its text up to the first digit). ``tests/test_readme.py`` runs
every sample's command and requires each run of lines to be exactly those lines of its output,
so a sample can never go stale; after a change that moves the numbers, regenerate them all with

    python -m tests.readme_samples [FILE.md ...]

which rewrites each run with the same number of lines of the command's current output (in every
file of ``documents()``, or in the files named).
"""

from __future__ import annotations

import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
README = REPO / "README.md"
# the rules references quote no command: they are the rulebooks', not cardsim's, words
NOT_SAMPLED = ("docs/rules/",)
ELLIPSIS = "..."
_BLOCK = re.compile(r"^```[a-z]*\n(\$ cardsim .*?)^```$", re.M | re.S)


@dataclass(frozen=True)
class Sample:
    command: str  # as written after "$ ", continuation lines joined
    command_lines: list[str]  # the block's command lines, as written
    lines: list[str]  # the sample's output lines, "..." included
    span: tuple[int, int]  # the block's body in the README text

    @property
    def args(self) -> list[str]:
        return shlex.split(self.command)[1:]  # without "cardsim"

    def runs(self) -> list[list[str]]:
        """The runs of output lines between the "..." lines."""
        runs, current = [], []
        for line in self.lines:
            if line.strip() == ELLIPSIS:
                if current:
                    runs.append(current)
                current = []
            else:
                current.append(line)
        return runs + ([current] if current else [])


def _anchor(line: str) -> str:
    """A line's text up to its first digit: the words that find it again when numbers move."""
    return re.split(r"[+-]?[0-9]", line, maxsplit=1)[0]


def located(sample: Sample, printed: list[str]) -> list[list[str]]:
    """For each run of the sample, the output lines it stands for (same count; fewer if the
    output ends, none if its first line's words are not found)."""
    found, at = [], 0
    for i, run in enumerate(sample.runs()):
        if i > 0 or (sample.lines and sample.lines[0].strip() == ELLIPSIS):
            anchor = _anchor(run[0])
            at = next((j for j in range(at, len(printed)) if printed[j].startswith(anchor)), None)
            if at is None:
                found.append([])
                at = len(printed)
                continue
        found.append(printed[at : at + len(run)])
        at += len(run)
    return found


def samples(text: str) -> list[Sample]:
    found = []
    for match in _BLOCK.finditer(text):
        lines = match.group(1).rstrip("\n").split("\n")
        command_lines = [lines.pop(0)]
        while command_lines[-1].endswith("\\"):
            command_lines.append(lines.pop(0))
        command = " ".join(line.rstrip("\\").strip() for line in command_lines)[2:]
        found.append(Sample(command, command_lines, lines, match.span(1)))
    return found


def documents() -> list[Path]:
    """The README and every page under docs/ whose samples are checked."""
    pages = sorted((REPO / "docs").rglob("*.md"))
    return [README] + [
        p for p in pages if not p.relative_to(REPO).as_posix().startswith(NOT_SAMPLED)
    ]


def run(sample: Sample) -> list[str]:
    """What the sample's command prints on stdout, line by line (trailing spaces dropped)."""
    from click.testing import CliRunner

    from cardsim.cli.main import cli

    # 80 columns whatever the terminal of who regenerates: the same text as the tests see
    result = CliRunner().invoke(cli, sample.args, env={"COLUMNS": "80"})
    if result.exit_code != 0:
        raise RuntimeError(f"{sample.command}: exit {result.exit_code}: {result.output}")
    return [line.rstrip() for line in result.stdout.splitlines()]


def regenerate(text: str) -> str:
    """The README text with every sample's output lines replaced by the command's output."""
    out, end = [], 0
    for sample in samples(text):
        printed = run(sample)
        runs = iter(located(sample, printed))
        body, in_run = list(sample.command_lines), False
        for line in sample.lines:
            if line.strip() == ELLIPSIS:
                body.append(line)
                in_run = False
            elif not in_run:
                body += next(runs)
                in_run = True
        out += [text[end : sample.span[0]], "\n".join(body) + "\n"]
        end = sample.span[1]
        print(f"{sample.command}: regenerated", file=sys.stderr)
    return "".join(out) + text[end:]


if __name__ == "__main__":
    for path in [Path(name).resolve() for name in sys.argv[1:]] or documents():
        path.write_text(regenerate(path.read_text()))
