"""static/scoresheet/scoring.js against scoresheet/scoring.py: the same rules in the browser.

A differential test (tens of thousands of random hands, every contract, 3 to 6 seats, every
house rule, announcements, misères, the sitting-out dealer, valid and invalid) runs both
engines on the same hands and asserts the same rows, the same problems and the same warnings;
the worked examples of docs/rules.md (F1–F5, S1–S10, H1–H6) are asserted in JavaScript against the
rows written there. The JavaScript runs in Debian's Chromium (Playwright), the browser the app
targets:
one page, the module imported once, every hand evaluated in one call.
"""

import itertools
import json
import os
import random
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from scoresheet import scoring
from scripts import chromium

ROOT = Path(__file__).resolve().parent.parent
MODULE = ROOT / "static" / "scoresheet" / "scoring.js"
ORIGIN = "http://engine.test"
CASES = 30_000
# Drawn in parts, each from its own seed: tests of a few seconds that make test's processes share.
PARTS = 6

pytestmark = pytest.mark.skipif(
    not Path(chromium.CHROMIUM).exists(),
    reason=f"the JavaScript engine runs in Chromium at {chromium.CHROMIUM} "
    "(apt-get install chromium)",
)

# Runs each case in the page: {hand, rules} -> {problems: [[field, seat, msgid]]} or the row.
# Cases and answers cross as JSON text: Playwright's own serialisation of 30,000 objects is slow.
RUN = """async (text) => {
  const engine = await import('/scoring.js');
  return JSON.stringify(JSON.parse(text).map(({hand, rules}) => {
    const result = engine.breakdown(hand, rules);
    if (result.problems) return {problems: result.problems.map(p => [p.field, p.seat, p.message])};
    return {...result, warnings: engine.warnings(hand, rules).map(p => [p.field, p.message])};
  }));
}"""


@pytest.fixture(scope="module")
def engine():
    """A Chromium page with scoring.js served at /scoring.js (routed: no server, no network);
    returns a function that evaluates a script with an argument there."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as driver:
            browser = chromium.launch(driver)
            page = browser.new_page()

            def serve(route):
                if route.request.url.endswith("/scoring.js"):
                    route.fulfill(body=MODULE.read_text(), content_type="text/javascript")
                else:
                    route.fulfill(
                        body="<!doctype html><title>engine</title>", content_type="text/html"
                    )

            page.route(f"{ORIGIN}/**", serve)
            page.goto(f"{ORIGIN}/")
            yield page.evaluate
            browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


# Every house rule combination (docs/rules.md §6.1), and the seats each can play at.
ALL_RULES = [
    scoring.Rules(poignees=p, rounding=r, misere=m, dealer_sits_out=d)
    for p, r, m, d in itertools.product(
        scoring.POIGNEE_VALUES, scoring.ROUNDINGS, scoring.MISERES, (False, True)
    )
]


def playable(rules: scoring.Rules) -> list[int]:
    return [seats for seats in scoring.SEATS if not scoring.check_rules(rules, seats)]


def valid_hand(rng: random.Random, seats: int, rules: scoring.Rules) -> dict:
    """A hand the rules accept, built field by field from docs/rules.md §1–3 and §6."""
    players = rules.players(seats)
    dealer = rng.randrange(seats)
    out = dealer if rules.dealer_sits_out else None
    playing = [seat for seat in range(seats) if seat != out]
    taker = rng.choice(playing)
    partner = None
    if players == 5 and rng.random() < 0.8:
        partner = rng.choice([seat for seat in playing if seat != taker])
    bouts = rng.randrange(4)
    low, high = 4 * bouts, 91 - 4 * (3 - bouts)
    # Whole points at 4 players, half points at 3 and 5 (docs/rules.md §1).
    points = rng.randint(low, high) if players == 4 else rng.randint(2 * low, 2 * high) / 2
    # Near the target most of the time: made/lost by a little, juste fait, half points.
    if rng.random() < 0.5:
        target = scoring.TARGETS[bouts]
        step = 1 if players == 4 else 0.5
        near = target + step * rng.randint(-6, 6)
        if low <= near <= high:
            points = int(near) if players == 4 else near
    if rng.random() < 0.15:
        # As the form sends it: a string, with a decimal comma sometimes.
        points = str(points).replace(".", rng.choice([".", ","]))
    poignees = {}
    trumps = scoring.POIGNEE_TRUMPS[players]
    for seat in rng.sample(playing, k=rng.choice([0, 0, 0, 1, 1, 2, 3])):
        size = rng.choice(list(scoring.Poignee))
        if sum(trumps[k] for k in poignees.values()) + trumps[size] <= scoring.TRUMPS:
            poignees[seat] = str(size)
    chelem = rng.choice([None] * 8 + [str(c) for c in scoring.Chelem])
    defence_chelem = chelem not in ("announced_made", "unannounced_made") and rng.random() < 0.1
    miseres = {}
    if rules.misere:
        for seat in rng.sample(playing, k=rng.choice([0, 0, 1, 1, 2])):
            miseres[seat] = rng.choice([1, 1, 2, "1", "2"])
    return {
        "seats": seats,
        "taker": taker,
        "contract": rng.choice(list(scoring.Contract)).value,
        "bouts": bouts,
        "points": points,
        "partner": partner,
        "petit_au_bout": rng.choice([None, None, None, "attack", "defence"]),
        "poignees": poignees,
        "chelem": chelem,
        "defence_chelem": defence_chelem,
        "dealer": dealer,
        "miseres": miseres,
    }


# What a browser or a tampered form could send instead of each field (docs/rules.md §3.1, §6.6).
MUTATIONS = {
    "seats": [2, 7, "four", None, True],
    "taker": [-1, 9, None, "x", True, "1", " 2 ", 1.5],
    "partner": [0, 1, 4, 5, 8, "x", False, "", "3"],
    "contract": ["petite", "", None, 2, "GARDE"],
    "bouts": [-1, 4, None, "2", "deux", True, 2.5],
    "points": [
        *[-1, 92, 91.5, 40.25, 45.5, 44.5, 0, 91, 3, 1e-7, 0.0000015, 40.000001, 1e6, 999999.5],
        *["abc", "", None, "40,5", " 49 ", "1e1", "nan", "+40", "-1", "40.", ".5", "0000049"],
        *["40.50", "40,5,5", "4 9", "٤٩", "49.0", "1234567"],
    ],
    "petit_au_bout": ["both", 1, "", "attack"],
    "poignees": [
        {0: "simple", 1: "simple", 2: "simple"},
        {0: "triple", 1: "double"},
        {0: "huge"},
        {9: "simple"},
        {-1: "simple"},
        {0: ""},
        {1: None},
        {0: 3},
        [],
        "simple",
    ],
    "chelem": ["yes", "", "announced_made", "announced_failed", 1],
    "defence_chelem": ["yes", 1, None, True],
    "dealer": [None, -1, 9, "0", "x"],
    "miseres": [
        {0: 1},
        {0: 3},
        {0: 0},
        {1: "2"},
        {9: 1},
        {0: True},
        {0: None},
        {2: 2, 3: 1},
        [],
        "1",
    ],
}


def mutated(rng: random.Random, hand: dict) -> dict:
    """The hand with one to three fields replaced by what MUTATIONS lists (often invalid)."""
    hand = dict(hand)
    for name in rng.sample(sorted(MUTATIONS), k=rng.choice([1, 1, 1, 2, 3])):
        hand[name] = rng.choice(MUTATIONS[name])
    return hand


def cases(count: int, seed: int = 2026) -> list[dict]:
    rng = random.Random(seed)
    made = []
    for index in range(count):
        rules = ALL_RULES[index % len(ALL_RULES)]
        seats = rng.choice(playable(rules))
        hand = valid_hand(rng, seats, rules)
        roll = rng.random()
        if roll < 0.25:
            hand = mutated(rng, hand)
        elif roll < 0.27:
            # Rules that cannot play at this table (6 seats without the dealer sitting out...).
            hand["seats"] = rng.choice([s for s in scoring.SEATS if s not in playable(rules)])
        made.append({"hand": hand, "rules": rules})
    return made


def as_json(value):
    """What JSON carries to the page: mapping keys become strings."""
    return json.loads(json.dumps(value))


def python_result(hand: dict, rules: scoring.Rules) -> dict:
    subject = scoring.Hand(**hand)
    problems = scoring.validate(subject, rules)
    if problems:
        return {"problems": [[p.field, p.seat, p.message] for p in problems]}
    detail = scoring.breakdown(subject, rules)
    return {
        "players": detail.players,
        "made": detail.made,
        "points": float(detail.points),
        "target": detail.target,
        "diff": detail.diff,
        "rounded_diff": detail.rounded_diff,
        "base": detail.base,
        "multiplier": detail.multiplier,
        "contract": detail.contract,
        "petit_au_bout": detail.petit_au_bout,
        "poignees": detail.poignees,
        "chelem": detail.chelem,
        "defence_chelem": detail.defence_chelem,
        "per_defender": detail.per_defender,
        "scores": list(detail.scores),
        "seats": detail.seats,
        "sitting_out": detail.sitting_out,
        "misere": detail.misere,
        "misere_counts": list(detail.misere_counts),
        "miseres": list(detail.miseres),
        "expression": detail.expression(),
        "warnings": [[w.field, w.message] for w in scoring.warnings(subject, rules)],
    }


def part(number: int) -> list[dict]:
    """One part of the CASES hands (every rule combination in each)."""
    return cases(CASES // PARTS, seed=2026 + number)


@pytest.mark.parametrize("number", range(PARTS))
def test_both_engines_agree_on_random_hands(engine, number):
    drawn = part(number)
    # JSON turns int keys into strings: Python reads both ("2" is seat 2), so the hands agree.
    sent = [{"hand": as_json(c["hand"]), "rules": c["rules"].to_data()} for c in drawn]
    answers = json.loads(engine(RUN, json.dumps(sent)))
    assert len(answers) == len(drawn)
    valid = invalid = 0
    for case, answer in zip(drawn, answers, strict=True):
        expected = python_result(case["hand"], case["rules"])
        assert answer == expected, (case, answer, expected)
        if "problems" in expected:
            invalid += 1
        else:
            valid += 1
            assert sum(answer["scores"]) == 0
    # Both branches are exercised at scale, every rule and table size included.
    assert valid > len(drawn) // 2
    assert invalid > len(drawn) // 8
    seen = {(c["hand"]["seats"], c["rules"]) for c in drawn if "seats" in c["hand"]}
    for rules in ALL_RULES:
        for seats in playable(rules):
            assert (seats, rules) in seen


def test_every_contract_and_table_is_drawn():
    drawn = [case for number in range(PARTS) for case in part(number)]
    assert len(drawn) == CASES
    contracts = {c["hand"]["contract"] for c in drawn}
    assert set(scoring.Contract) <= contracts
    assert {c["hand"]["seats"] for c in drawn} >= set(scoring.SEATS)
    assert any(c["hand"]["miseres"] for c in drawn if isinstance(c["hand"]["miseres"], dict))
    assert any(c["rules"].dealer_sits_out for c in drawn)


RULES_DATA = [
    {},
    {"rounding": 10},
    {"poignees": "20-40-60", "misere": 20, "dealer_sits_out": True, "rounding": 5},
    {"rounding": 3},
    {"misere": "10"},
    {"poignees": "20-30-50"},
    {"dealer_sits_out": 1},
    {"house": True},
    [],
    "fft",
]


def test_rules_from_data_agree(engine):
    answers = engine(
        """async (all) => { const engine = await import('/scoring.js');
           return all.map(d => engine.rulesFrom(d)); }""",
        RULES_DATA,
    )
    for data, answer in zip(RULES_DATA, answers, strict=True):
        if "problems" in answer:
            with pytest.raises(scoring.InvalidRules) as refused:
                scoring.Rules.from_data(data)
            assert [[p["field"], p["message"]] for p in answer["problems"]] == [
                [p.field, p.message] for p in refused.value.problems
            ]
        else:
            assert answer == {"rules": scoring.Rules.from_data(data).to_data()}


# docs/rules.md §5.1 (F1–F5): the FFT rulebook's sample sheet (4 players), rows and totals as
# written there.
SAMPLE_SHEET = [
    (
        {
            "taker": 2,
            "contract": "garde",
            "bouts": 2,
            "points": 49,
            "petit_au_bout": "attack",
            "poignees": {"2": "simple"},
        },
        [-106, -106, 318, -106],
    ),
    (
        {
            "taker": 3,
            "contract": "garde_sans",
            "bouts": 1,
            "points": 55,
            "petit_au_bout": "defence",
        },
        [-76, -76, -76, 228],
    ),
    (
        {
            "taker": 1,
            "contract": "prise",
            "bouts": 0,
            "points": 49,
            "petit_au_bout": "attack",
            "poignees": {"1": "simple"},
        },
        [42, -126, 42, 42],
    ),
    (
        {"taker": 0, "contract": "garde", "bouts": 3, "points": 47, "poignees": {"2": "simple"}},
        [276, -92, -92, -92],
    ),
    (
        {
            "taker": 1,
            "contract": "garde",
            "bouts": 2,
            "points": 87,
            "petit_au_bout": "attack",
            "poignees": {"1": "simple"},
            "chelem": "announced_made",
        },
        [-582, 1746, -582, -582],
    ),
]
SAMPLE_TOTALS = [-446, 1346, -390, -510]

# docs/rules.md S1–S10 (taker in seat 0) and H1–H6: (seats, rules, hand, row).
EXAMPLES = [
    (
        4,
        {},
        {
            "contract": "garde",
            "bouts": 2,
            "points": 47,
            "petit_au_bout": "attack",
            "poignees": {"1": "simple"},
        },
        [306, -102, -102, -102],
    ),
    (
        4,
        {},
        {
            "contract": "garde",
            "bouts": 2,
            "points": 38,
            "petit_au_bout": "attack",
            "poignees": {"1": "simple"},
        },
        [-168, 56, 56, 56],
    ),
    (
        4,
        {},
        {
            "contract": "garde_sans",
            "bouts": 3,
            "points": 50,
            "petit_au_bout": "attack",
            "poignees": {"0": "simple"},
        },
        [648, -216, -216, -216],
    ),
    (
        4,
        {},
        {"contract": "garde_contre", "bouts": 2, "points": 39, "poignees": {"2": "simple"}},
        [-546, 182, 182, 182],
    ),
    (
        4,
        {},
        {
            "contract": "garde",
            "bouts": 3,
            "points": 91,
            "petit_au_bout": "attack",
            "chelem": "announced_made",
        },
        [1740, -580, -580, -580],
    ),
    (3, {}, {"contract": "garde", "bouts": 2, "points": 44.5}, [116, -58, -58]),
    # 5 players, u = 58: garde, 2 bouts, 44.5 is (25 + 4) × 2 = 58.
    (
        5,
        {},
        {"contract": "garde", "bouts": 2, "points": 44.5, "partner": 1},
        [116, 58, -58, -58, -58],
    ),
    (5, {}, {"contract": "garde", "bouts": 2, "points": 44.5}, [232, -58, -58, -58, -58]),
    # H1–H6
    (4, {"rounding": 10}, {"contract": "garde", "bouts": 2, "points": 49}, [210, -70, -70, -70]),
    (4, {"rounding": 5}, {"contract": "prise", "bouts": 0, "points": 59}, [90, -30, -30, -30]),
    (
        4,
        {"poignees": "20-40-60"},
        {"contract": "garde", "bouts": 2, "points": 51, "poignees": {"0": "triple"}},
        [390, -130, -130, -130],
    ),
    (
        4,
        {"misere": 10},
        {"contract": "prise", "bouts": 1, "points": 60, "miseres": {"2": 1}},
        [92, -44, -4, -44],
    ),
    (
        6,
        {"dealer_sits_out": True},
        {"contract": "prise", "bouts": 1, "points": 55, "partner": 2, "dealer": 5},
        [58, -29, 29, -29, -29, 0],
    ),
    (
        5,
        {"misere": 10, "dealer_sits_out": True},
        {"contract": "prise", "bouts": 1, "points": 60, "miseres": {"2": 1}, "dealer": 4},
        [92, -44, -4, -44, 0],
    ),
]

# docs/rules.md §2.1: half points decide on the exact value, then the difference is rounded up.
HALF_POINTS = [(40.5, 2, False, 1), (41.5, 2, True, 1), (35.5, 3, False, 1)]


def test_worked_examples_in_javascript(engine):
    rows = engine(
        """async ({sheet, examples, halves}) => {
          const engine = await import('/scoring.js');
          const played = sheet.map(([hand]) => engine.score({seats: 4, ...hand}));
          const totals = played.reduce((t, row) => t.map((v, i) => v + row[i]), [0, 0, 0, 0]);
          const others = examples.map(([seats, data, hand]) =>
            engine.score({seats, taker: 0, ...hand}, engine.rulesFrom(data).rules));
          const half = halves.map(([points, bouts]) => {
            const b = engine.breakdown({seats: 3, taker: 0, contract: 'prise', bouts, points});
            return [b.made, b.diff];
          });
          return {played, totals, others, half};
        }""",
        {"sheet": SAMPLE_SHEET, "examples": EXAMPLES, "halves": HALF_POINTS},
    )
    assert rows["played"] == [row for _, row in SAMPLE_SHEET]
    assert rows["totals"] == SAMPLE_TOTALS
    assert rows["others"] == [row for *_, row in EXAMPLES]
    assert rows["half"] == [[made, diff] for _, _, made, diff in HALF_POINTS]


def test_javascript_breakdown_explains_h4(engine):
    """docs/rules.md H4: the plain row is +102, −34 ×3; the misère adds +30 to seat 2 and −10 to
    each other player, outside u."""
    detail = engine(
        """async () => { const engine = await import('/scoring.js');
           return engine.breakdown({seats: 4, taker: 0, contract: 'prise', bouts: 1, points: 60,
                                    miseres: {2: 1}}, {...engine.FFT, misere: 10}); }"""
    )
    assert detail["per_defender"] == 34
    assert detail["miseres"] == [-10, -10, 30, -10]
    assert detail["scores"] == [92, -44, -4, -44]
    assert detail["expression"] == "(25 + 9) × 1"


def test_javascript_refuses_by_field(engine):
    """docs/rules.md §3.1 and §6.6: refusals name the field (and the seat for announcements)."""
    found = engine(
        """async () => { const engine = await import('/scoring.js');
           const fft = engine.FFT;
           const fields = (hand, rules = fft) =>
             engine.validate(hand, rules).map(p => [p.field, p.seat]);
           return [
             fields({seats: 4, taker: 0, contract: 'garde', bouts: 2, points: 40.5}),
             fields({seats: 4, taker: 0, contract: 'garde', bouts: 2, points: 41, partner: 1}),
             fields({seats: 3, taker: 0, contract: 'garde', bouts: 3, points: 10}),
             fields({seats: 4, taker: 0, contract: 'garde', bouts: 1, points: 50,
                     poignees: {1: 'simple', 2: 'simple', 3: 'simple'}}),
             fields({seats: 4, taker: 0, contract: 'prise', bouts: 1, points: 50,
                     miseres: {1: 1}}),
             fields({seats: 6, taker: 5, contract: 'prise', bouts: 1, points: 50, dealer: 5},
                    {...fft, dealer_sits_out: true}),
             fields({seats: 6, taker: 0, contract: 'prise', bouts: 1, points: 50}),
             fields({seats: 5, taker: 0, contract: 'prise', bouts: 1, points: 50, dealer: 4,
                     miseres: {4: 1}}, {...fft, misere: 10, dealer_sits_out: true}),
           ]; }"""
    )
    assert found == [
        [["points", None]],
        [["partner", None]],
        [["points", None]],
        [["poignees", None]],
        [["miseres", None]],
        [["taker", None]],
        [["dealer_sits_out", None]],
        [["miseres", 4]],
    ]
