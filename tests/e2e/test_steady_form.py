"""Nothing moves under the finger: from the first tap on the hand form to the tap on
Save, the Save button stays where it was (±1 px) whatever the form shows meanwhile (the preview,
its problems and warnings), on a Pixel 7, an iPhone 13 and a 360 px phone, in English and French.
"""

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
        "Save": "Save the hand",
        "Taker": "Taker",
        "Contract": "Contract",
        "Partner": "Partner",
        "Bouts": "Bouts",
        "not ready": "Not ready yet",
        "made": "made by",
    },
    "fr": {
        "New hand": "Nouvelle donne",
        "Save": "Enregistrer la donne",
        "Taker": "Preneur",
        "Contract": "Contrat",
        "Partner": "Partenaire",
        "Bouts": "Bouts",
        "not ready": "Il manque encore",
        "made": "réussie de",
    },
}
# Where the button is in the page (not on the screen: a tap may scroll the page).
WHERE = "b => { const r = b.getBoundingClientRect(); return [r.left + scrollX, r.top + scrollY]; }"


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize("phone", TABLE_PHONES)
def test_save_stays_under_the_finger(open_page, phone, language):
    session = backup.load(json.dumps(BACKUPS[5]))
    words = WORDS[language]
    sheet_page = SheetPage(open_page(phone, locale="fr-FR" if language == "fr" else "en-GB"))
    page = sheet_page.page
    page.goto(session.get_absolute_url())
    sheet_page.tap(page.get_by_role("link", name=words["New hand"]))
    form = sheet_page.form
    expect(form).to_be_visible()
    save = form.get_by_role("button", name=words["Save"])
    preview = page.locator("#preview")
    places = {"opened": save.evaluate(WHERE)}

    sheet_page.choose(words["Taker"], "Ana", form)
    sheet_page.choose(words["Contract"], "Garde", form)
    expect(preview).to_contain_text(words["not ready"])  # the problems: no partner, no bouts
    places["problems shown"] = save.evaluate(WHERE)
    sheet_page.choose(words["Partner"], "Dan", form)
    sheet_page.choose(words["Bouts"], "3", form)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "91")
    expect(preview.locator(".warnings")).to_be_visible()  # scores, the formula and a warning
    places["scores and a warning"] = save.evaluate(WHERE)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "56")
    expect(preview.locator(".warnings")).to_have_count(0)
    expect(preview).to_contain_text(words["made"])
    places["scores"] = save.evaluate(WHERE)

    first = places["opened"]
    moved = {
        step: (x, y)
        for step, (x, y) in places.items()
        if abs(x - first[0]) > 1 or abs(y - first[1]) > 1
    }
    assert not moved, (first, moved)
