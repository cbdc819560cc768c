"""Entering hands by taps at the table: every kind of hand, checked against ``scoring.score``.

The preview is read before saving, the row and the totals after; then the hands stored are the
ones tapped in. Both phones of the issue, and once at desktop size.
"""

import dataclasses
from decimal import Decimal

import pytest
from playwright.sync_api import expect

from scoresheet import scoring, tally
from scoresheet.models import Sheet
from tests import scored
from tests.e2e.conftest import DESKTOP, PHONES
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

FIVE = ["Ana", "Ben", "Chloé", "Dan", "Élise"]
FOUR = ["Ana", "Ben", "Chloé", "Dan"]
PASSED = None


def hand5(**fields) -> scoring.Hand:
    return scoring.Hand(seats=5, **fields)


def hand4(**fields) -> scoring.Hand:
    return scoring.Hand(seats=4, **fields)


# (hand, how it is entered): every contract, a partner and alone, a half point, the defence's
# points, petit au bout to either camp, two poignées, each chelem, and a passed deal.
HANDS_5 = [
    (
        hand5(
            taker=0, contract="prise", partner=2, bouts=1, points=Decimal("48.5"),
            petit_au_bout="attack",
        ),
        {"step": True},
    ),
    (
        hand5(
            taker=1, contract="garde", partner=None, bouts=2, points=Decimal(40),
            petit_au_bout="defence", poignees={1: "simple", 3: "double"},
        ),
        {"defence_points": True},
    ),
    (
        hand5(
            taker=2, contract="garde_sans", partner=3, bouts=3, points=Decimal(91),
            chelem="announced_made", petit_au_bout="attack",
        ),
        {},
    ),
    (PASSED, {}),
    (
        hand5(
            taker=3, contract="garde_contre", partner=0, bouts=0, points=Decimal(0),
            defence_chelem=True,
        ),
        {},
    ),
    (
        hand5(
            taker=4, contract="prise", partner=None, bouts=3, points=Decimal(91),
            chelem="unannounced_made", poignees={4: "triple"},
        ),
        {},
    ),
    (
        hand5(
            taker=1, contract="garde", partner=4, bouts=1, points=Decimal("60.5"),
            chelem="announced_failed",
        ),
        {"defence_points": True},
    ),
]  # fmt: skip

HANDS_4 = [
    (
        hand4(
            taker=2, contract="garde", bouts=2, points=Decimal(49), petit_au_bout="attack",
            poignees={2: "simple"},
        ),
        {},
    ),
    (PASSED, {}),
    (
        hand4(
            taker=3, contract="garde_sans", bouts=1, points=Decimal(55), petit_au_bout="defence",
        ),
        {"defence_points": True},
    ),
    (hand4(taker=0, contract="garde_contre", bouts=3, points=Decimal(35)), {}),
    (hand4(taker=1, contract="prise", bouts=0, points=Decimal(56)), {}),
]  # fmt: skip


def play(sheet_page: SheetPage, names, hands, first_dealer):
    """Enter every hand by taps; check the preview, then the row, totals and next dealer."""
    totals = [0] * len(names)
    for number, (hand, how) in enumerate(hands, start=1):
        sheet_page.open_new_hand()
        dealer = tally.dealer(first_dealer, number, len(names))
        expect(sheet_page.page.locator("#entry-title")).to_contain_text(
            f"Hand {number} {names[dealer]} deals"
        )
        if hand is PASSED:
            sheet_page.pass_deal()
            scores = (0,) * len(names)
            expect(sheet_page.row(number)).to_contain_text("Everyone passed")
        else:
            sheet_page.fill_hand(hand, names, **how)
            sheet_page.expect_preview(hand, names)
            sheet_page.save()
            scores = scoring.score(hand)
        totals = [total + score for total, score in zip(totals, scores, strict=True)]
        sheet_page.expect_row(number, scores)
        sheet_page.expect_totals(names, totals)
        following = names[tally.dealer(first_dealer, number + 1, len(names))]
        expect(sheet_page.page.locator("#totals .dealer-line")).to_have_text(
            f"Hand {number + 1}: {following} deals"
        )
    return totals


def stored(sheet: Sheet) -> list:
    """The hands' stored inputs; who dealt each is checked on its own (``dealers``)."""
    players = sheet.seats.count()
    return [
        None if h.passed else dataclasses.replace(h.to_scoring(players), dealer=None)
        for h in sheet.hands.all()
    ]


def dealers(sheet: Sheet) -> list[int]:
    return list(sheet.hands.values_list("dealer", flat=True))


@pytest.mark.parametrize("profile", [*PHONES, DESKTOP])
def test_five_players_every_kind_of_hand(open_page, profile):
    sheet_page = SheetPage(open_page(profile))
    path = sheet_page.create_session(FIVE, first_dealer=4, name="Vendredi")
    sheet = Sheet.objects.get()
    assert path == sheet.get_absolute_url()
    assert sheet.name == "Vendredi"
    assert sheet.first_dealer == 4

    totals = play(sheet_page, FIVE, HANDS_5, first_dealer=4)

    assert stored(sheet) == [hand for hand, _how in HANDS_5]
    # The deal went round from Élise (seat 4), passed deals included.
    assert dealers(sheet) == [(4 + number) % 5 for number in range(len(HANDS_5))]
    assert list(scored.build(5, 4, stored(sheet)).totals) == totals
    # A reload shows the same sheet, from the database.
    sheet_page.page.reload()
    sheet_page.expect_totals(FIVE, totals)
    expect(sheet_page.page.locator("#hands .hand")).to_have_count(len(HANDS_5))


@pytest.mark.parametrize("profile", [PHONES[0], DESKTOP])
def test_four_players(open_page, profile):
    sheet_page = SheetPage(open_page(profile))
    sheet_page.create_session(FOUR, first_dealer=1)
    sheet = Sheet.objects.get()
    assert list(sheet.seats.values_list("name", flat=True)) == FOUR

    totals = play(sheet_page, FOUR, HANDS_4, first_dealer=1)

    assert stored(sheet) == [hand for hand, _how in HANDS_4]
    assert dealers(sheet) == [(1 + number) % 4 for number in range(len(HANDS_4))]
    assert list(scored.build(4, 1, stored(sheet)).totals) == totals
    # The FFT rulebook's first hand: 318 for the taker, 106 from each defender.
    assert scoring.score(HANDS_4[0][0]) == (-106, -106, 318, -106)
