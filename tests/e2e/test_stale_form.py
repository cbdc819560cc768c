"""Live: a hand form open on one phone while another phone changes the sheet is told
what it missed, in sight, and keeps what was typed."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.models import Sheet
from scoresheet.sheets import writes
from tests.e2e.conftest import PHONES
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_table import uncovered

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Ana", "Ben", "Chloé", "Dan"]
PROFILES = {
    "Pixel 7": ("Pixel 7", {}),
    "iPhone 13": ("iPhone 13", {}),
    "360": ("Pixel 7", {"viewport": {"width": 360, "height": 740}}),
}
# The poll asks every 2 s; the notice is there within one poll and the answer's time.
SOON = 5_000


def phone(open_page, profile: str, **more) -> SheetPage:
    name, options = PROFILES[profile]
    return SheetPage(open_page(name, **options, **more))


def one_hand_sheet():
    # FFT rulebook: Chloé, garde, 2 bouts, 49 → (25 + 8) × 2 = 66 per defender.
    hand = scoring.Hand(4, 2, "garde", 2, Decimal(49))
    return writes.create_sheet("Vendredi", NAMES, 0, hands=[(None, hand)])


def correct_points(sheet_page: SheetPage, number: int, points: str) -> None:
    """Open hand ``number``'s correction on the sheet, type the points, save."""
    row = sheet_page.open_row(number)
    sheet_page.tap(row.get_by_role("link", name="Edit"))
    sheet_page.type_into(sheet_page.form.get_by_label("Points", exact=True), points)
    sheet_page.tap(sheet_page.form.get_by_role("button", name="Save the correction"))
    expect(sheet_page.page.locator("#entry .entry-panel")).to_have_count(0)


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_new_hand_form_is_told_that_hand_was_entered_on_another_phone(open_page, profile):
    sheet = writes.create_sheet("Vendredi", NAMES, 0)
    entering = phone(open_page, profile)
    other = SheetPage(open_page(PHONES[1] if profile == "Pixel 7" else PHONES[0]))
    for sheet_page in (entering, other):
        sheet_page.page.goto(sheet.get_absolute_url())
    entering.open_new_hand()
    entering.choose("Taker", "Ben", entering.form)
    entering.type_into(entering.form.get_by_label("Points", exact=True), "51")

    other.open_new_hand()
    other.fill_hand(scoring.Hand(4, 2, "garde", 2, Decimal(49)), NAMES)
    other.save()

    status = entering.page.get_by_role("status").filter(
        has_text="Hand 1 was just entered on another phone."
    )
    expect(status).to_be_visible(timeout=SOON)
    expect(status).to_contain_text("otherwise it will be hand 2")
    assert uncovered(status.locator("p"))
    # What was typed stays; the form is now the next hand's, and the sheet shows hand 1.
    form = entering.form
    expect(form.get_by_role("radio", name="Ben").first).to_be_checked()
    expect(form.get_by_label("Points", exact=True)).to_have_value("51")
    expect(entering.page.locator("#entry h2")).to_contain_text("Hand 2")
    entering.expect_row(1, [-66, -66, 198, -66])

    # Read: out of the way.
    entering.tap(status.get_by_role("button", name="Got it"))
    expect(status).to_have_count(0)
    entering.choose("Contract", "Prise", form)
    entering.choose("Bouts", "1", form)
    entering.save()
    # Two hands, not one entered twice: Ben's is hand 2 (prise, 1 bout, 51: made by 0).
    stored = Sheet.objects.get().numbered_hands()
    assert [(hand.number, hand.taker) for hand in stored] == [(1, 2), (2, 1)]


@pytest.mark.parametrize("profile", list(PROFILES))
def test_a_correction_is_told_its_hand_was_changed_on_another_phone(open_page, profile):
    sheet = one_hand_sheet()
    correcting = phone(open_page, profile)
    other = SheetPage(open_page(PHONES[1] if profile == "Pixel 7" else PHONES[0]))
    for sheet_page in (correcting, other):
        sheet_page.page.goto(sheet.get_absolute_url())
    row = correcting.open_row(1)
    correcting.tap(row.get_by_role("link", name="Edit"))
    points = correcting.form.get_by_label("Points", exact=True)
    expect(points).to_have_value("49")

    correct_points(other, 1, "60")

    status = correcting.page.get_by_role("status").filter(
        has_text="This hand was changed on another phone."
    )
    expect(status).to_be_visible(timeout=SOON)
    reload = status.get_by_role("link", name="Load the new values")
    assert uncovered(reload)
    correcting.tap(reload)
    expect(points).to_have_value("60")
    expect(correcting.page.get_by_role("status").filter(has_text="another phone")).to_have_count(0)

    # Saved anyway before the notice came: refused, and said so in sight.
    correct_points(other, 1, "70")
    correcting.type_into(points, "52")
    correcting.tap(correcting.form.get_by_role("button", name="Save the correction"))
    refusal = correcting.page.get_by_text("This hand was changed on another phone meanwhile")
    expect(refusal).to_be_visible()
    # It takes the focus as it is brought into sight, below the totals.
    expect(correcting.page.locator(".form-errors")).to_be_focused()
    assert uncovered(refusal)
    expect(points).to_have_value("70")
    assert Sheet.objects.get().hands.get().points == Decimal(70)


def test_a_correction_is_told_its_hand_was_undone_on_another_phone(open_page):
    sheet = one_hand_sheet()
    correcting = phone(open_page, "360")
    other = SheetPage(open_page(PHONES[1]))
    for sheet_page in (correcting, other):
        sheet_page.page.goto(sheet.get_absolute_url())
    row = correcting.open_row(1)
    correcting.tap(row.get_by_role("link", name="Edit"))
    expect(correcting.form).to_be_visible()

    other.tap(other.page.get_by_role("button", name="Undo hand 1"))
    expect(other.row(1)).to_have_count(0)

    status = correcting.page.get_by_role("status").filter(
        has_text="This hand was deleted on another phone."
    )
    expect(status).to_be_visible(timeout=SOON)
    close = status.get_by_role("link", name="Close the form")
    assert uncovered(close)
    correcting.tap(close)
    expect(correcting.form).to_have_count(0)
    expect(correcting.row(1)).to_have_count(0)


def test_the_notices_have_no_serious_accessibility_problem(open_page, axe_script):
    sheet = one_hand_sheet()
    correcting = SheetPage(open_page(PHONES[0], bypass_csp=True))
    entering = SheetPage(open_page(PHONES[0], bypass_csp=True))
    other = SheetPage(open_page(PHONES[1]))
    for sheet_page in (correcting, entering, other):
        sheet_page.page.goto(sheet.get_absolute_url())
    correcting.tap(correcting.open_row(1).get_by_role("link", name="Edit"))
    entering.open_new_hand()
    other.open_new_hand()
    other.fill_hand(scoring.Hand(4, 0, "prise", 1, Decimal(51)), NAMES)
    other.save()
    correct_points(other, 1, "60")
    for sheet_page, text in (
        (correcting, "This hand was changed on another phone."),
        (entering, "Hand 2 was just entered on another phone."),
    ):
        expect(sheet_page.page.locator("#stale")).to_contain_text(text, timeout=SOON)
        assert axe_violations(sheet_page.page, axe_script) == [], text


def test_the_notice_in_french(open_page):
    sheet = writes.create_sheet("Vendredi", NAMES, 0)
    entering = phone(open_page, "360", locale="fr-FR")
    other = SheetPage(open_page(PHONES[1]))
    for sheet_page in (entering, other):
        sheet_page.page.goto(sheet.get_absolute_url())
    entering.tap(entering.page.get_by_role("link", name="Nouvelle donne"))
    expect(entering.form).to_be_visible()
    other.open_new_hand()
    other.fill_hand(scoring.Hand(4, 2, "garde", 2, Decimal(49)), NAMES)
    other.save()
    status = entering.page.get_by_role("status").filter(
        has_text="La donne 1 vient d’être saisie sur un autre téléphone."
    )
    expect(status).to_be_visible(timeout=SOON)
    expect(status).to_contain_text("sinon, ce sera la donne 2")
    expect(entering.page.locator("#entry h2")).to_contain_text("Donne 2")
