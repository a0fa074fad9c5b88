"""Balance reports: every section, table and chart is there (the HTML is parsed), the markdown holds
the same tables, names from user bot files are escaped, verdicts claim only what intervals
support, and the CLI (`cardsim report`, `cardsim run --report`) with good and bad input."""

import base64
import math
import textwrap
from html.parser import HTMLParser

import pytest
from click.testing import CliRunner

import cardsim
from cardsim.analysis.reports import balance
from cardsim.analysis.reports.balance import balance_report
from cardsim.analysis.reports.report import Figure, Report, Section, Table
from cardsim.analysis.results import Results
from cardsim.analysis.stats.seats import FirstPlayerAdvantage
from cardsim.cli.main import cli
from cardsim.core.errors import CardsimError

GAME = "fruit-picking"
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
EVIL = "x<script>alert(1)</script>"
EVIL_BOT_FILE = f'''
from numba import njit


@njit
def first_choice(obs, legal, n_legal, params, rng):
    """always the first legal decision"""
    return 0


globals()["{EVIL}"] = first_choice
'''


class Page(HTMLParser):
    """The parts of a report page the tests look at."""

    def __init__(self):
        super().__init__()
        self.tags: list[str] = []
        self.h2: list[str] = []
        self.images: list[dict] = []
        self.tables: list[list[list[str]]] = []
        self.links: list[str] = []
        self._text: list[str] | None = None
        self._row: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        attrs = dict(attrs)
        if tag == "h2" or tag in ("td", "th"):
            self._text = []
        if tag == "img":
            self.images.append(attrs)
        if tag == "table":
            self.tables.append([])
        if tag == "tr":
            self._row = []
        if tag in ("a", "link", "script") and (attrs.get("href") or attrs.get("src")):
            self.links.append(attrs.get("href") or attrs.get("src"))

    def handle_endtag(self, tag):
        if tag == "h2":
            self.h2.append("".join(self._text))
        if tag in ("td", "th"):
            self._row.append("".join(self._text))
        if tag == "tr":
            self.tables[-1].append(self._row)
        if tag in ("h2", "td", "th"):
            self._text = None

    def handle_data(self, data):
        if self._text is not None:
            self._text.append(data)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    return page


def markdown_tables(md: str) -> list[list[list[str]]]:
    """Rows of every markdown table (separator rows dropped, cells unescaped)."""
    tables, current = [], None
    for line in md.splitlines():
        if line.startswith("| "):
            if current is None:
                current = []
                tables.append(current)
            cells = [c.strip().replace("\\|", "|") for c in line.strip()[2:-2].split(" | ")]
            if not all(set(c) <= set("-:") for c in cells):
                current.append(cells)
        else:
            current = None
    return tables


def unescape(text: str) -> str:
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


@pytest.fixture(scope="module")
def results():
    return cardsim.simulate(
        GAME, games=1500, players=3, seed=11, rules={"variant_umbrella": True, "market_slots": 5}
    )


@pytest.fixture(scope="module")
def written(results, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    report = balance_report(results)
    html, md = report.write(out)
    return report, html, md


# -- the standard report -------------------------------------------------------------------------


def test_report_has_every_section_with_its_tables_charts_and_verdicts(written):
    report, html, md = written
    page = parse(html.read_text())
    assert page.h2 == list(balance.SECTIONS)
    assert [s.heading for s in report.sections] == list(balance.SECTIONS)
    figures = {s.heading: [f.title for f in s.figures] for s in report.sections}
    assert figures == {
        "Run": [],
        "Seat advantage": ["Win rate by turn order", "Win rate by seat"],
        "Game length": ["Game length"],
        "Scores": ["Score by turn order"],
        "End reasons": [],
        "Counter impact": ["Win rate by counter value"],
    }
    for heading in balance.SECTIONS[:-1]:  # all but the run's facts, at the end
        assert report.section(heading).verdicts, heading
    assert len(page.tables) == sum(len(s.tables) for s in report.sections)
    assert len(page.images) == 5


def test_report_is_self_contained(written):
    _, html, _ = written
    text = html.read_text()
    page = parse(text)
    assert "script" not in page.tags and "link" not in page.tags
    assert page.links and all(link.startswith("#") for link in page.links)  # the contents only
    for img in page.images:
        assert img["src"].startswith("data:image/png;base64,")
        assert base64.b64decode(img["src"].split(",", 1)[1]).startswith(PNG_MAGIC)
        assert img["alt"]
    assert "http://" not in text and "https://" not in text


def test_markdown_holds_the_same_tables_and_links_the_figures(written):
    report, html, md = written
    page = parse(html.read_text())
    text = md.read_text()
    assert [unescape_rows(t) for t in markdown_tables(text)] == page.tables
    for section in report.sections:
        assert f"## {section.heading}" in text
        for table in section.tables:
            shown = f"<b>{table.title}</b>" if table.folded else f"**{table.title}**"
            assert shown in text
    figures = sorted((md.parent / "figures").glob("*.png"))
    assert len(figures) == 5
    for path in figures:
        assert path.read_bytes().startswith(PNG_MAGIC)
        assert f"(figures/{path.name})" in text
    assert not list(md.parent.glob(".*tmp"))  # written atomically: no temporary file left


def unescape_rows(table):
    return [[unescape(c) for c in row] for row in table]


def test_run_section_marks_the_changed_rule_options(written, results):
    report, _, _ = written
    run = report.section("Run")
    rules = run.tables[1].frame.set_index("option")
    assert rules.loc["variant_umbrella", "changed"] == "yes"
    assert rules.loc["market_slots", "value"] == "5"
    assert rules.loc["market_slots", "default"] == "(derived)"
    assert rules.loc["seeds_per_player", "changed"] == ""
    assert (
        run.text[0] == "Rule options that differ from the default: market_slots, variant_umbrella."
    )
    facts = dict(run.tables[0].frame.itertuples(index=False))
    assert facts["games"] == "1,500" and facts["seed"] == "11" and facts["players"] == "3"
    assert facts["bots"] == "greedy in every seat"
    assert "games/s on" in facts["speed"] and "load average" in facts["speed"]
    assert facts["cardsim version"] == cardsim.__version__


def test_seat_section_tables_match_the_metrics(written, results):
    from cardsim.analysis.stats import seats

    report, _, _ = written
    section = report.section("Seat advantage")
    by_turn = section.tables[0].frame
    rates = seats.seat_win_rates(results.frame)
    assert by_turn["position"].tolist() == ["1st (starts)", "2nd", "3rd"]
    assert by_turn["win rate"].tolist() == [
        f"{100 * r:.2f}%" for r in rates[rates["kind"] == "position"]["win_rate"]
    ]
    assert "1/k of a win" in section.text[0]
    assert section.verdicts[0].startswith("The first player wins")


# -- verdicts ------------------------------------------------------------------------------------


def advantage(points, low, high, rate=0.5, fair=0.5):
    return FirstPlayerAdvantage(rate, fair, points, low, high, 1000)


def test_advantage_verdict_claims_only_what_the_interval_supports():
    assert balance.advantage_verdict(advantage(3.1, 2.9, 3.3, 0.281, 0.25)).startswith(
        "The first player wins 3.1 ± 0.2 points more often than fair"
    )
    assert balance.advantage_verdict(advantage(-1.5, -2.0, -1.0)).startswith(
        "The first player wins 1.5 ± 0.5 points less often than fair"
    )
    assert balance.advantage_verdict(advantage(0.04, 0.01, 0.07)).startswith(
        "The first player wins 0.04 ± 0.03 points more"
    )
    quiet = balance.advantage_verdict(advantage(0.4, -0.3, 1.1))
    assert quiet.startswith("No detectable first-player advantage") and "contains 0" in quiet
    assert "No first-player advantage can be measured" in balance.advantage_verdict(
        advantage(math.nan, math.nan, math.nan)
    )


def test_turn_cap_games_are_reported_and_left_out_of_win_rates():
    capped = cardsim.simulate(GAME, games=300, players=2, seed=1, rules={"turn_cap": 20})
    report = balance_report(capped)
    n = int(capped.frame["turn_cap_hit"].sum())
    assert 0 < n < 300
    verdicts = " ".join(report.section("End reasons").verdicts)
    assert f"{n:,} of 300 games" in verdicts and "turn cap" in verdicts
    turn_order = report.section("Seat advantage").tables[0].frame
    assert turn_order["games"].iloc[0] == f"{300 - n:,}"


def test_a_ruleset_unknown_here_still_reports(results):
    meta = dict(results.metadata, ruleset="made-elsewhere")
    foreign = Results(results.frame, meta)
    assert foreign.ruleset is None
    assert foreign.seat_counters == results.seat_counters  # named in the metadata
    report = balance_report(foreign)
    assert report.title.startswith("Balance report: made-elsewhere")
    rules = report.section("Run").tables[1].frame
    assert set(rules["default"]) == {"?"}


# -- generic building blocks and escaping --------------------------------------------------------


def test_generic_report_escapes_every_text(tmp_path):
    import pandas as pd

    report = Report(f"Title {EVIL}", {"bots": [EVIL]}, subtitle=EVIL)
    section = report.add(Section(f"Heading {EVIL}", text=[EVIL], verdicts=[EVIL]))
    frame = pd.DataFrame({EVIL: [EVIL, "a|b"], "n": [1.23456, math.nan]})
    section.tables.append(Table(EVIL, frame, note=EVIL))
    section.figures.append(Figure(EVIL, PNG_MAGIC, caption=EVIL))
    html, md = report.write(tmp_path / "new" / "dir")
    assert "<script>" not in html.read_text() and "&lt;script&gt;" in html.read_text()
    assert "<script>" not in md.read_text() and "&lt;script>" in md.read_text()  # no tag opens
    page = parse(html.read_text())
    assert page.tables[0] == [[EVIL, "n"], [EVIL, "1.235"], ["a|b", "n/a"]]
    assert "a\\|b" in md.read_text()


def test_writing_into_a_file_is_a_one_line_error(tmp_path):
    target = tmp_path / "file"
    target.write_text("x")
    with pytest.raises(CardsimError, match="is a file"):
        Report("t").write(target)


# -- command line --------------------------------------------------------------------------------


def invoke(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def assert_one_line_error(result, *fragments):
    assert result.exit_code == 2, (result.output, result.exception)
    err = result.stderr.strip()
    assert "\n" not in err and err.startswith("cardsim: error: "), err
    for fragment in fragments:
        assert fragment in err, err


@pytest.fixture
def evil_bot_file(tmp_path):
    path = tmp_path / "evil_bots.py"
    path.write_text(textwrap.dedent(EVIL_BOT_FILE))
    return path


def test_run_report_escapes_a_bot_name_from_a_user_file(tmp_path, evil_bot_file):
    out = tmp_path / "rep"
    result = invoke(
        "run",
        GAME,
        "-n",
        300,
        "-p",
        2,
        "--bot-file",
        evil_bot_file,
        "--bots",
        f"greedy,{EVIL}",
        "--report",
        out,
    )
    assert result.exit_code == 0, (result.output, result.exception)
    assert f"Report written to {out / 'report.html'}" in result.stdout
    html = (out / "report.html").read_text()
    md = (out / "report.md").read_text()
    assert "<script" not in html.lower() and "<script" not in md.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    page = parse(html)
    rows = [row[0] for table in page.tables for row in table]
    assert f"seat 1 ({EVIL})" in rows and EVIL in rows  # by seat, and by bot


def test_report_command_on_a_saved_run_and_run_out_with_report(tmp_path):
    path, out = tmp_path / "r.parquet", tmp_path / "from-run"
    result = invoke("run", GAME, "-n", 400, "-p", 2, "-s", 3, "-o", path, "--report", out, "-q")
    assert result.exit_code == 0, result.output
    again = invoke("report", path, "-o", tmp_path / "from-file")
    assert again.exit_code == 0, again.output
    assert "Report of 400 games written to" in again.stdout
    assert f"(made the directory {tmp_path / 'from-file'})" in again.stdout
    from_run = parse((out / "report.html").read_text())
    from_file = parse((tmp_path / "from-file" / "report.html").read_text())
    assert from_run.h2 == from_file.h2 == list(balance.SECTIONS)
    # the same games give the same tables; only the run's speed (the run's facts, the last
    # table but one) is not stored in the file
    facts = -2
    assert from_run.tables[:facts] == from_file.tables[:facts]
    assert from_run.tables[-1] == from_file.tables[-1]
    speed = dict((r[0], r[1]) for r in from_file.tables[facts][1:])["speed"]
    assert speed == "not recorded (results read from a file)"
    # --report, the option's earlier name, still works for one release
    alias = invoke("report", path, "--report", tmp_path / "alias", "--force")
    assert alias.exit_code == 0 and (tmp_path / "alias" / "report.md").is_file()


def test_report_bad_input_is_a_one_line_error(tmp_path):
    assert_one_line_error(
        invoke("report", tmp_path / "none.parquet", "--report", tmp_path / "o"), "does not exist"
    )
    bogus = tmp_path / "bogus.parquet"
    bogus.write_text("hello")
    assert_one_line_error(invoke("report", bogus, "--report", tmp_path / "o"), "not a readable")
    assert_one_line_error(invoke("report", tmp_path, "--report", tmp_path / "o"), "is a directory")
    assert_one_line_error(invoke("report", bogus, "--report", bogus), "is a file")
    assert_one_line_error(invoke("report", bogus), "-o/--out DIR")


def test_run_report_into_a_file_fails_before_the_run(tmp_path):
    target = tmp_path / "taken"
    target.write_text("x")
    result = invoke("run", GAME, "-n", 10, "--report", target)
    assert_one_line_error(result, "is a file")
    assert "Win rate" not in result.stdout


@pytest.mark.parametrize("game", ["fruit-picking", "pajarracos"])
def test_every_registered_ruleset_reports_with_its_own_counters(game, tmp_path):
    from cardsim.core import registry

    assert game in registry.available()
    results = cardsim.simulate(game, games=400, seed=3)
    report = balance_report(results)
    html, _ = report.write(tmp_path)
    page = parse(html.read_text())
    assert page.h2 == list(balance.SECTIONS) and len(page.images) == 5
    ruleset = registry.get(game)
    glossary, effects = (t.frame for t in report.section("Counter impact").tables[:2])
    assert list(glossary["counter"]) == list(ruleset.seat_counters)
    assert list(glossary["what it counts"]) == [
        ruleset.counter_glossary[n] for n in ruleset.seat_counters
    ]
    measured = [n for n in ruleset.seat_counters if n not in ruleset.outcome_counters]
    assert sorted(effects["counter"]) == sorted(measured)


def test_outcome_counters_are_shown_by_value_but_give_no_verdict(written, results):
    report, _, _ = written
    section = report.section("Counter impact")
    outcome = results.ruleset.outcome_counters
    assert "set_completed" in outcome
    effects = section.tables[1].frame
    assert not set(outcome) & set(effects["counter"])
    by_value = section.tables[-1]
    assert by_value.title == "Win rate by outcome counter value"
    assert set(by_value.frame["counter"]) == set(outcome)
    assert not any(name in v for v in section.verdicts for name in outcome)
    assert not any("decides who wins by itself" in v for v in section.verdicts)


def test_every_chart_has_its_own_caption_and_an_svg_for_print(written):
    report, html, md = written
    captions = [f.caption for s in report.sections for f in s.figures]
    assert len(set(captions)) == len(captions)  # no two charts say the same
    assert all("1,500 games, 3 players, seed 11" in c for c in captions)
    assert "median" in report.section("Game length").figures[0].caption
    for path in sorted((md.parent / "figures").glob("*.png")):
        svg = path.with_suffix(".svg")
        assert svg.read_text().lstrip().startswith("<?xml") and "<svg" in svg.read_text()
        assert f"figures/{svg.name}" in md.read_text()


def test_the_seat_chart_keeps_the_fair_share_and_a_sensible_span_in_view():
    import pandas as pd

    from cardsim.charts.balance import MIN_RATE_SPAN, rate_axis

    tight = pd.DataFrame({"ci_low": [0.2499, 0.2496], "ci_high": [0.2503, 0.2501]})
    lo, hi = rate_axis(tight, 0.25)
    assert hi - lo >= MIN_RATE_SPAN and lo < 0.2496 and hi > 0.2503
    far = pd.DataFrame({"ci_low": [0.40], "ci_high": [0.45]})
    lo, hi = rate_axis(far, 0.25)
    assert lo < 0.25 < 0.45 < hi  # the fair share stays in view


def test_the_sweep_heatmap_shows_intervals_and_marks_those_that_exclude_zero():
    import pandas as pd

    from cardsim.charts.sweep import two_parameters

    wide = pd.DataFrame([[5.0, 0.5]], index=["a"], columns=["x", "y"])
    low = pd.DataFrame([[4.0, -1.0]], index=["a"], columns=["x", "y"])
    high = pd.DataFrame([[6.0, 2.0]], index=["a"], columns=["x", "y"])
    fig = two_parameters(wide, "p", "q", low=low, high=high)
    ax = fig.axes[0]
    texts = {t.get_text(): t.get_fontweight() for t in ax.texts}
    assert texts == {"+5.00\n[+4.00, +6.00]": "bold", "+0.50\n[-1.00, +2.00]": "normal"}
    image = ax.images[0]
    assert image.get_clim() == (-6.0, 6.0)  # the scale reaches the widest interval end


def test_the_run_section_names_each_bot_parameter():
    """Names from the run's metadata; results saved without them (earlier versions) take the
    built-in bot's names; a bot that names none gets p0, p1, ..."""
    from cardsim.analysis.reports.balance import bot_params_text, run_section
    from cardsim.analysis.stats.balance_stats import BalanceStats

    tuned = {"planner": {"money": 1.25}}
    results = cardsim.simulate(
        "fruit-picking", 50, players=2, bots="planner,greedy", bot_params=tuned
    )
    assert results.metadata["bot_param_names"]["planner"][3] == "money"
    stats = BalanceStats.from_frame(results.frame, results.metadata)
    facts = dict(run_section(stats).tables[0].frame.itertuples(index=False))
    shown = facts["parameters of planner"]
    assert shown.startswith("set_progress=10, fruits=0, price=0.6, money=1.25, water=0.5")
    older = {k: v for k, v in results.metadata.items() if k != "bot_param_names"}
    assert bot_params_text(BalanceStats(older), "planner", [10, 0, 0.6, 1.25] + [0] * 8) == (
        "set_progress=10, fruits=0, price=0.6, money=1.25, water=0, house_target=0, next_buy=0, "
        "finish=0, breadth=0, buy=0, op_reserve=0, op_deny=0"
    )
    assert bot_params_text(BalanceStats(older), "mine", [1, 2.5]) == "p0=1, p1=2.5"


# -- the layout: verdicts and charts first, reference tables folded at the end ---------------------


def test_the_verdicts_and_the_seat_chart_come_before_any_table(written):
    _, html, md = written
    text = html.read_text()
    first_verdict = text.index('<ul class="verdicts">')
    first_figure = text.index("<figure>")
    assert first_verdict < first_figure < text.index("<table>")
    assert 'alt="Win rate by turn order"' in text[first_figure : text.index("</figure>")]
    page = md.read_text()
    assert page.index("- **") < page.index("![Win rate by turn order]") < page.index("| ")


def test_the_rule_options_table_is_folded_at_the_end(written):
    report, html, md = written
    assert report.sections[-1].heading == "Run"
    text = html.read_text()
    folded = text.index("<details>")
    assert text.index("<summary>Rule options (changed ones marked)</summary>") > folded
    assert folded > text.rindex("<figure>") and text.count("<details>") == 1
    page = md.read_text()
    assert "<summary><b>Rule options (changed ones marked)</b></summary>" in page
    assert page.index("<details>") > page.rindex("![")
    # what a reader needs of it before the charts: the seating and the changed options
    assert "greedy in every seat" in report.subtitle and "market_slots" in report.subtitle


def test_text_columns_are_left_aligned_and_numbers_right(written):
    report, html, md = written
    seats = report.section("Seat advantage").tables[0]
    assert seats.numeric()[0] is False  # "1st (starts)", "2nd": labels
    assert all(seats.numeric()[1:])  # games, wins, rates, intervals, points
    options = report.section("Run").tables[1]
    assert options.numeric() == [False] * len(options.frame.columns)  # 2,2,2, tiebreak, R22
    text = html.read_text()
    assert "<td>1st (starts)</td>" in text and '<td class="num">1,500</td>' in text
    page = md.read_text()
    header = next(line for line in page.splitlines() if line.startswith("| position |"))
    separator = page.splitlines()[page.splitlines().index(header) + 1]
    assert separator.split(" | ")[0] == "| ---" and separator.rstrip(" |").endswith("---:")


def test_each_caption_is_written_once(written):
    report, html, md = written
    text, page = html.read_text(), md.read_text()
    for figure in [f for s in report.sections for f in s.figures]:
        assert text.count(figure.caption.replace("'", "&#39;")) == 1
        assert page.count(figure.caption) == 1
    import matplotlib.figure

    from cardsim.charts.balance import seat_win_rates

    rates = report_rates_table()
    fig = seat_win_rates(rates, "title")
    assert isinstance(fig, matplotlib.figure.Figure) and fig.get_supxlabel() == ""


def report_rates_table():
    import pandas as pd

    return pd.DataFrame(
        {"label": ["1st", "2nd"], "win_rate": [0.55, 0.45], "ci_low": [0.54, 0.44],
         "ci_high": [0.56, 0.46], "fair_rate": [0.5, 0.5]}
    )  # fmt: skip


def test_counter_chart_counts_have_one_number_format():
    import pandas as pd

    from cardsim.charts.balance import counter_impact

    rates = pd.DataFrame(
        {"counter": ["crows"] * 3, "value": [0, 1, 2], "seat_games": [29_412, 1_125, 950],
         "win_rate": [0.3, 0.2, 0.1], "ci_low": [0.29, 0.18, 0.08], "ci_high": [0.31, 0.22, 0.12]}
    )  # fmt: skip
    fig = counter_impact(rates, ["crows"], 0.25)
    ticks = [t.get_text() for t in fig.axes[0].get_xticklabels()]
    assert ticks == ["0\n29,412", "1\n1,125", "2\n950"]


def test_an_axis_never_zooms_into_the_noise():
    from cardsim.charts.render import NOISE_SPANS, value_axis

    # a sweep's mean length: 31.77 to 31.80 turns, each +/-0.05: the axis spans the noise 4 times
    lo, hi = value_axis([31.72, 31.75], [31.82, 31.85])
    assert hi - lo >= NOISE_SPANS * 0.10 and lo < 31.72 and hi > 31.85
    # a real effect far larger than its intervals is drawn at its own scale
    lo, hi = value_axis([10.0, 50.0], [10.2, 50.2])
    assert lo < 10.0 and 50.2 < hi < 60.0


def test_a_sweep_draws_mean_length_with_its_interval_and_never_zoomed_into_noise():
    import pandas as pd

    from cardsim.charts.sweep import one_parameter

    table = pd.DataFrame(
        {"seeds": [14, 18], "win 1st": [0.57, 0.57], "win 2nd": [0.43, 0.43],
         "first_player_points": [7.0, 7.1], "fpa_low": [6.3, 6.4], "fpa_high": [7.7, 7.8],
         "mean_turns": [31.77, 31.80], "mean_turns_low": [31.72, 31.75],
         "mean_turns_high": [31.82, 31.85]}
    )  # fmt: skip
    fig = one_parameter(table, "seeds", 0.5)
    lo, hi = fig.axes[1].get_ylim()
    assert hi - lo >= 0.4  # four interval widths: a 0.03-turn move looks as flat as it is


def test_a_diff_chart_is_not_stretched_by_a_metric_whose_base_is_zero():
    import pandas as pd

    from cardsim.charts.diff import changes

    table = pd.DataFrame(
        {"metric": ["win rate 1st", "game length (turns)", "turn cap games"],
         "a": [0.5, 40.0, 0.0], "b": [0.51, 41.0, 3.0], "diff": [0.01, 1.0, 3.0],
         "ci_low": [0.0, 0.8, 1.0], "ci_high": [0.02, 1.2, 5.0]}
    )  # fmt: skip
    fig = changes(table, "A", "B")
    bottom = fig.axes[1]
    lo, hi = bottom.get_xlim()
    assert hi < 10  # game length moved 2.5% (2-3%); the 0-based metric is not drawn at all
    labels = [t.get_text() for t in bottom.get_yticklabels()]
    assert "turn cap games (0 before: no %)" in labels
