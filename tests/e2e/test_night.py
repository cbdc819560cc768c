"""A club night in browsers: the organiser starts a night of 9 players (a table of 5
and a table of 4) from the club's link, one phone per table enters the hands of 2 rounds, and the
big screen, on the read-only link at 1920 × 1080, shows the ranking change live."""

import os
import re

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Night
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

ROSTER = ["Ana", "Ben", "Chloé", "Dan"]
NEWCOMERS = ["Élise", "Farid", "Gaëlle", "Hugo", "Inès"]
# The screen follows a hand within 3 s (it polls every 2 s; in these tests every 0.3 s: conftest's
# INTERVALS).
LIVE = 3_000


def scores(seats: int) -> list[int]:
    """Garde, 2 bouts, 51 points, taken by seat 0 (with seat 1 called at 5): made by 10, so
    (25 + 10) × 2 = 70 a defender (docs/rules.md E1, E3); at 4 the taker +210, at 5 the taker +140
    and the partner +70."""
    return [210, -70, -70, -70] if seats == 4 else [140, 70, -70, -70, -70]


def hand(seats: int) -> scoring.Hand:
    return scoring.Hand(seats, 0, "garde", 2, 51, partner=1 if seats == 5 else None)


def screen_total(screen, name: str):
    # A line of the ranking, or of the final ranking's first three.
    line = screen.locator(".screen-line, .podium li").filter(
        has=screen.locator(".name", has_text=re.compile(f"^{re.escape(name)}$"))
    )
    return line.locator(".total")


def test_a_night_of_nine_over_two_rounds(open_page):
    club = club_writes.create_club("Le jeudi", players=ROSTER).club
    organiser = SheetPage(open_page("Desktop Chrome"))
    page = organiser.page
    page.goto(club.get_absolute_url())
    organiser.tap(page.get_by_role("link", name="New club night"))
    organiser.type_into(page.get_by_label("Name of the night"), "Tournoi de décembre")
    for name in ROSTER:
        organiser.tap(page.get_by_label(name, exact=True))
    page.get_by_label("New players").fill("\n".join(NEWCOMERS))
    organiser.type_into(page.get_by_label("Rounds"), "2")
    organiser.type_into(page.get_by_label("Deals per round at each table"), "1")
    organiser.tap(page.get_by_role("button", name="Start the night and draw round 1"))
    page.wait_for_url("**/nights/1/")
    night = Night.objects.get()
    expect(page.locator(".night-facts .seed")).to_have_text(night.seed)

    screen = open_page(
        "Desktop Chrome", viewport={"width": 1920, "height": 1080}
    ).context.new_page()
    screen.goto(f"/cv/{club.view_token}/nights/1/screen/")
    # Right after the draw the screen shows where everyone sits, until the first deal.
    expect(screen.locator(".seating-table li")).to_have_count(9)
    phones = [SheetPage(open_page("Pixel 7")), SheetPage(open_page("iPhone 13"))]
    expected = dict.fromkeys(ROSTER + NEWCOMERS, 0)

    for number in (1, 2):
        tables = page.locator(".night-table")
        expect(tables).to_have_count(2)
        for index, phone in enumerate(phones):
            table = tables.nth(index)
            names = table.locator(".seats").inner_text().split(", ")
            # The phone scans the table's code: the code is the table's full link.
            link = table.get_by_role("link", name="Its sheet (full link)").get_attribute("href")
            expect(table.locator("img.qr")).to_be_visible()
            phone.page.goto(link)
            expect(phone.page.locator("h1, .sheet-name").first).to_contain_text(
                f"Round {number} · Table {index + 1}"
            )
            phone.open_new_hand()
            phone.fill_hand(hand(len(names)), names)
            phone.save()
            for name, points in zip(names, scores(len(names)), strict=True):
                expected[name] += points
            # The big screen follows within 3 s: the taker's total there.
            expect(screen_total(screen, names[0])).to_have_text(
                str(expected[names[0]]).replace("-", "−"), timeout=LIVE
            )
        # Every table has its deal: the organiser's page offers the next round.
        if number == 1:
            draw = page.get_by_role("button", name="Draw round 2", exact=True)
            expect(draw).to_be_visible(timeout=LIVE)
            organiser.tap(draw)
            expect(page.get_by_role("heading", name="Round 2 of 2")).to_be_visible()
            expect(screen.locator(".screen-round")).to_contain_text("Round 2 of 2", timeout=LIVE)

    for name, total in expected.items():
        expect(screen_total(screen, name)).to_have_text(str(total).replace("-", "−"))
    # Places follow the totals, best first.
    expect(screen.get_by_role("heading", name="Final ranking")).to_be_visible()
    shown = [
        int(t.replace("−", "-"))
        for t in screen.locator(".podium .total, .screen-line .total").all_inner_texts()
    ]
    assert shown == sorted(expected.values(), reverse=True)
    if os.environ.get("NIGHT_SCREENSHOT"):
        screen.screenshot(path=os.environ["NIGHT_SCREENSHOT"])
