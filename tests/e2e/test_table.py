"""At the table: hand entry that never trips, on the phones of the issue."""

import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from playwright.sync_api import Locator, expect

from scoresheet import scoring
from scoresheet.models import Sheet
from scoresheet.sheets import writes
from tests.e2e.conftest import PHONES, TABLE_PHONES
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

FIVE = ["Ana", "Ben", "Chloé", "Dan", "Élise"]


def uncovered(locator: Locator) -> bool:
    """Whether the element is in the viewport and nothing (the sticky totals) sits on it."""
    return locator.evaluate(
        """element => {
            const box = element.getBoundingClientRect();
            const x = box.left + box.width / 2, y = box.top + box.height / 2;
            if (y < 0 || y > window.innerHeight || x < 0 || x > window.innerWidth) return false;
            const top = document.elementFromPoint(x, y);
            return element === top || element.contains(top);
        }"""
    )


@pytest.mark.parametrize("profile", TABLE_PHONES)
def test_a_forgotten_partner_is_refused_in_sight(open_page, profile):
    sheet_page = SheetPage(open_page(profile))
    sheet_page.create_session(FIVE)
    sheet_page.open_new_hand()
    form = sheet_page.form
    partner = form.get_by_role("group", name="Partner", exact=True)
    # No default: neither a player nor "alone" is chosen.
    expect(partner.get_by_role("radio", checked=True)).to_have_count(0)
    sheet_page.choose("Taker", "Ana", form)
    sheet_page.choose("Contract", "Garde", form)
    sheet_page.choose("Bouts", "2", form)
    sheet_page.type_into(form.get_by_label("Points", exact=True), "45")
    sheet_page.tap(form.get_by_role("button", name="Save the hand"))

    message = partner.get_by_text("Partner: choose one of the players, or alone.")
    expect(message).to_be_visible()
    assert uncovered(message)
    expect(partner.get_by_role("radio").first).to_be_focused()
    # The preview says what is missing, instead of going blank.
    preview = sheet_page.page.locator("#preview")
    expect(preview.locator(".preview-title")).to_have_text("Not ready yet:")
    expect(preview.locator(".problems")).to_contain_text("Partner:")
    assert not Sheet.objects.get().hands.exists()
    # What was entered is kept: one more tap saves it.
    expect(form.get_by_label("Points", exact=True)).to_have_value("45")
    sheet_page.choose("Partner", "alone", form)
    sheet_page.save()
    assert Sheet.objects.get().hands.get().partner is None
    # garde, 2 bouts, 45: (25 + 4) × 2 = 58 per defender, the taker alone 4 × 58 (docs/rules.md
    # S8).
    sheet_page.expect_row(1, [232, -58, -58, -58, -58])


def tap_choice(sheet_page: SheetPage, name: str, value) -> None:
    """Tap a segmented choice by its field and value, whatever the page's language."""
    selector = f'input[name="{name}"][value="{value}"]'
    radio = sheet_page.form.locator(selector)
    sheet_page.tap(sheet_page.form.locator("label.segment", has=sheet_page.page.locator(selector)))
    expect(radio).to_be_checked()


@pytest.mark.parametrize("profile", TABLE_PHONES)
@pytest.mark.parametrize("players", [3, 5])
def test_a_comma_saves_half_a_point_on_a_french_phone(open_page, players, profile):
    names = FIVE[:players]
    sheet = writes.create_sheet("Vendredi", names, 0)
    page = open_page(profile, locale="fr-FR")
    sheet_page = SheetPage(page)
    page.goto(sheet.get_absolute_url())
    sheet_page.tap(page.locator(f'a[href="{reverse("hand_new", args=[sheet.token])}"]'))
    expect(sheet_page.form).to_be_visible()
    tap_choice(sheet_page, "taker", 1)
    tap_choice(sheet_page, "contract", "prise")
    if players == 5:
        tap_choice(sheet_page, "partner", 2)
    tap_choice(sheet_page, "bouts", 2)
    field = sheet_page.form.locator('input[name="points"]')
    assert field.get_attribute("type") == "text"
    assert field.get_attribute("inputmode") == "decimal"
    sheet_page.type_into(field, "40,5")
    expect(field).to_have_value("40,5")
    # The − and + keep the comma: half a point up, then down again.
    sheet_page.tap(sheet_page.form.locator('button[data-step="0.5"]'))
    expect(field).to_have_value("41")
    sheet_page.tap(sheet_page.form.locator('button[data-step="-0.5"]'))
    expect(field).to_have_value("40,5")
    # The preview reads it too: prise, 2 bouts, 40.5 against 41 → lost by 1 (docs/rules.md §2.1).
    expect(page.locator("#preview .preview-scores .score")).to_have_count(players)
    sheet_page.tap(sheet_page.form.locator('button[name="save"]'))
    expect(page.locator("#entry .entry-panel")).to_have_count(0)
    # The row shows at once (offline.js); the server's answer confirms it.
    sheet_page.expect_confirmed()
    hand = Sheet.objects.get().hands.get()
    assert hand.points == Decimal("40.5")
    # A correction shows the points in French: 40,5.
    page.goto(reverse("hand_edit", args=[sheet.token, 1]))
    expect(page.locator('input[name="points"]')).to_have_value("40,5")


def test_two_phones_and_the_read_only_page_follow_a_new_hand_within_3_s(open_page):
    """Live: the other phone and the read-only page show the hand without a reload."""
    names = ["Ana", "Ben", "Chloé", "Dan"]
    sheet = writes.create_sheet("Vendredi", names, 0)
    entering = SheetPage(open_page(PHONES[0]))
    entering.page.goto(sheet.get_absolute_url())
    other = open_page(PHONES[1])
    other.goto(sheet.get_absolute_url())
    spectator = open_page(PHONES[0], viewport={"width": 360, "height": 740})
    spectator.goto(sheet.get_view_url())
    # A page nobody looks at asks nothing.
    lurker = open_page(PHONES[0])
    lurker.goto(sheet.get_view_url())
    lurker.evaluate(
        "Object.defineProperty(document, 'visibilityState', {value: 'hidden', configurable: true})"
    )
    asked = []
    lurker.on(
        "request", lambda request: asked.append(request.url) if "/live/" in request.url else None
    )

    entering.open_new_hand()
    # FFT rulebook: Chloé, garde, 2 bouts, 49 → (25 + 8) × 2 = 66 per defender.
    hand = scoring.Hand(4, 2, "garde", 2, Decimal(49))
    entering.fill_hand(hand, names)
    entering.save()
    for page in (other, spectator):
        follower = SheetPage(page)
        expect(follower.row(1)).to_be_visible(timeout=3_000)
        follower.expect_row(1, [-66, -66, 198, -66])
        follower.expect_totals(names, [-66, -66, 198, -66])
    # The other phone can take the next hand: its actions followed too.
    expect(other.get_by_role("button", name="Undo hand 1")).to_be_visible()

    assert asked == []
    expect(lurker.locator("#hand-1")).to_have_count(0)
    lurker.evaluate(
        "Object.defineProperty(document, 'visibilityState', "
        "{value: 'visible', configurable: true});"
        "document.dispatchEvent(new Event('visibilitychange'))"
    )
    expect(lurker.locator("#hand-1")).to_be_visible(timeout=3_000)


@pytest.mark.parametrize("profile", TABLE_PHONES)
def test_a_missing_page_is_the_apps_own_with_a_way_home(open_page, profile):
    """A mistyped or stale link: the app's page, in the player's language, with a link home."""
    page = open_page(profile, locale="fr-FR")
    response = page.goto("/s/no-such-session/")
    assert response.status == 404
    expect(page.locator("header")).to_be_visible()
    home = page.get_by_role("link", name="Retour à l’accueil")
    expect(home).to_be_visible()
    assert not page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )
    SheetPage(page).tap(home)
    page.wait_for_url("**/")
    expect(page.get_by_role("link", name="Nouvelle partie")).to_be_visible()


def test_a_failed_live_poll_alarms_nobody_and_the_next_one_catches_up(open_page):
    """The live poll runs in the background: one that fails is tried again, silently."""
    names = ["Ana", "Ben", "Chloé", "Dan"]
    sheet = writes.create_sheet("Vendredi", names, 0)
    page = open_page(PHONES[0])
    failed = []

    def fail_once(route):
        if not failed:
            failed.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.goto(sheet.get_absolute_url())
    page.route("**/live/**", fail_once)
    page.wait_for_function("() => true", timeout=1_000)
    # Garde, 2 bouts, 49 (docs/rules.md S14): (25 + 8) × 2 = 66 per defender, 198 to the taker.
    writes.add_hand(sheet.token, scoring.Hand(4, 2, "garde", 2, Decimal(49)), uuid.uuid4())
    follower = SheetPage(page)
    expect(follower.row(1)).to_be_visible(timeout=6_000)
    follower.expect_totals(names, [-66, -66, 198, -66])
    assert failed
    assert "The server cannot be reached" not in page.locator("body").inner_text()
