"""Running totals on the sheet: under each hand's scores, each player's total after
that hand, as a paper feuille de marque writes it; shown when this phone asks for it (a cookie,
set by a link that works without JavaScript), on the full and the read-only links."""

import re

import pytest
from django.urls import reverse

from scoresheet import scoring
from scoresheet.sheets import writes
from tests.reading import hand_numbered, store

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Chloé", "Dan"]
# docs/rules.md F1–F3, the FFT rulebook's sample sheet's first three hands, and the running totals
# added by hand from their rows (−106 −106 +318 −106; −76 −76 −76 +228; +42 −126 +42 +42).
SAMPLE = [
    scoring.Hand(4, 2, "garde", 2, 49, None, "attack", {2: "simple"}),
    scoring.Hand(4, 3, "garde_sans", 1, 55, None, "defence"),
    scoring.Hand(4, 1, "prise", 0, 49, None, "attack", {1: "simple"}),
]
RUNNING = [
    ["−106", "−106", "+318", "−106"],
    ["−182", "−182", "+242", "+122"],
    ["−140", "−308", "+284", "+164"],
]


@pytest.fixture
def sheet():
    sheet = writes.create_sheet("Feuille", NAMES, 0)
    store(sheet, *SAMPLE)
    return sheet


def running_lines(page: str) -> list[list[str]]:
    """The running totals of each row shown (not of the offline script's row <template>)."""
    page = re.sub(r"<template.*?</template>", "", page, flags=re.S)
    lines = re.findall(
        r'<span class="grid running[^"]*"[^>]*>(.*?)</span>\s*<span class="checksum', page, re.S
    )
    return [re.findall(r'<span class="score">([^<]*)</span>', line) for line in lines]


def html_tag(page: str) -> str:
    return re.search(r"<html[^>]*>", page).group(0)


@pytest.mark.parametrize("readonly", [False, True])
def test_every_row_carries_the_totals_after_it(client, sheet, readonly):
    url = sheet.get_view_url() if readonly else sheet.get_absolute_url()
    page = client.get(url).content.decode()
    assert running_lines(page) == RUNNING
    # Hidden until asked for: the switch is off.
    assert "data-running" not in html_tag(page)
    assert 'role="switch" aria-checked="false"' in page


@pytest.mark.parametrize("readonly", [False, True])
def test_the_switch_is_a_link_that_the_phone_remembers(client, sheet, readonly):
    url = sheet.get_view_url() if readonly else sheet.get_absolute_url()
    response = client.get(reverse("set_running_totals"), {"show": "1", "next": url})
    assert response.status_code == 302
    assert response["Location"] == url
    assert response.cookies["running"].value == "1"
    page = client.get(url).content.decode()
    assert "data-running" in html_tag(page)
    assert 'aria-checked="true"' in page
    assert "show=0" in page
    # Off again.
    response = client.get(reverse("set_running_totals"), {"show": "0", "next": url})
    assert response.cookies["running"].value == ""
    assert "data-running" not in html_tag(client.get(url).content.decode())


def test_it_goes_back_only_to_this_site(client):
    response = client.get(
        reverse("set_running_totals"), {"show": "1", "next": "https://evil.example/"}
    )
    assert response["Location"] == "/"


def test_a_correction_sends_every_later_row_when_the_totals_show(client, sheet):
    """Correcting hand 1 moves the running totals of hands 2 and 3: with them shown, the answer
    carries every row, not only the corrected one."""
    client.cookies["running"] = "1"
    hand = hand_numbered(sheet, 1)
    response = client.post(
        reverse("hand_edit", args=[sheet.token, 1]),
        {
            "key": str(hand.key),
            "version": hand.version,
            "taker": "2",
            "contract": "garde",
            "bouts": "2",
            "points": "49",
            "petit_au_bout": "",
            "poignee_2": "",
            "chelem": "",
        },
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    # Garde 2 bouts 49, no petit, no poignée: made by 8, (25 + 8) × 2 = 66; Chloé +198.
    lines = running_lines(response.content.decode())
    assert lines == [
        ["−66", "−66", "+198", "−66"],
        ["−142", "−142", "+122", "+162"],
        ["−100", "−268", "+164", "+204"],
    ]
