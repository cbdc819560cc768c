"""The club in a phone's browser: create a club, start two sessions from it, enter hands, see
the standings change; the read-only link shows them and changes nothing; axe on the club page.
A club's backup imported from the page, its name and rules changed, a column sorted both ways,
with JavaScript off and on, in English and in French."""

import re

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.files import club_backup
from scoresheet.models import Club
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_accessibility import axe_violations
from tests.test_clubs import club as worked_club  # noqa: F401  (a fixture: the worked club)

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


def test_club_sheets_and_standings(open_page, axe_script):
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
    # Ana, garde, 2 bouts, 51: made by 10, (25 + 10) × 2 = 70 a defender (docs/rules.md E1).
    sheet_page.fill_hand(scoring.Hand(4, 0, "garde", 2, 51), names)
    sheet_page.save()
    page.goto(club_url)
    expect(points_of(page, "Ana")).to_contain_text("210")
    expect(points_of(page, "Ben")).to_have_text("−70")

    # The second session: a new name joins the club.
    second = ["Ben", "Chloé", "Élise"]
    start_from_club(sheet_page, club_url, second)
    sheet_page.open_new_hand()
    # Ben, garde, 2 bouts, 49 at 3 players: made by 8, (25 + 8) × 2 = 66 a defender, +132.
    sheet_page.fill_hand(scoring.Hand(3, 0, "garde", 2, 49), second)
    sheet_page.save()
    page.goto(club_url)
    expect(points_of(page, "Ben")).to_contain_text("62")
    expect(points_of(page, "Élise")).to_have_text("−66")
    expect(page.locator("table.standings caption")).to_contain_text("2 sessions")
    assert club.players.count() == 5

    # Sorting by hands, then axe on the page as it is.
    sheet_page.tap(page.get_by_role("link", name="Hands", exact=True))
    expect(page.locator("th[aria-sort]")).to_have_accessible_name("Hands")
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
    assert club.club_sheets.count() == 2


def backup_file(club, tmp_path):
    path = tmp_path / "club.json"
    path.write_text(club_backup.dumps(club_backup.dump(club)), encoding="utf-8")
    return path


def first_player(page) -> str:
    return page.locator("table.standings tbody tr th").first.inner_text()


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_import_rename_and_sort_without_javascript(open_page, worked_club, tmp_path):  # noqa: F811
    sheet_page = SheetPage(open_page("Pixel 7", java_script_enabled=False))
    page = sheet_page.page
    bad = tmp_path / "notes.json"
    bad.write_text("Ana 245, Ben −175", encoding="utf-8")
    page.goto("/club/new/")
    upload = page.get_by_label("Import a club's backup")
    upload.set_input_files(bad)
    sheet_page.tap(page.get_by_role("button", name="Import", exact=True))
    expect(
        page.get_by_text("This file is not a backup of a club: it is not JSON.")
    ).to_be_visible()
    expect(upload).to_have_attribute("aria-invalid", "true")
    assert Club.objects.count() == 1

    upload.set_input_files(backup_file(worked_club, tmp_path))
    sheet_page.tap(page.get_by_role("button", name="Import", exact=True))
    page.wait_for_url("**/c/*/")
    restored = Club.objects.exclude(pk=worked_club.pk).get()
    assert page.url.endswith(restored.get_absolute_url())
    # Dan: −245 over the three sessions (tests/test_clubs.py), with a true minus sign.
    expect(points_of(page, "Dan")).to_have_text("−245")
    assert fits_the_phone(page)

    # Points, most first; tapping its header again puts the fewest first.
    points = page.locator("th", has=page.get_by_role("link", name="Points", exact=True))
    expect(points).to_have_attribute("aria-sort", "descending")
    assert first_player(page) == "Ana"
    sheet_page.tap(page.get_by_role("link", name="Points", exact=True))
    expect(points).to_have_attribute("aria-sort", "ascending")
    assert first_player(page) == "Dan"
    assert "sort=-points" in page.url
    # The leader of the column is still Ana.
    expect(points_of(page, "Ana")).to_have_class("lead")

    sheet_page.tap(page.get_by_role("link", name="Name and rules"))
    sheet_page.type_into(page.get_by_label("Club name"), "Le vendredi")
    sheet_page.choose("Rounding", "to 10")
    sheet_page.tap(page.get_by_role("button", name="Save"))
    page.wait_for_url("**" + restored.get_absolute_url())
    expect(page.get_by_role("heading", level=1)).to_have_text("Le vendredi")
    expect(page.locator(".club-rules")).to_contain_text("Differences rounded to 10")
    page.goto("/")
    expect(page.get_by_role("link", name="Le vendredi")).to_be_visible()


def test_import_and_sort_in_french_with_javascript(open_page, worked_club, tmp_path, axe_script):  # noqa: F811
    sheet_page = SheetPage(open_page("iPhone 13", locale="fr-FR", bypass_csp=True))
    page = sheet_page.page
    page.goto("/")
    sheet_page.tap(page.get_by_role("link", name="Restaurer la sauvegarde d’un club"))
    page.get_by_label("Importer la sauvegarde d’un club").set_input_files(
        backup_file(worked_club, tmp_path)
    )
    sheet_page.tap(page.get_by_role("button", name="Importer", exact=True))
    page.wait_for_url("**/c/*/")
    # Fanny: −35 in 2 hands, −17,5 a hand (French decimal comma, true minus sign).
    fanny = page.locator("table.standings tbody tr").filter(
        has=page.get_by_role("rowheader", name="Fanny", exact=True)
    )
    expect(fanny.locator("td").nth(3)).to_have_text("−17,5")
    assert fits_the_phone(page)
    # htmx swaps the standings and keeps the address in step.
    points = page.locator("th", has=page.get_by_role("link", name="Points", exact=True))
    sheet_page.tap(page.get_by_role("link", name="Points", exact=True))
    expect(points).to_have_attribute("aria-sort", "ascending")
    expect(page).to_have_url(re.compile(r"sort=-points"))
    assert first_player(page) == "Dan"
    sheet_page.tap(page.get_by_role("link", name="Points", exact=True))
    expect(points).to_have_attribute("aria-sort", "descending")
    assert first_player(page) == "Ana"

    sheet_page.tap(page.get_by_role("link", name="Nom et règles"))
    expect(
        page.get_by_text("Les changer ne change que les parties commencées ensuite")
    ).to_be_visible()
    assert fits_the_phone(page)
    assert axe_violations(page, axe_script) == []
