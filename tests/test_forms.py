"""The session's forms on their own (no request): a new session and a hand. Expected scores come
from docs/rules.md (§2 for the base, §3.1 and §2.3 for the 5-player partner), never from the
code."""

import uuid
from decimal import Decimal

from django.utils import translation

from scoresheet import scoring
from scoresheet.sheets.forms import HandForm, SheetForm

NAMES = ["Ana", "Ben", "Chloé", "Dan"]


def sheet_data(names, **fields):
    data = {"key": str(uuid.uuid4()), "players": str(len(names)), "first_dealer": "0"}
    data.update({f"player_{seat}": name for seat, name in enumerate(names)})
    data.update({name: str(value) for name, value in fields.items()})
    return data


def hand_form(data, seats=NAMES, rules=scoring.FFT, dealer=0):
    return HandForm({"key": str(uuid.uuid4()), **data}, seats=seats, rules=rules, dealer=dealer)


def test_a_new_session_keeps_its_names_in_seat_order_under_the_fft_rules():
    form = SheetForm(sheet_data(NAMES))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["names"] == NAMES
    assert form.cleaned_data["rules"] == scoring.FFT


def test_a_name_twice_is_refused_on_its_field_and_the_typing_is_kept():
    form = SheetForm(sheet_data(["Ana", "Ben", "ana", "Dan"]))
    assert not form.is_valid()
    assert "player_2" in form.errors
    assert form["player_2"].value() == "ana"


def test_a_first_dealer_who_is_not_at_the_table_is_refused():
    form = SheetForm(sheet_data(["Ana", "Ben", "Chloé"], first_dealer=4))
    assert not form.is_valid()
    assert form.errors["first_dealer"] == ["First dealer: choose one of the players at the table."]


def test_at_six_seats_the_dealer_sits_out():
    """docs/rules.md §6.4: at 6 seats the dealer always sits out, whatever the form said."""
    form = SheetForm(sheet_data(["Ana", "Ben", "Chloé", "Dan", "Élise", "Fred"]))
    assert form.is_valid(), form.errors
    assert form.cleaned_data["rules"].dealer_sits_out


def test_a_hand_reaches_the_engine_as_typed():
    """A garde with 2 bouts and 51 points: 41 needed, made by 10, (25 + 10) × 2 = 70 from each
    defender (docs/rules.md E2)."""
    form = hand_form({"taker": 1, "contract": "garde", "bouts": 2, "points": "51"})
    assert form.is_valid(), form.errors
    hand = form.cleaned_data["hand"]
    assert (hand.taker, hand.contract, hand.bouts, hand.points) == (1, "garde", 2, 51)
    assert scoring.score(hand) == (-70, 210, -70, -70)


def test_half_points_in_french_are_read_with_a_comma():
    """docs/rules.md §1: half points exist at 3 players (and 5), not at 4."""
    with translation.override("fr"):
        form = hand_form(
            {"taker": 0, "contract": "prise", "bouts": 1, "points": "40,5"},
            seats=["Ana", "Ben", "Chloé"],
        )
        assert form.is_valid(), form.errors
    assert form.cleaned_data["hand"].points == Decimal("40.5")


def test_a_refused_half_point_is_written_with_the_locales_comma():
    """Half points with the locale's decimal comma everywhere, messages too."""
    with translation.override("fr"):
        form = hand_form({"taker": 0, "contract": "prise", "bouts": 1, "points": "40,5"})
        assert not form.is_valid()
        assert form.errors["points"] == ["Points\u00a0: pas de demi-point à 4 joueurs (40,5)."]


def test_points_above_91_name_the_field():
    form = hand_form({"taker": 0, "contract": "prise", "bouts": 1, "points": "92"})
    assert not form.is_valid()
    assert "points" in form.errors


def test_at_five_a_forgotten_partner_is_refused_and_alone_is_a_choice():
    """docs/rules.md §3.1 and §2.3: at 5 the taker calls a partner; alone, they score ×4 against
    four (E11)."""
    five = ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    hand = {"taker": 0, "contract": "prise", "bouts": 1, "points": "51"}
    forgotten = hand_form(hand, seats=five)
    assert not forgotten.is_valid()
    assert forgotten.errors["partner"] == ["Partner: choose one of the players, or alone."]
    alone = hand_form({**hand, "partner": "alone"}, seats=five)
    assert alone.is_valid(), alone.errors
    # 1 bout: 51 needed, made by 0: 25 from each of the four defenders.
    assert scoring.score(alone.cleaned_data["hand"]) == (100, -25, -25, -25, -25)
