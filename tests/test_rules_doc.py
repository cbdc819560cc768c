"""docs/rules.md, the rules in the project's words, against the engine.

Every worked example is read from the page's tables (its inputs in the page's own notation, its
row as the rules give it) and scored by scoresheet/scoring.py; the sessions' running totals by
scoresheet/tally.py; the refusals, warnings, thresholds, terms, rounding and breakdowns likewise.
The expected values are the page's, never the engine's. Then the corpora the other tests use
(tests/test_scoring.py, tests/test_scoring_js.py) must each be on the page, so that the page, the
tests and the engine cannot drift apart. Plain Python, no Django."""

import re
from decimal import Decimal
from itertools import accumulate, combinations_with_replacement
from pathlib import Path

import pytest

from scoresheet import scoring
from scoresheet.tally import replay

PAGE = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"]
CONTRACTS = {
    "prise": "prise",
    "garde": "garde",
    "garde sans": "garde_sans",
    "garde contre": "garde_contre",
}
CHELEMS = {
    "chelem announced and made": "announced_made",
    "chelem made unannounced": "unannounced_made",
    "chelem announced and failed": "announced_failed",
}
# The field each message begins with, as the app names it.
FIELDS = {
    "Seats": "seats",
    "Dealer sits out": "dealer_sits_out",
    "Dealer": "dealer",
    "Taker": "taker",
    "Partner": "partner",
    "Contract": "contract",
    "Bouts": "bouts",
    "Points": "points",
    "Petit au bout": "petit_au_bout",
    "Poignée": "poignees",
    "Chelem": "chelem",
    "Defence chelem": "defence_chelem",
    "Misère": "miseres",
}
OPENING = re.compile(
    r"(?P<taker>\w+): (?P<contract>prise|garde sans|garde contre|garde)"
    r"(?: with (?P<partner>\w+)| (?P<alone>alone))?, (?P<bouts>\d+) bouts?, (?P<points>[\d.]+)"
)
POIGNEE = re.compile(r"(?P<size>\w+) poignée by (?P<seat>\w+)")
MISERE = re.compile(r"(?:(?P<count>\d+) misères|misère) by (?P<seat>\w+)")
SITS_OUT = re.compile(r"(?P<seat>\w+) sits out")
LABEL = re.compile(r"(?P<session>[A-Z]+)(?P<number>\d+)")


# Reading the page ------------------------------------------------------------------------------


def cells(line: str) -> list[str]:
    return [cell.strip() for cell in line.strip().strip("|").split("|")]


def tables() -> list[tuple[list[str], list[list[str]]]]:
    """Every table of the page: its header and its rows, as text cells."""
    found, block = [], []
    for line in [*PAGE.read_text(encoding="utf-8").splitlines(), ""]:
        if line.lstrip().startswith("|"):
            block.append(cells(line))
            continue
        if len(block) > 2:
            found.append((block[0], block[2:]))
        block = []
    return found


def table_rows(*header: str) -> list[list[str]]:
    """The rows of every table whose header begins with ``header``."""
    rows = [row for head, body in tables() if tuple(head[: len(header)]) == header for row in body]
    assert rows, f"docs/rules.md has no table headed {' | '.join(header)}"
    return rows


def seat(name: str) -> int | str:
    """A name's seat; a name that is no seat is kept, for the refusals to name."""
    return NAMES.index(name) if name in NAMES else name


def number(text: str) -> int:
    return int(text.replace("−", "-").replace("+", ""))


def numbers(text: str) -> tuple[int, ...]:
    return tuple(number(part) for part in text.split(", "))


def rules_of(text: str) -> scoring.Rules:
    """The rules of "FFT", or of house rules in the page's words ("rounding 10, misère 20")."""
    data = {}
    if text != "FFT":
        for rule in text.split(", "):
            if rule == "dealer sits out":
                data["dealer_sits_out"] = True
            else:
                name, value = rule.rsplit(" ", 1)
                key = {"rounding": "rounding", "misère": "misere", "poignées": "poignees"}[name]
                data[key] = value if key == "poignees" else int(value)
    return scoring.Rules.from_data(data)


def hand_of(seats: str, text: str) -> scoring.Hand | None:
    """A hand in the page's notation (None: everyone passed); an unknown phrase fails."""
    if text == "everyone passed":
        return None
    opening, *announcements = text.split("; ")
    found = OPENING.fullmatch(opening)
    assert found, f"not a hand: {opening!r}"
    petit, chelem, defence_chelem, dealer = None, None, False, None
    poignees, miseres = {}, {}
    for phrase in announcements:
        if phrase in ("petit au bout to the attack", "petit au bout to the defence"):
            petit = phrase.removeprefix("petit au bout to the ")
        elif phrase in CHELEMS:
            chelem = CHELEMS[phrase]
        elif phrase == "defence chelem":
            defence_chelem = True
        elif match := POIGNEE.fullmatch(phrase):
            poignees[seat(match["seat"])] = match["size"]
        elif match := MISERE.fullmatch(phrase):
            miseres[seat(match["seat"])] = int(match["count"] or 1)
        elif match := SITS_OUT.fullmatch(phrase):
            dealer = seat(match["seat"])
        else:
            raise AssertionError(f"not an announcement: {phrase!r}")
    return scoring.Hand(
        int(seats),
        seat(found["taker"]),
        CONTRACTS[found["contract"]],
        int(found["bouts"]),
        Decimal(found["points"]),
        partner=seat(found["partner"]) if found["partner"] else None,
        petit_au_bout=petit,
        poignees=poignees,
        chelem=chelem,
        defence_chelem=defence_chelem,
        dealer=dealer,
        miseres=miseres,
    )


def examples() -> dict[str, tuple[scoring.Rules, scoring.Hand | None, tuple[int, ...]]]:
    """Label -> (rules, hand, row) of every worked example on the page."""
    found = {}
    for label, seats, rules, hand, row, *_ in table_rows("#", "seats", "rules", "hand", "row"):
        assert label not in found, f"{label} is on the page twice"
        found[label] = (rules_of(rules), hand_of(seats, hand), numbers(row))
    return found


EXAMPLES = examples()


# The page's own arithmetic ----------------------------------------------------------------------


@pytest.mark.parametrize("label", EXAMPLES)
def test_the_row_written_is_the_engines(label):
    rules, hand, row = EXAMPLES[label]
    assert sum(row) == 0, f"{label}: the page's row does not sum to zero"
    if hand is None:
        assert set(row) == {0}
        return
    assert scoring.validate(hand, rules) == []
    assert scoring.score(hand, rules) == row


def added(totals: tuple[int, ...], row: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(total + score for total, score in zip(totals, row, strict=True))


def sessions() -> list[list[list[str]]]:
    """The tables with running totals, each one session in play order."""
    header = ("#", "seats", "rules", "hand", "row", "running totals")
    return [body for head, body in tables() if tuple(head) == header]


@pytest.mark.parametrize(
    "rows", sessions(), ids=lambda rows: LABEL.fullmatch(rows[0][0])["session"]
)
def test_each_session_runs_to_its_totals(rows):
    labels = [LABEL.fullmatch(row[0]) for row in rows]
    assert len({label["session"] for label in labels}) == 1
    assert [int(label["number"]) for label in labels] == list(range(1, len(rows) + 1))
    (rules,) = {EXAMPLES[row[0]][0] for row in rows}
    written = [numbers(row[5]) for row in rows]
    # The running totals are the rows added up, as on paper...
    assert list(accumulate((EXAMPLES[row[0]][2] for row in rows), added)) == written
    # ...and as the sheet keeps them.
    hands = [EXAMPLES[row[0]][1] for row in rows]
    players = len(written[0])
    dealt = [(hand.dealer if hand and hand.dealer is not None else 0, hand) for hand in hands]
    assert [totals for _row, totals in replay(players, dealt, rules)] == written


def test_the_fft_sample_sheet_ends_at_the_rulebooks_totals():
    (sample,) = [rows for rows in sessions() if rows[0][0] == "F1"]
    assert numbers(sample[-1][5]) == (-446, 1346, -390, -510)


@pytest.mark.parametrize(
    "row", table_rows("#", "seats", "rules", "hand", "refused"), ids=lambda row: row[0]
)
def test_each_refusal_names_its_field(row):
    _label, seats, rules, text, refused = row
    hand = hand_of(seats, text)
    problems = scoring.validate(hand, rules_of(rules))
    assert {problem.field for problem in problems} == {
        FIELDS[name] for name in refused.split(", ")
    }
    with pytest.raises(scoring.InvalidHand):
        scoring.score(hand, rules_of(rules))


@pytest.mark.parametrize(
    "row", table_rows("#", "seats", "rules", "hand", "warns"), ids=lambda row: row[0]
)
def test_each_warning_is_legal_and_named(row):
    _label, seats, rules, text, warns = row
    hand = hand_of(seats, text)
    assert scoring.validate(hand, rules_of(rules)) == []
    expected = [] if warns == "nothing" else [FIELDS[name] for name in warns.split(", ")]
    assert [problem.field for problem in scoring.warnings(hand, rules_of(rules))] == expected


@pytest.mark.parametrize("row", table_rows("players", "bouts", "points", "result"))
def test_made_or_lost_at_the_threshold(row):
    players, bouts, points, result = row
    made, by = result.split(" by ")
    diff = int(by)
    detail = scoring.breakdown(scoring.Hand(int(players), 0, "prise", int(bouts), points))
    assert (detail.made, detail.diff) == (made == "made", diff)
    assert scoring.result(int(bouts), points) == (made == "made", diff)
    assert detail.per_defender == (25 + diff if made == "made" else -(25 + diff))


@pytest.mark.parametrize("row", table_rows("announcements", "u at 49", "u at 38"))
def test_one_term_at_a_time(row):
    announcements, made, lost = row
    suffix = "" if announcements == "none" else f"; {announcements}"
    for points, u in ((49, made), (38, lost)):
        hand = hand_of("4", f"Ana: garde, 2 bouts, {points}{suffix}")
        assert scoring.breakdown(hand).per_defender == number(u)


@pytest.mark.parametrize("row", table_rows("contract", "multiplier", "u at 49", "u at 38"))
def test_the_multiplier(row):
    contract, multiplier, made, lost = row
    for points, u in ((49, made), (38, lost)):
        text = f"Ana: {contract}, 2 bouts, {points}; petit au bout to the attack"
        detail = scoring.breakdown(hand_of("4", f"{text}; simple poignée by Chloé"))
        assert (detail.multiplier, detail.per_defender) == (int(multiplier), number(u))


@pytest.mark.parametrize("row", table_rows("rounding", "difference", "rounded"))
def test_the_rounding_table(row):
    rounding, diff, rounded = (int(cell) for cell in row)
    assert scoring.round_diff(diff, rounding) == rounded


@pytest.mark.parametrize("row", table_rows("hand", "breakdown"), ids=lambda row: row[0])
def test_each_breakdown_is_written_as_the_sheet_writes_it(row):
    label, text = row
    rules, hand, _row = EXAMPLES[label]
    written = re.findall(r"`([^`]*)`", text)
    detail = scoring.breakdown(hand, rules)
    assert detail.expression() == written[0]
    assert detail.misere_expression(NAMES) == (written[1] if len(written) > 1 else "")
    assert detail.per_defender == number(re.search(r"= (−?\d+)", text)[1])


def by_bouts() -> dict[str, list[str]]:
    """The page's rows headed by bouts 0 to 3: the points needed, the attack's possible points."""
    return {
        row[0]: row[1:]
        for head, body in tables()
        if head == ["bouts", "0", "1", "2", "3"]
        for row in body
    }


def test_the_points_needed_by_bouts():
    for bouts, points in enumerate(by_bouts()["points needed"]):
        assert scoring.breakdown(scoring.Hand(4, 0, "prise", bouts, points)).target == int(points)


def test_the_points_the_bouts_allow():
    for bouts, span in enumerate(by_bouts()["attack's points"]):
        low, high = (int(value) for value in span.split(" to "))
        for points, legal in ((low, True), (high, True), (low - 1, False), (high + 1, False)):
            hand = scoring.Hand(4, 0, "prise", bouts, points)
            assert (scoring.validate(hand) == []) is legal, (bouts, points)


def test_the_trumps_a_poignee_shows():
    header = ["players in the hand", "simple", "double", "triple"]
    (trumps,) = [body for head, body in tables() if head == header]
    for players, *counts in trumps:
        shown = dict(zip(["simple", "double", "triple"], map(int, counts), strict=True))
        for count in (1, 2, 3):
            for sizes in combinations_with_replacement(shown, count):
                hand = scoring.Hand(
                    int(players), 0, "garde", 2, 49, poignees=dict(enumerate(sizes))
                )
                fits = sum(shown[size] for size in sizes) <= 22
                assert (scoring.validate(hand) == []) is fits, (players, sizes)


# The tests' corpora are on the page -------------------------------------------------------------


def key(rules: scoring.Rules, hand: scoring.Hand, row) -> tuple:
    """What makes two examples the same, whatever the form their inputs were written in."""
    sits_out = rules.dealer_sits_out
    return (
        rules,
        int(hand.seats),
        int(hand.taker),
        str(hand.contract),
        int(hand.bouts),
        Decimal(str(hand.points)).normalize(),
        None if hand.partner in (None, "") else int(hand.partner),
        hand.petit_au_bout or None,
        frozenset((int(seat), str(size)) for seat, size in hand.poignees.items()),
        hand.chelem or None,
        bool(hand.defence_chelem),
        int(hand.dealer) if sits_out else None,
        frozenset((int(seat), int(count)) for seat, count in hand.miseres.items()),
        tuple(row),
    )


ON_THE_PAGE = {key(*example) for example in EXAMPLES.values() if example[1] is not None}


def values(example):
    return example.values if hasattr(example, "values") else example


def from_javascript(seats: int, rules: dict, hand: dict) -> tuple[scoring.Rules, scoring.Hand]:
    fields = {"taker": 0, **hand}
    return scoring.Rules.from_data(rules), scoring.Hand(seats, **fields)


def test_the_engines_corpus_is_on_the_page():
    from tests import test_scoring as engine

    corpus = [(scoring.FFT, engine.fft_hand(*inputs), row) for *inputs, row in engine.FFT_SHEET]
    corpus += [(scoring.FFT, *values(example)) for example in engine.SOURCE_EXAMPLES]
    corpus += [(scoring.FFT, *values(example)) for example in engine.SHARES]
    corpus += [values(example) for example in engine.HOUSE_EXAMPLES]
    missing = [example for example in corpus if key(*example) not in ON_THE_PAGE]
    assert missing == []


def test_the_engines_tables_are_on_the_page():
    from tests import test_scoring as engine

    thresholds = {
        (int(p), int(b), Decimal(str(points)).normalize(), result)
        for p, b, points, result in table_rows("players", "bouts", "points", "result")
    }
    for players, bouts, points, made, diff in engine.THRESHOLDS:
        result = f"{'made' if made else 'lost'} by {diff}"
        assert (players, bouts, Decimal(str(points)).normalize(), result) in thresholds
    rounding = {tuple(map(int, row)) for row in table_rows("rounding", "difference", "rounded")}
    assert set(engine.ROUNDING) <= rounding
    multipliers = table_rows("contract", "multiplier", "u at 49", "u at 38")
    page = {
        CONTRACTS[contract]: (number(won), number(lost)) for contract, _m, won, lost in multipliers
    }
    assert {contract: (won, lost) for contract, won, lost in engine.CONTRACTS} == page
    terms = table_rows("announcements", "u at 49", "u at 38")
    written = {(number(won), number(lost)) for _terms, won, lost in terms}
    assert {tuple(values(example)[1:]) for example in engine.BONUSES} <= written


def test_the_javascript_corpus_is_on_the_page():
    from tests import test_scoring_js as javascript

    corpus = [(*from_javascript(4, {}, hand), tuple(row)) for hand, row in javascript.SAMPLE_SHEET]
    corpus += [
        (*from_javascript(seats, rules, hand), tuple(row))
        for seats, rules, hand, row in javascript.EXAMPLES
    ]
    missing = [example for example in corpus if key(*example) not in ON_THE_PAGE]
    assert missing == []
    thresholds = {
        (Decimal(points).normalize(), int(bouts), result)
        for players, bouts, points, result in table_rows("players", "bouts", "points", "result")
        if players == "3"
    }
    for points, bouts, made, diff in javascript.HALF_POINTS:
        result = f"{'made' if made else 'lost'} by {diff}"
        assert (Decimal(str(points)).normalize(), bouts, result) in thresholds


# The reader itself ------------------------------------------------------------------------------


def test_the_notation_reads_every_announcement():
    hand = hand_of(
        "6",
        "Ben: garde sans with Dan, 1 bout, 60.5; petit au bout to the defence; "
        "double poignée by Ana; chelem announced and failed; defence chelem; "
        "2 misères by Chloé; misère by Élise; Fanny sits out",
    )
    assert hand == scoring.Hand(
        6,
        1,
        "garde_sans",
        1,
        Decimal("60.5"),
        partner=3,
        petit_au_bout="defence",
        poignees={0: "double"},
        chelem="announced_failed",
        defence_chelem=True,
        dealer=5,
        miseres={2: 2, 4: 1},
    )
    assert hand_of("5", "Ana: prise alone, 0 bouts, 0").partner is None
    assert rules_of("poignées 20-40-60, rounding 5, misère 20, dealer sits out") == scoring.Rules(
        poignees="20-40-60", rounding=5, misere=20, dealer_sits_out=True
    )


@pytest.mark.parametrize(
    "text", ["Ana: garde, 2 bouts", "Ana: garde, 2 bouts, 49; petit au bout", "Ana takes a garde"]
)
def test_the_notation_refuses_what_it_cannot_read(text):
    with pytest.raises(AssertionError):
        hand_of("4", text)
