"""Uploads show their progress (static/scoresheet/upload.js), and a large club backup is restored
outside its request with a page that follows it (scoresheet/files/import_jobs.py), in Chromium
at phone size on a slow uplink."""

import json

import pytest
from playwright.sync_api import expect

from scoresheet.files import club_backup, import_jobs
from scoresheet.models import Club, Sheet
from tests.e2e.sheet_page import SheetPage
from tests.test_clubs import club as worked_club  # noqa: F401  (a fixture: the worked club)


@pytest.fixture
def large_file(worked_club, tmp_path):  # noqa: F811
    """The worked club's backup, made 600 KB long by whitespace (still the same JSON)."""
    path = tmp_path / "club.json"
    text = club_backup.dumps(club_backup.dump(worked_club))
    path.write_text(text + " " * 600_000, encoding="utf-8")
    return path


def test_a_large_club_backup_shows_its_upload_then_its_import(
    open_page,
    worked_club,  # noqa: F811
    large_file,
    monkeypatch,
):
    monkeypatch.setattr(import_jobs, "BACKGROUND_BYTES", 100_000)
    page = open_page("Pixel 7")
    sheet_page = SheetPage(page)
    # A phone on a slow uplink: 600 KB take about 3 s to leave.
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": -1, "uploadThroughput": 200_000},
    )
    page.goto("/club/new/")
    page.get_by_label("Import a club's backup").set_input_files(large_file)
    bar = page.locator("#club-import progress")
    expect(bar).to_be_hidden()
    sheet_page.tap(page.get_by_role("button", name="Import", exact=True))
    # The bar follows the bytes: part of the file sent, not all of it.
    page.wait_for_function(
        "() => { const p = document.querySelector('#club-import progress');"
        " return p && !p.hidden && p.value > 0 && p.value < p.max; }"
    )
    page.wait_for_url("**/c/*/", timeout=30_000)
    restored = Club.objects.exclude(pk=worked_club.pk).get()
    assert page.url.endswith(restored.get_absolute_url())
    expect(page.get_by_text("Club backup restored: “")).to_be_visible()


def test_a_refused_file_is_answered_in_the_form_by_htmx(open_page, worked_club, tmp_path):  # noqa: F811
    page = open_page("Pixel 7")
    sheet_page = SheetPage(page)
    bad = tmp_path / "notes.json"
    bad.write_text("Ana 245, Ben −175", encoding="utf-8")
    page.goto("/club/new/")
    upload = page.get_by_label("Import a club's backup")
    upload.set_input_files(bad)
    sheet_page.tap(page.get_by_role("button", name="Import", exact=True))
    expect(
        page.get_by_text("This file is not a backup of a club: it is not JSON.")
    ).to_be_visible()
    expect(page.get_by_label("Import a club's backup")).to_have_attribute("aria-invalid", "true")
    # One form, swapped in place: the page around it is the one the phone had.
    expect(page.locator("#club-import")).to_have_count(1)
    assert page.url.endswith("/club/new/")
    assert Club.objects.count() == 1


def test_a_session_backup_from_the_home_page_opens_its_sheet(open_page, make_backup, tmp_path):
    path = tmp_path / "backup.json"
    path.write_text(json.dumps(make_backup(4)), encoding="utf-8")
    page = open_page("Pixel 7")
    page.goto("/")
    page.get_by_label("Import a backup").set_input_files(path)
    SheetPage(page).tap(page.get_by_role("button", name="Import", exact=True))
    page.wait_for_url("**/s/*/")
    sheet = Sheet.objects.get()
    assert page.url.endswith(sheet.get_absolute_url())
    expect(page.get_by_text(f"Backup restored: “{sheet.name}”.")).to_be_visible()
