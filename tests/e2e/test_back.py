"""Back closes the hand form: opening the form (new hand or correction) adds a history
entry; Back closes it and leaves the phone on the sheet, scrolled where it was; what was typed in
a new hand is kept on this phone and offered again by the next "New hand", until it is saved or
discarded. A form closed otherwise (saved, cancelled) leaves no entry behind: the next Back leaves
the sheet."""

import json

import pytest
from playwright.sync_api import expect

from scoresheet.files import session_backup as backup
from tests.conftest import BACKUPS
from tests.e2e.conftest import TABLE_PHONES
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

WORDS = {
    "en": {
        "New hand": "New hand",
        "Taker": "Taker",
        "Contract": "Contract",
        "Partner": "Partner",
        "Bouts": "Bouts",
        "back": "What you typed before is back.",
        "Discard it": "Discard it",
        "discarded": "Discarded: the form starts again.",
        "Save": "Save the hand",
        "Edit": "Edit",
    },
    "fr": {
        "New hand": "Nouvelle donne",
        "Taker": "Preneur",
        "Contract": "Contrat",
        "Partner": "Partenaire",
        "Bouts": "Bouts",
        "back": "Ce que vous aviez saisi est revenu.",
        "Discard it": "L’effacer",
        "discarded": "Effacé : le formulaire repart de zéro.",
        "Save": "Enregistrer la donne",
        "Edit": "Modifier",
    },
}
CASES = [(phone, "en") for phone in TABLE_PHONES] + [("Pixel 7", "fr")]


@pytest.fixture
def session():
    return backup.load(json.dumps(BACKUPS[5]))


def panel(page):
    return page.locator("#entry .entry-panel")


@pytest.mark.parametrize(("phone", "language"), CASES)
def test_back_closes_the_form_and_keeps_a_draft(open_page, session, phone, language):
    words = WORDS[language]
    sheet_page = SheetPage(open_page(phone, locale="fr-FR" if language == "fr" else "en-GB"))
    page = sheet_page.page
    page.goto("/")
    page.goto(session.get_absolute_url())
    sheet = page.url
    page.evaluate("window.scrollTo(0, 300)")
    scrolled = page.evaluate("window.scrollY")
    new_hand = page.get_by_role("link", name=words["New hand"])

    sheet_page.tap(new_hand)
    form = sheet_page.form
    expect(form).to_be_visible()
    expect(form.locator("[data-draft-note]")).to_be_hidden()
    sheet_page.choose(words["Taker"], "Ben", form)
    sheet_page.choose(words["Contract"], "Garde", form)
    sheet_page.choose(words["Partner"], "Dan", form)
    sheet_page.choose(words["Bouts"], "1", form)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "47")
    form.get_by_label("Points", exact=True).blur()

    page.go_back()
    expect(panel(page)).to_have_count(0)
    assert page.url == sheet
    assert abs(page.evaluate("window.scrollY") - scrolled) <= 1

    # The draft comes back with the next "New hand".
    sheet_page.tap(new_hand)
    form = sheet_page.form
    expect(form.locator("[data-draft-note]")).to_be_visible()
    expect(form.locator("[data-draft-note]")).to_contain_text(words["back"])
    taker = form.get_by_role("group", name=words["Taker"], exact=True)
    expect(taker.get_by_role("radio", name="Ben", exact=True)).to_be_checked()
    contract = form.get_by_role("group", name=words["Contract"], exact=True)
    expect(contract.get_by_role("radio", name="Garde", exact=True)).to_be_checked()
    expect(form.get_by_label("Points", exact=True)).to_have_value("47")
    expect(page.locator("#preview .preview-scores")).to_contain_text("Ben")

    # Discarded: the form starts again, the note says so where it was.
    sheet_page.tap(form.get_by_role("button", name=words["Discard it"]))
    expect(form.get_by_label("Points", exact=True)).to_have_value("")
    expect(taker.get_by_role("radio", name="Ben", exact=True)).not_to_be_checked()
    expect(form.locator("[data-draft-note]")).to_contain_text(words["discarded"])
    page.go_back()
    expect(panel(page)).to_have_count(0)
    sheet_page.tap(new_hand)
    expect(sheet_page.form).to_be_visible()
    expect(sheet_page.form.locator("[data-draft-note]")).to_be_hidden()

    # A correction: Back closes it too, and the next Back leaves the sheet.
    page.go_back()
    expect(panel(page)).to_have_count(0)
    assert page.url == sheet
    expect(page.locator("#hands .hand")).to_have_count(len(BACKUPS[5]["hands"]))
    row = sheet_page.open_row(1)
    sheet_page.tap(row.get_by_role("link", name=words["Edit"]))
    expect(panel(page)).to_have_count(1)
    page.go_back()
    expect(panel(page)).to_have_count(0)
    assert page.url == sheet
    page.go_back()
    page.wait_for_url(lambda url: "/s/" not in url)


def test_a_saved_hand_forgets_its_draft_and_leaves_no_entry(open_page, session):
    sheet_page = SheetPage(open_page("Pixel 7"))
    page = sheet_page.page
    page.goto("/")
    page.goto(session.get_absolute_url())
    sheet = page.url
    sheet_page.open_new_hand()
    sheet_page.choose("Taker", "Ben", sheet_page.form)
    page.go_back()
    expect(panel(page)).to_have_count(0)
    sheet_page.open_new_hand()
    form = sheet_page.form
    expect(form.locator("[data-draft-note]")).to_be_visible()
    sheet_page.choose("Contract", "Garde", form)
    sheet_page.choose("Partner", "Dan", form)
    sheet_page.choose("Bouts", "2", form)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "51")
    sheet_page.save()
    expect(page.locator("#hands .hand")).to_have_count(len(BACKUPS[5]["hands"]) + 1)
    assert page.url == sheet
    sheet_page.open_new_hand()
    expect(sheet_page.form.locator("[data-draft-note]")).to_be_hidden()
    expect(sheet_page.form.get_by_label("Points", exact=True)).to_have_value("")
    # Cancelled: no entry is left behind; Back leaves the sheet.
    sheet_page.tap(sheet_page.form.get_by_role("link", name="Cancel"))
    expect(panel(page)).to_have_count(0)
    page.go_back()
    page.wait_for_url(lambda url: "/s/" not in url)


def fill_with_a_folded_announcement(sheet_page):
    """A hand typed in part, with a petit au bout inside "Announcements", folded again: the
    issue's case, a value that cannot be seen before saving."""
    form = sheet_page.form
    sheet_page.choose("Taker", "Ben", form)
    sheet_page.choose("Contract", "Garde", form)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "47")
    fold = form.locator("details.announcements")
    sheet_page.tap(fold.locator("summary"))
    sheet_page.choose("Petit au bout", "defence", form)
    sheet_page.tap(fold.locator("summary"))
    expect(fold).not_to_have_attribute("open", "")


@pytest.mark.parametrize("phone", ["Pixel 7", "360"])
def test_cancel_forgets_the_draft_and_back_brings_it_back_in_sight(open_page, session, phone):
    sheet_page = SheetPage(open_page(phone))
    page = sheet_page.page
    page.goto(session.get_absolute_url())

    # Cancel, then New hand: an empty form, nothing offered.
    sheet_page.open_new_hand()
    fill_with_a_folded_announcement(sheet_page)
    sheet_page.tap(sheet_page.form.get_by_role("link", name="Cancel"))
    expect(panel(page)).to_have_count(0)
    sheet_page.open_new_hand()
    form = sheet_page.form
    expect(form.locator("[data-draft-note]")).to_be_hidden()
    expect(form.get_by_label("Points", exact=True)).to_have_value("")
    expect(form.get_by_role("radio", name="Ben", exact=True).first).not_to_be_checked()
    expect(form.locator("details.announcements")).not_to_have_attribute("open", "")
    # (Folded, the section's radios are out of the accessibility tree: found by their values.)
    expect(form.locator('input[name="petit_au_bout"][value=""]')).to_be_checked()
    # The draft stays gone after a reload too (it was kept on the phone, not only in the page).
    page.reload()
    sheet_page.open_new_hand()
    expect(sheet_page.form.locator("[data-draft-note]")).to_be_hidden()

    # Back, then New hand: the draft, with the section that holds its petit au bout open.
    fill_with_a_folded_announcement(sheet_page)
    page.go_back()
    expect(panel(page)).to_have_count(0)
    sheet_page.open_new_hand()
    form = sheet_page.form
    expect(form.locator("[data-draft-note]")).to_be_visible()
    expect(form.get_by_label("Points", exact=True)).to_have_value("47")
    fold = form.locator("details.announcements")
    expect(fold).to_have_attribute("open", "")
    defence = fold.get_by_role("group", name="Petit au bout").get_by_role("radio", name="defence")
    expect(defence).to_be_checked()
    expect(defence).to_be_visible()
