"""Small things at the table: in a 6-seat totals bar, six-letter names are whole on a
phone (they shrink a little before any "…")."""

import re
import uuid

import pytest
from playwright.sync_api import Page, Route, expect

from scoresheet import scoring
from scoresheet.sheets import writes
from tests.e2e.conftest import PHONES
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

SIX = ["Hélène", "Benoît", "Maëlle", "Damien", "Gérard", "Lucien"]
CUT = "e => e.scrollWidth > e.clientWidth"


@pytest.mark.parametrize("phone", PHONES)
def test_six_letter_names_are_whole_in_a_six_seat_bar(open_page, phone):
    sheet = writes.create_sheet("Six", SIX, 0, rules=scoring.Rules(dealer_sits_out=True))
    page = open_page(phone)
    page.goto(sheet.get_absolute_url())
    names = page.locator("#totals .total .name")
    assert names.all_text_contents() == SIX
    assert [name.evaluate(CUT) for name in names.all()] == [False] * 6
    # Still readable: not below 12 px.
    sizes = [
        float(name.evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
        for name in names.all()
    ]
    assert min(sizes) >= 12


def test_a_saved_message_goes_when_the_sheet_moves_on_or_a_form_opens(open_page):
    names = ["Ana", "Ben", "Chloé", "Dan"]
    sheet = writes.create_sheet("Deux téléphones", names, 0)
    first, second = SheetPage(open_page("Pixel 7")), SheetPage(open_page("iPhone 13"))
    for phone in (first, second):
        phone.page.goto(sheet.get_absolute_url())
    hand = scoring.Hand(4, 1, "garde", 2, 51)
    first.open_new_hand()
    first.fill_hand(hand, names)
    first.save()
    expect(first.page.locator("#flash")).to_contain_text("Hand 1 saved.")
    # Another phone enters hand 2: the first phone follows, and its message about hand 1 goes.
    second.open_new_hand()
    second.fill_hand(hand, names)
    second.save()
    expect(first.row(2)).to_be_visible(timeout=5_000)
    expect(first.page.locator("#flash")).to_be_empty()
    # Saved again on the first phone, then a new form: the message does not stay above it.
    first.open_new_hand()
    first.fill_hand(hand, names)
    first.save()
    expect(first.page.locator("#flash")).to_contain_text("Hand 3 saved.")
    first.open_new_hand()
    expect(first.page.locator("#flash")).to_be_empty()


def logged_errors(page: Page) -> list[str]:
    """What the page logs as an error from now on, and the scripts' uncaught errors."""
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def test_saving_hands_logs_no_error(open_page):
    """Each save logged htmx errors (the preview's request, cancelled by the save). Save
    right after typing the points, while the preview is on its way, three times."""
    names = ["Ana", "Ben", "Chloé", "Dan"]
    sheet = writes.create_sheet("Console", names, 0)
    phone = SheetPage(open_page("Pixel 7"))
    page = phone.page
    errors = logged_errors(page)
    page.goto(sheet.get_absolute_url())
    for number in (1, 2, 3):
        phone.open_new_hand()
        phone.fill_hand(scoring.Hand(4, number % 4, "garde", 2, 51), names)
        phone.save()
        expect(phone.row(number)).to_be_visible()
    assert errors == []


def hold_first(page: Page, pattern: str) -> list[Route]:
    """Hold the first request whose URL matches ``pattern`` (the test lets it go on); the
    others go straight through."""
    held: list[Route] = []

    def route(request_route: Route) -> None:
        if held:
            request_route.continue_()
        else:
            held.append(request_route)

    page.route(re.compile(pattern), route)
    return held


def wait_for(page: Page, held: list[Route]) -> None:
    for _ in range(200):
        if held:
            return
        page.wait_for_timeout(25)
    raise AssertionError("the request was not sent")


def test_a_poll_answered_after_this_phones_own_save_keeps_its_message(open_page):
    """The race CI met under load: a live poll asked before this phone's save and answered
    after it. The sheet moved on by this phone's own hand: its "saved" message stays."""
    names = ["Ana", "Ben", "Chloé", "Dan"]
    sheet = writes.create_sheet("Course", names, 0)
    phone = SheetPage(open_page("Pixel 7"))
    page = phone.page
    page.goto(sheet.get_absolute_url())
    phone.open_new_hand()
    phone.fill_hand(scoring.Hand(4, 1, "garde", 2, 51), names)
    held = hold_first(page, r"/live/\?")
    wait_for(page, held)
    phone.save()
    expect(page.locator("#flash")).to_contain_text("Hand 1 saved.")
    # The poll asked about the sheet before the save; its answer carries the saved hand.
    with page.expect_response(re.compile(r"/live/\?")):
        held[0].continue_()
    # And one more poll, straight through, for good measure.
    with page.expect_response(re.compile(r"/live/\?")):
        pass
    expect(page.locator("#flash")).to_contain_text("Hand 1 saved.")
    expect(phone.row(1)).to_have_count(1)


def test_a_preview_overtaken_by_another_logs_no_error(open_page):
    """A preview still on its way when the points change again (a slow network, a loaded
    phone), then Save: nothing is logged as an error (htmx logs an aborted request)."""
    names = ["Ana", "Ben", "Chloé", "Dan"]
    sheet = writes.create_sheet("Lent", names, 0)
    phone = SheetPage(open_page("Pixel 7"))
    page = phone.page
    errors = logged_errors(page)
    page.goto(sheet.get_absolute_url())
    phone.open_new_hand()
    held = hold_first(page, r"/hands/preview/$")
    phone.fill_hand(scoring.Hand(4, 1, "garde", 2, 50), names)
    wait_for(page, held)
    # The points change while the first preview is held: the preview asks again.
    phone.type_into(phone.form.get_by_label("Points", exact=True), "51")
    page.wait_for_timeout(500)
    held[0].continue_()
    phone.save()
    expect(phone.row(1)).to_be_visible()
    phone.expect_row(1, [-70, 210, -70, -70])
    assert errors == []


def test_another_phones_hand_stored_just_before_this_phones_shows(open_page):
    """Another phone's hand stored between this phone's last poll and its save: the save's
    answer brings its own row and a revision past the other one; the sheet still gets the other
    phone's row (the next poll asks for the whole sheet)."""
    names = ["Ana", "Ben", "Chloé", "Dan"]
    sheet = writes.create_sheet("Entre deux", names, 0)
    phone = SheetPage(open_page("Pixel 7"))
    page = phone.page
    quiet = {"on": True}
    # No poll gets through until this phone's hand is saved: "nothing moved".
    page.route(
        re.compile(r"/live/\?"),
        lambda route: route.fulfill(status=204) if quiet["on"] else route.continue_(),
    )
    page.goto(sheet.get_absolute_url())
    phone.open_new_hand()
    # The other phone's hand: Ben takes a garde, 2 bouts, 51 points (−70, +210, −70, −70).
    writes.add_hand(sheet.token, scoring.Hand(4, 1, "garde", 2, 51), uuid.uuid4())
    # This phone's: Chloé takes a prise, 1 bout, 51 points, made by 0: 25 from each defender.
    phone.fill_hand(scoring.Hand(4, 2, "prise", 1, 51), names)
    phone.save()
    expect(phone.row(2)).to_be_visible()
    quiet["on"] = False
    expect(phone.row(1)).to_be_visible()
    phone.expect_row(1, [-70, 210, -70, -70])
    phone.expect_row(2, [-25, -25, 75, -25])
    phone.expect_totals(names, [-95, 185, 5, -95])
