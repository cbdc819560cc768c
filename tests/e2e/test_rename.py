"""Names, the home list and the links, on the phones of the issue and at 360 px: a
rename on one phone shows on another within 3 s, a session comes off this browser's list, and
the links copy with one tap."""

import time
from datetime import UTC, datetime

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.models import Sheet
from scoresheet.sheets import writes
from tests.e2e.conftest import PHONES
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_accessibility import axe_violations
from tests.reading import store

pytestmark = pytest.mark.django_db(transaction=True)

PROFILES = [*PHONES, "360"]
FOUR = ["Ana", "Ben", "Chloé", "Dan"]


def phone(open_page, profile: str, **options) -> SheetPage:
    """A phone of the issue, or a Pixel 7 narrowed to 360 × 740."""
    if profile == "360":
        options["viewport"] = {"width": 360, "height": 740}
        profile = "Pixel 7"
    return SheetPage(open_page(profile, **options))


def played_sheet() -> Sheet:
    sheet = writes.create_sheet("Vendredi", FOUR, 0)
    # FFT: garde, 2 bouts, 49, Ana alone at 4: (25 + 8) × 2 = 66 per defender, 198 for her.
    store(sheet, scoring.Hand(4, 0, "garde", 2, 49))
    return Sheet.objects.get(pk=sheet.pk)


@pytest.mark.parametrize("profile", PROFILES)
def test_a_rename_on_one_phone_shows_on_another_within_3_s(open_page, profile):
    sheet = played_sheet()
    scorer = phone(open_page, profile)
    watcher = phone(open_page, profile)
    watcher.page.goto(sheet.get_view_url())
    expect(watcher.page.locator("#totals .name").first).to_have_text("Ana")

    scorer.page.goto(sheet.get_absolute_url())
    scorer.tap(scorer.page.get_by_role("link", name="Players and name"))
    expect(scorer.page.get_by_role("heading", name="Players and name")).to_be_visible()
    scorer.type_into(scorer.page.get_by_label("Player 1", exact=True), "Anne-Sophie")
    scorer.type_into(scorer.page.get_by_label("Session name"), "Samedi")
    scorer.tap(scorer.page.get_by_role("button", name="Save the names"))
    scorer.page.wait_for_url(f"**{sheet.get_absolute_url()}")
    saved = time.monotonic()
    expect(scorer.page.locator("#totals .name").first).to_have_text("Anne-Sophie")
    expect(scorer.page.get_by_text("Names saved.")).to_be_visible()

    # The other phone was never reloaded: its poll brings the names and the session's name.
    expect(watcher.page.locator("#totals .name").first).to_have_text("Anne-Sophie", timeout=3000)
    expect(watcher.page.locator("h1.sheet-name")).to_have_text("Samedi", timeout=3000)
    assert time.monotonic() - saved < 3
    watcher.open_row(1)
    expect(watcher.row(1)).to_contain_text("Anne-Sophie")
    # The hand kept its seat: the totals did not move.
    expect(watcher.page.locator("#totals .score").first).to_have_text("+198")


@pytest.mark.parametrize("profile", PROFILES)
def test_a_refused_rename_says_why_and_keeps_the_typing(open_page, profile):
    sheet = played_sheet()
    scorer = phone(open_page, profile)
    scorer.page.goto(f"/s/{sheet.token}/players/")
    scorer.type_into(scorer.page.get_by_label("Player 2", exact=True), "ANA")
    scorer.tap(scorer.page.get_by_role("button", name="Save the names"))
    expect(scorer.page.get_by_text("Player 2: “ANA” is already at the table.")).to_be_visible()
    expect(scorer.page.get_by_label("Player 2", exact=True)).to_have_value("ANA")
    expect(scorer.page.get_by_label("Player 2", exact=True)).to_have_attribute(
        "aria-invalid", "true"
    )
    assert list(Sheet.objects.get().seats.values_list("name", flat=True)) == FOUR


@pytest.mark.parametrize("profile", PROFILES)
def test_a_session_comes_off_the_list_and_back(open_page, profile):
    kept = writes.create_sheet("Lundi", FOUR, 0)
    gone = played_sheet()
    device = phone(open_page, profile)
    page = device.page
    page.goto(kept.get_absolute_url())
    page.goto(gone.get_absolute_url())
    page.goto("/")
    cards = page.locator(".sessions > li")
    expect(cards).to_have_count(2)
    # The date and the hand count, read from the card.
    expect(cards.first).to_contain_text("1 hand")
    expect(cards.first).to_contain_text(gone.created.strftime("%Y"))

    device.tap(cards.first.locator("summary"))
    expect(cards.first.get_by_text("It is not deleted")).to_be_visible()
    device.tap(cards.first.get_by_role("button", name="Remove from this list"))
    expect(page.get_by_role("status").get_by_text("“Vendredi” is off this list")).to_be_visible()
    expect(cards).to_have_count(1)
    expect(cards.first).to_contain_text("Lundi")

    device.tap(page.get_by_role("button", name="Put it back"))
    expect(cards).to_have_count(2)
    expect(cards.first).to_contain_text("Vendredi")
    # Off the list again, its link still opens it.
    device.tap(cards.first.locator("summary"))
    device.tap(cards.first.get_by_role("button", name="Remove from this list"))
    expect(cards).to_have_count(1)
    page.goto(gone.get_absolute_url())
    expect(page.locator("h1.sheet-name")).to_have_text("Vendredi")


def test_the_remove_fold_is_named_with_its_session(open_page):
    sheet = played_sheet()
    page = phone(open_page, "Pixel 7").page
    page.goto(sheet.get_absolute_url())
    page.goto("/")
    expect(page.locator(".forget summary")).to_have_accessible_name("Remove Vendredi")


@pytest.mark.parametrize("profile", PROFILES)
def test_the_links_copy_with_one_tap(open_page, profile):
    sheet = played_sheet()
    device = phone(open_page, profile, permissions=["clipboard-read", "clipboard-write"])
    page = device.page
    page.goto(f"/s/{sheet.token}/share/")
    for name, field in [
        ("Copy the full link", "Full link"),
        ("Copy the read-only link", "Read-only link"),
    ]:
        link = page.get_by_label(field, exact=True).input_value()
        button = page.get_by_role("button", name=name)
        device.tap(button)
        status = button.locator("xpath=..").get_by_role("status")
        expect(status).to_have_text("Copied")
        expect(status).to_have_attribute("aria-live", "polite")
        assert page.evaluate("navigator.clipboard.readText()") == link
    assert link.endswith(sheet.get_view_url())
    # The sheet's own share fold: the read-only link.
    page.goto(sheet.get_absolute_url())
    device.tap(page.locator("details.share > summary"))
    device.tap(page.get_by_role("button", name="Copy the link"))
    expect(page.locator("details.share").get_by_role("status")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()").endswith(sheet.get_view_url())


@pytest.mark.parametrize("how", ["without JavaScript", "without a clipboard"])
def test_no_dead_copy_button(open_page, how):
    sheet = played_sheet()
    if how == "without JavaScript":
        page = phone(open_page, "Pixel 7", java_script_enabled=False).page
    else:
        page = phone(open_page, "Pixel 7").page
        page.add_init_script(
            "Object.defineProperty(navigator, 'clipboard', {value: undefined});"
            "document.queryCommandSupported = () => false;"
        )
    page.goto(f"/s/{sheet.token}/share/")
    page.wait_for_load_state()
    expect(page.get_by_label("Full link", exact=True)).to_have_value(
        f"{page.url.split('/s/')[0]}{sheet.get_absolute_url()}"
    )
    expect(page.get_by_role("button", name="Copy the full link")).to_have_count(0)
    expect(page.locator("button.copy-button")).to_have_count(2)
    for button in page.locator("button.copy-button").all():
        expect(button).to_be_hidden()


def test_axe_on_the_new_page_states(open_page, axe_script):
    sheet = played_sheet()
    device = phone(
        open_page, "Pixel 7", bypass_csp=True, permissions=["clipboard-read", "clipboard-write"]
    )
    page = device.page
    found = {}

    def audit(name):
        page.wait_for_load_state()
        found[name] = axe_violations(page, axe_script)

    page.goto(sheet.get_absolute_url())  # on this browser's list
    page.goto(f"/s/{sheet.token}/players/")
    audit("players page")
    device.type_into(page.get_by_label("Player 3", exact=True), "")
    device.tap(page.get_by_role("button", name="Save the names"))
    expect(page.locator(".form-errors")).to_be_visible()
    audit("players page, refused")
    page.goto(f"/s/{sheet.token}/share/")
    device.tap(page.get_by_role("button", name="Copy the full link"))
    expect(page.get_by_text("Copied")).to_be_visible()
    audit("share page, copied")
    page.goto("/")
    device.tap(page.locator(".forget summary"))
    audit("home, remove open")
    device.tap(page.get_by_role("button", name="Remove from this list"))
    expect(page.get_by_role("button", name="Put it back")).to_be_visible()
    audit("home, removed")
    assert found == {name: [] for name in found}, found


def test_the_pages_in_french(open_page, axe_script):
    sheet = played_sheet()
    Sheet.objects.filter(pk=sheet.pk).update(created=datetime(2026, 11, 27, 20, 41, tzinfo=UTC))
    device = phone(open_page, "Pixel 7", locale="fr-FR", bypass_csp=True)
    page = device.page
    page.goto(sheet.get_absolute_url())
    device.tap(page.get_by_role("link", name="Joueurs et nom"))
    expect(page.get_by_role("heading", name="Joueurs et nom")).to_be_visible()
    device.type_into(page.get_by_label("Nom de la partie"), "")
    device.tap(page.get_by_role("button", name="Enregistrer les noms"))
    expect(page.get_by_text("Nom de la partie : saisissez un nom.")).to_be_visible()
    assert axe_violations(page, axe_script) == []
    page.goto("/")
    expect(page.locator(".sessions time")).to_have_text("27 novembre 2026")
    expect(page.locator(".sessions .meta")).to_contain_text("1 donne")
