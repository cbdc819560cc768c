"""The models on their own: a hand's inputs survive the trip to the engine and back, a session's
rules are one value read from what is stored, and the links are the session's tokens."""

import uuid
from decimal import Decimal

import pytest

from scoresheet import scoring
from scoresheet.models import Hand
from scoresheet.sheets import writes

pytestmark = pytest.mark.django_db


def test_a_hand_goes_to_the_engine_and_back_unchanged():
    hand = scoring.Hand(
        seats=5,
        taker=1,
        contract="garde_sans",
        bouts=2,
        points=Decimal("45.5"),
        partner=3,
        petit_au_bout="defence",
        poignees={4: "double"},
        chelem=None,
        defence_chelem=False,
    )
    assert Hand.from_scoring(hand).to_scoring(5) == hand


def test_a_passed_deal_has_no_hand_for_the_engine():
    assert Hand(passed=True).to_scoring(4) is None


def test_a_sessions_rules_are_one_value_read_from_what_is_stored():
    rules = scoring.Rules(rounding=10, misere=10)
    sheet = writes.create_sheet("Règles", ["Ana", "Ben", "Chloé", "Dan"], 0, rules=rules)
    sheet.refresh_from_db()
    assert sheet.game_rules == rules


def test_a_sessions_two_links_are_its_two_tokens():
    sheet = writes.create_sheet("Liens", ["Ana", "Ben", "Chloé"], 0)
    assert sheet.get_absolute_url() == f"/s/{sheet.token}/"
    assert sheet.get_view_url() == f"/v/{sheet.view_token}/"
    assert sheet.token != sheet.view_token


def test_a_stored_hand_keeps_its_scores_and_the_sheet_its_totals():
    """docs/rules.md E2: a garde, 2 bouts, 51 points: +210 for the taker, −70 for each defender.
    The running totals after it are the sheet's (a hand stores none of its own)."""
    sheet = writes.create_sheet("Scores", ["Ana", "Ben", "Chloé", "Dan"], 0)
    writes.add_hand(sheet.token, scoring.Hand(4, 1, "garde", 2, 51), uuid.uuid4())
    stored = sheet.hands.get()
    assert stored.scores == [-70, 210, -70, -70]
    assert not hasattr(stored, "totals")
    sheet.refresh_from_db()
    assert sheet.totals == [-70, 210, -70, -70]
    assert sheet.checkpoints == {"every": 1, "totals": [[-70, 210, -70, -70]]}
    assert stored.balanced
