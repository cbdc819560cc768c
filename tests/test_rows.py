"""A hand's row with its words and links (scoresheet/rows.py), and the row's <template> the
offline script fills."""

import re
import uuid

from django.utils import translation

from scoresheet import scoring
from scoresheet.sheets import rows, writes
from tests.reading import hand_numbered

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise"]


def stored_row(sheet, number=1):
    hand = hand_numbered(sheet, number)
    return rows.build(hand.row(len(NAMES), sheet.game_rules), NAMES, sheet.get_absolute_url())


def test_a_row_carries_its_words_in_french(db):
    """At 5 with misère 10: garde, 2 bouts, 45,5 points, Ben called, petit au bout to the
    attack, Chloé's poignée simple and her 2 misères. FFT: 45,5 − 41 = 4,5, the half point to
    the winning camp: made by 5."""
    sheet = writes.create_sheet("Cinq", NAMES, 4, rules=scoring.Rules(misere=10))
    hand = scoring.Hand(5, 0, "garde", 2, "45.5", 1, "attack", {2: "simple"}, miseres={2: 2})
    writes.add_hand(sheet.token, hand, uuid.uuid4())
    with translation.override("fr"):
        row = stored_row(sheet)
    assert row.number == 1
    assert row.dealt == "Élise distribue"
    assert (row.taker, row.partner, row.alone) == ("Ana", "Ben", False)
    assert (row.contract, row.bouts, row.points) == ("Garde", "2 bouts", "45,5 pts")
    assert (row.outcome, row.result) == ("made", "réussie de 5")
    assert (row.petit_au_bout, row.camp) == ("attack", "attaque")
    assert row.poignees == (rows.Announcement("Chloé", "simple"),)
    assert row.miseres == (rows.Announcement("Chloé", twice=True),)
    # Chloé's 2 misères: 20 from each of the 4 others.
    assert [(t.sep, t.amount, t.others, t.name) for t in row.misere_terms] == [
        ("", 20, 4, "Chloé")
    ]
    assert row.total == 0
    assert row.balanced
    assert row.edit_url == f"/s/{sheet.token}/hands/1/edit/"
    assert row.delete_url == f"/s/{sheet.token}/hands/1/delete/"


def test_a_passed_deal_and_the_dealer_sitting_out(db):
    sheet = writes.create_sheet("Cinq", NAMES, 0, rules=scoring.Rules(dealer_sits_out=True))
    writes.add_hand(sheet.token, None, uuid.uuid4())
    # docs/rules.md H25: Ben deals and sits out; prise, 1 bout, 60 at 4 players: 34 per defender.
    writes.add_hand(sheet.token, scoring.Hand(5, 0, "prise", 1, 60, dealer=1), uuid.uuid4())
    passed, played = stored_row(sheet, 1), stored_row(sheet, 2)
    assert passed.passed
    assert not passed.played
    assert passed.dealt == "Ana deals"
    assert played.dealt == "Ben deals and sits out"
    assert [(c.score, c.out) for c in played.cells] == [
        (102, False),
        (0, True),
        (-34, False),
        (-34, False),
        (-34, False),
    ]
    assert played.cells[1].out_label == "Ben sits out"
    # Alone: nobody is called when 4 of the 5 play.
    assert not played.alone


def test_the_sheet_sends_its_row_once_more_as_a_template(client, sheet4):
    writes.add_hand(sheet4.token, scoring.Hand(4, 0, "prise", 1, 60), uuid.uuid4())
    page = client.get(sheet4.get_absolute_url()).content.decode()
    template = re.search(r'<template id="row-template">(.*?)</template>', page, re.S).group(1)
    # The same partial: the row's markup, its words as slots, no number of its own.
    assert '<details class="hand">' in template
    assert 'id="hand-' not in template
    for slot in ["number", "dealt", "taker", "contract", "bouts", "points", "result", "total"]:
        assert f'<span data-slot="{slot}"></span>' in template
    for part in ["passed", "played", "partner", "alone", "miseres", "poignees", "cells"]:
        assert f'<span data-part="{part}">' in template
    assert "misère" in template
    assert "petit au bout" in template
    # The stored row itself has no slot.
    row = re.search(r'<details class="hand" id="hand-1">.*?</details>', page, re.S).group(0)
    assert "data-slot" not in row
    assert "data-part" not in row


def test_the_read_only_page_has_no_template(client, sheet4):
    page = client.get(sheet4.get_view_url()).content.decode()
    assert "row-template" not in page
