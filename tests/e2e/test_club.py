"""The club in a phone's browser: create a club, start two sessions from it, enter hands, see
the standings change; the read-only link shows them and changes nothing; axe on the club page."""

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.models import Club
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_accessibility import axe_violations

pytestmark = pytest.mark.django_db(transaction=True)


def start_from_club(sheet_page: SheetPage, club_url: str, names: list[str]) -> str:
    page = sheet_page.page
    page.goto(club_url)
    sheet_page.tap(page.get_by_role("link", name="New session in the club"))
    sheet_page.choose("Number of players", str(len(names)))
    seats = page.get_by_role("group", name="Players, in seating order")
    for seat, player in enumerate(names):
        sheet_page.type_into(seats.get_by_label(f"Player {seat + 1}", exact=True), player)
    sheet_page.tap(page.get_by_role("button", name="Start the session"))
    page.wait_for_url("**/s/*/")
    return page.url


def points_of(page, name: str):
    row = page.locator("table.standings tbody tr").filter(
        has=page.get_by_role("rowheader", name=name, exact=True)
    )
    # Columns: Sessions, Hands, Points…
    return row.locator("td").nth(2)


def test_club_sessions_and_standings(open_page, axe_script):
    sheet_page = SheetPage(open_page("Pixel 7", bypass_csp=True))
    page = sheet_page.page
    page.goto("/")
    sheet_page.tap(page.get_by_role("link", name="New club"))
    sheet_page.type_into(page.get_by_label("Club name"), "Le jeudi")
    sheet_page.tap(page.get_by_role("button", name="Create the club"))
    page.wait_for_url("**/c/*/")
    club = Club.objects.get()
    club_url = club.get_absolute_url()
    expect(page.get_by_text("No session of the club in this period yet.")).to_be_visible()

    names = ["Ana", "Ben", "Chloé", "Dan"]
    start_from_club(sheet_page, club_url, names)
    sheet_page.open_new_hand()
    # Ana, garde, 2 bouts, 51: made by 10, (25 + 10) × 2 = 70 a defender (RULES.md).
    sheet_page.fill_hand(scoring.Hand(4, 0, "garde", 2, 51), names)
    sheet_page.save()
    page.goto(club_url)
    expect(points_of(page, "Ana")).to_contain_text("210")
    expect(points_of(page, "Ben")).to_contain_text("-70")

    # The second session: a new name joins the club.
    second = ["Ben", "Chloé", "Élise"]
    start_from_club(sheet_page, club_url, second)
    sheet_page.open_new_hand()
    # Ben, garde, 2 bouts, 49 at 3 players: made by 8, (25 + 8) × 2 = 66 a defender, +132.
    sheet_page.fill_hand(scoring.Hand(3, 0, "garde", 2, 49), second)
    sheet_page.save()
    page.goto(club_url)
    expect(points_of(page, "Ben")).to_contain_text("62")
    expect(points_of(page, "Élise")).to_contain_text("-66")
    expect(page.locator("table.standings caption")).to_contain_text("2 sessions")
    assert club.players.count() == 5

    # Sorting by hands, then axe on the page as it is.
    sheet_page.tap(page.get_by_role("link", name="Hands", exact=True))
    expect(page.locator("th[aria-sort] a")).to_have_text("Hands")
    found = axe_violations(page, axe_script)
    assert found == []

    # The read-only link: the same standings, no action, nothing to change.
    viewer = SheetPage(open_page("iPhone 13"))
    viewer.page.goto(club.get_view_url())
    expect(points_of(viewer.page, "Ben")).to_contain_text("62")
    for action in ("New session in the club", "Players", "Add an existing session"):
        expect(viewer.page.get_by_role("link", name=action, exact=True)).to_have_count(0)
    expect(viewer.page.get_by_role("button", name="Remove", exact=False)).to_have_count(0)
    assert viewer.page.goto(f"/cv/{club.view_token}/players/").status == 404
    assert club.sessions.count() == 2
