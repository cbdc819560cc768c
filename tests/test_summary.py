"""The evening's summary (scoresheet/sheets/summary.py): its figures on known sessions, worked out
by hand from docs/rules.md (§5.1, C1–C3, D1–D3, G1–G4), at 3 to 6 seats, with ties, passed deals
and house rules; and its cost."""

import uuid
from datetime import UTC, datetime, timedelta

import pytest

from scoresheet.models import Sheet
from scoresheet.scoring import FFT, Hand, Rules
from scoresheet.sheets import summary, writes
from tests.reading import hand_numbered

pytestmark = pytest.mark.django_db


def session(names, hands, rules=FFT, first_dealer=0):
    """A sheet holding ``hands`` (None: a passed deal), dealt in turn from ``first_dealer``."""
    sheet = writes.create_sheet("Vendredi", names, first_dealer, rules=rules, hands=hands)
    return Sheet.objects.get(pk=sheet.pk)


def fft_sheet(passed_at=3):
    """docs/rules.md §5.1: the FFT rulebook's sample sheet (rows below), a passed deal as hand 3.

    1. Chloé garde, 2 bouts, 49, petit au bout attack, simple poignée: −106 −106 +318 −106
    2. Dan garde sans, 1 bout, 55, petit au bout defence:                −76  −76  −76 +228
    4. Ben prise, 0 bouts, 49, petit au bout attack, simple poignée:    +42 −126  +42  +42
    5. Ana garde, 3 bouts, 47, simple poignée:                          +276  −92  −92  −92
    6. Ben garde, 2 bouts, 87, petit au bout, poignée, chelem announced and made:
                                                                       −582 +1746 −582 −582
    Totals −446, +1346, −390, −510.
    """
    hands = [
        Hand(4, 2, "garde", 2, 49, petit_au_bout="attack", poignees={2: "simple"}),
        Hand(4, 3, "garde_sans", 1, 55, petit_au_bout="defence"),
        Hand(4, 1, "prise", 0, 49, petit_au_bout="attack", poignees={1: "simple"}),
        Hand(4, 0, "garde", 3, 47, poignees={2: "simple"}),
        Hand(
            4,
            1,
            "garde",
            2,
            87,
            petit_au_bout="attack",
            poignees={1: "simple"},
            chelem="announced_made",
        ),
    ]
    hands.insert(passed_at - 1, None)
    return session(["Ana", "Ben", "Chloé", "Dan"], [(None, hand) for hand in hands])


def places(found):
    return [(place.place, place.name, place.total) for place in found.places]


def test_the_fft_rulebook_sheet():
    found = summary.read(fft_sheet())
    assert places(found) == [
        (1, "Ben", 1346),
        (2, "Chloé", -390),
        (3, "Ana", -446),
        (4, "Dan", -510),
    ]
    assert (found.hands, found.passed) == (6, 1)
    # Hand 6 (the rulebook's 5th): 582 to each defender.
    assert (found.biggest.number, found.biggest.value, found.biggest.made) == (6, 582, True)
    assert found.biggest_names == ("Ben",)
    # Its row also puts the most between two players: +1746 for Ben, −582 for the others.
    assert (found.swing.number, found.swing.gap) == (6, 2328)
    assert (found.swing.high, found.swing.high_names) == (1746, ("Ben",))
    assert (found.swing.low, found.swing.low_names) == (-582, ("Ana", "Chloé", "Dan"))
    # Ben took hands 4 (lost: 49 of the 56 needed without a bout) and 6 (made).
    assert [(t.name, t.taken, t.made, t.percent) for t in found.takers] == [("Ben", 2, 1, 50)]
    assert found.chelem_count == 1
    assert found.failed_chelems == 0
    assert [(c.number, c.taker, c.kind) for c in found.chelems] == [(6, "Ben", "announced_made")]


def test_three_players_tied_at_the_top():
    """3 players: Ana's garde with 2 bouts and 44.5 is made by 3.5, so by 4 (the half point to
    the winning camp): 2 × (25 + 4) = 58 per defender, +116 for her. Ben's prise with 2 bouts
    and 46: 25 + 5 = 30, +60 for him. Chloé's garde with 2 bouts and 44.5: +116."""
    found = summary.read(
        session(
            ["Ana", "Ben", "Chloé"],
            [
                (None, Hand(3, 0, "garde", 2, "44.5")),
                (None, Hand(3, 1, "prise", 2, 46)),
                (None, Hand(3, 2, "garde", 2, "44.5")),
            ],
        )
    )
    # Ana 116 − 30 − 58 = 28, Ben −58 + 60 − 58 = −56, Chloé −58 − 30 + 116 = 28.
    assert places(found) == [(1, "Ana", 28), (1, "Chloé", 28), (3, "Ben", -56)]
    assert [place.name for place in found.leaders] == ["Ana", "Chloé"]
    # Hands 1 and 3 are worth 58 each: the earliest is the biggest, and the biggest swing
    # (116 − (−58) = 174).
    assert (found.biggest.number, found.biggest.value) == (1, 58)
    assert (found.swing.number, found.swing.gap) == (1, 174)
    assert found.swing.low_names == ("Ben", "Chloé")
    # Everyone took once and made it.
    assert [(t.name, t.taken, t.percent) for t in found.takers] == [
        ("Ana", 1, 100),
        ("Ben", 1, 100),
        ("Chloé", 1, 100),
    ]
    assert found.chelem_count == 0


def test_five_players_with_house_rules():
    """5 players, differences rounded to 10, misère 10 (docs/rules.md D1–D3).

    1. Ana takes a prise with 2 bouts and 46, calls Ben: made by 5, rounded to 10, so 35 per
       defender: Ana +70, Ben +35, the others −35; Élise announced a misère: +10 from each of
       the 4 others. Row: +60 +25 −45 −45 +5.
    2. Chloé alone, garde with 1 bout and 51: made by 0, 2 × 25 = 50; alone at 5 she gets 4 ×
       50: −50 −50 +200 −50 −50.
    3. Dan calls Élise, garde with 1 bout and 51 and shows a simple poignée: 50 + 20 = 70;
       −70 −70 −70 +140 +70.
    """
    rules = Rules(rounding=10, misere=10)
    found = summary.read(
        session(
            ["Ana", "Ben", "Chloé", "Dan", "Élise"],
            [
                (None, Hand(5, 0, "prise", 2, 46, partner=1, miseres={4: 1})),
                (None, Hand(5, 2, "garde", 1, 51)),
                (None, Hand(5, 3, "garde", 1, 51, partner=4, poignees={3: "simple"})),
            ],
            rules=rules,
        )
    )
    assert places(found) == [
        (1, "Chloé", 85),
        (2, "Dan", 45),
        (3, "Élise", 25),
        (4, "Ana", -60),
        (5, "Ben", -95),
    ]
    # The biggest hand is hand 3 (70 per defender); the biggest swing hand 2 (a taker alone
    # at 5 receives 4 times): 200 − (−50) = 250, more than hand 3's 140 − (−70) = 210.
    assert (found.biggest.number, found.biggest.value) == (3, 70)
    assert found.biggest_names == ("Dan", "Élise")
    assert (found.swing.number, found.swing.gap) == (2, 250)
    assert found.swing.high_names == ("Chloé",)
    assert found.swing.low_names == ("Ana", "Ben", "Dan", "Élise")
    assert [t.name for t in found.takers] == ["Ana", "Chloé", "Dan"]


def test_six_seats_the_dealer_sitting_out_and_a_passed_deal():
    """6 seats: the dealer sits out (docs/rules.md G1–G4), five play.

    1. Ana deals and sits out; Ben takes a prise with 2 bouts and 46, calls Chloé: 30;
       0 +60 +30 −30 −30 −30.
    2. Ben deals: everyone passes.
    3. Chloé deals and sits out; Dan, alone, garde sans with 0 bouts and 45: lost by 11,
       4 × (25 + 11) = 144 to each defender, 4 × 144 = 576 from Dan: +144 +144 0 −576 +144 +144.
    4. Dan deals and sits out; Erik takes a prise with 0 bouts and 0 points, calls Fay, and the
       defence makes a chelem: −(25 + 56) − 200 = −281: +281 +281 +281 0 −562 −281.
    """
    found = summary.read(
        session(
            ["Ana", "Ben", "Chloé", "Dan", "Erik", "Fay"],
            [
                (None, Hand(6, 1, "prise", 2, 46, partner=2, dealer=0)),
                (None, None),
                (None, Hand(6, 3, "garde_sans", 0, 45, dealer=2)),
                (None, Hand(6, 4, "prise", 0, 0, partner=5, defence_chelem=True, dealer=3)),
            ],
            rules=Rules(dealer_sits_out=True),
        )
    )
    assert places(found) == [
        (1, "Ben", 485),
        (2, "Ana", 425),
        (3, "Chloé", 311),
        (4, "Fay", -167),
        (5, "Erik", -448),
        (6, "Dan", -606),
    ]
    assert (found.hands, found.passed) == (4, 1)
    assert (found.biggest.number, found.biggest.value, found.biggest.made) == (4, 281, False)
    # 281 − (−562) = 843; Dan sat it out (0) and is neither its best nor its worst.
    assert (found.swing.number, found.swing.gap) == (4, 843)
    assert found.swing.high_names == ("Ana", "Ben", "Chloé")
    assert found.swing.low_names == ("Erik",)
    assert [(t.name, t.percent) for t in found.takers] == [("Ben", 100), ("Dan", 0), ("Erik", 0)]
    assert [(c.number, c.kind) for c in found.chelems] == [(4, "defence")]


def test_a_failed_chelem_is_counted_apart():
    found = summary.read(
        session(
            ["Ana", "Ben", "Chloé", "Dan"],
            [(None, Hand(4, 0, "garde", 3, 80, chelem="announced_failed"))],
        )
    )
    assert (found.chelem_count, found.failed_chelems) == (0, 1)


def test_a_sheet_with_no_hand_or_only_passed_deals():
    empty = summary.read(session(["Ana", "Ben", "Chloé"], []))
    assert places(empty) == [(1, "Ana", 0), (1, "Ben", 0), (1, "Chloé", 0)]
    assert empty.leaders == ()
    assert (empty.hands, empty.biggest, empty.swing, empty.takers) == (0, None, None, ())
    assert empty.duration is None
    passed = summary.read(session(["Ana", "Ben", "Chloé"], [(None, None), (None, None)]))
    assert (passed.hands, passed.passed, passed.swing, passed.takers) == (2, 2, None, ())


def test_the_time_from_the_first_hand_to_the_last(sheet4):
    for _ in range(3):
        writes.add_hand(sheet4.token, None, uuid.uuid4())
    start = datetime(2026, 11, 27, 19, 41, tzinfo=UTC)
    for number, minutes in ((1, 0), (2, 60), (3, 135)):
        sheet4.hands.filter(position=sheet4.position(number)).update(
            created=start + timedelta(minutes=minutes)
        )
    found = summary.read(Sheet.objects.get(pk=sheet4.pk))
    assert found.duration == timedelta(hours=2, minutes=15)


def test_a_restored_copy_has_no_time(make_backup):
    from scoresheet.files import session_backup as backup

    copy = backup.load(backup.dumps(make_backup(4)))
    assert summary.read(copy).duration is None


def test_the_shared_text():
    sheet = fft_sheet()
    found = summary.read(sheet)
    url = f"https://example.org/v/{sheet.view_token}/summary/"
    text = summary.share_text("Vendredi: the results", found, url)
    assert text.split("\n") == [
        "Vendredi: the results",
        "1. Ben +1346",
        "2. Chloé −390",
        "3. Ana −446",
        "4. Dan −510",
        url,
    ]


@pytest.mark.parametrize("size", [5, 150])
def test_the_summary_reads_the_same_few_queries_at_any_length(size, django_assert_num_queries):
    hands = [(None, Hand(4, n % 4, "garde", 2, 49 + n % 20)) for n in range(size)]
    sheet = session(["Ana", "Ben", "Chloé", "Dan"], hands)
    # The seats, the first and the last hand's times (the figures are the stored counters;
    # nothing more without a chelem).
    with django_assert_num_queries(2):
        summary.read(sheet)


def test_the_chelems_named_follow_a_deletion_and_a_correction():
    made = Hand(4, 1, "garde", 3, 91, chelem="announced_made")
    sheet = session(
        ["Ana", "Ben", "Chloé", "Dan"],
        [
            (None, Hand(4, 0, "garde", 2, 49)),
            (None, made),
            (None, Hand(4, 2, "prise", 1, 60)),
            (None, Hand(4, 3, "prise", 0, 0, defence_chelem=True)),
        ],
    )
    found = summary.read(sheet)
    assert [(c.number, c.taker, c.kind) for c in found.chelems] == [
        (2, "Ben", "announced_made"),
        (4, "Dan", "defence"),
    ]
    # Hand 1 deleted: the chelems are hands 1 and 3 now.
    writes.delete_hand(sheet.token, hand_numbered(sheet, 1).key)
    sheet.refresh_from_db()
    found = summary.read(sheet)
    assert [(c.number, c.kind) for c in found.chelems] == [(1, "announced_made"), (3, "defence")]
    # Hand 1 corrected to a garde without a chelem: only the defence's is left.
    first = hand_numbered(sheet, 1)
    writes.correct_hand(sheet.token, first.key, first.version, Hand(4, 1, "garde", 2, 49))
    sheet.refresh_from_db()
    found = summary.read(sheet)
    assert (found.chelem_count, [(c.number, c.kind) for c in found.chelems]) == (
        1,
        [(3, "defence")],
    )
