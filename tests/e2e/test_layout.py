"""What only a phone's screen shows: the totals stay in view, and nothing scrolls sideways."""

import json

import pytest
from playwright.sync_api import Page, expect

from scoresheet import scoring
from scoresheet.files import session_backup as backup
from scoresheet.sheets import writes
from tests.conftest import BACKUPS
from tests.e2e.conftest import TABLE_PHONES
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_accessibility import axe_violations
from tests.e2e.test_table import uncovered

pytestmark = pytest.mark.django_db(transaction=True)

# Long names, as a club's sheet has them: the widest case of a 5-player table.
LONG_NAMES = ["Anne-Sophie", "Jean-Baptiste", "Maximilien", "Bérénice", "Marie-Christine"]


@pytest.fixture
def long_session():
    """A 5-player session of 40 hands (every kind of hand), restored from a backup."""
    data = BACKUPS[5] | {"players": LONG_NAMES, "name": "Tournoi du club, table 12"}
    data["hands"] = (BACKUPS[5]["hands"] * 8)[:40]
    return backup.load(json.dumps(data))


def scrolls_sideways(page: Page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("profile", TABLE_PHONES)
def test_totals_stay_on_screen_at_the_bottom_of_a_long_session(open_page, long_session, profile):
    page = open_page(profile)
    page.goto(long_session.get_absolute_url())
    expect(page.locator("#hand-40")).to_be_attached()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_function(
        "window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1"
    )
    height = page.viewport_size["height"]
    assert page.evaluate("window.scrollY") > 2 * height  # far down: the totals' own place is gone
    last = page.locator("#hand-40").bounding_box()
    assert last["y"] < height  # the last row is on screen...
    totals = page.locator("#totals").bounding_box()
    assert totals["y"] >= 0  # ...and so are the totals, whole
    assert totals["y"] + totals["height"] <= height
    assert totals["height"] < height / 3  # and leave room for the rows
    expect(page.locator("#totals .total .name")).to_have_text(LONG_NAMES)
    for seat in range(5):
        expect(page.locator("#totals .total").nth(seat)).to_be_in_viewport()
    expect(page.get_by_role("link", name="New hand")).to_be_in_viewport()


@pytest.mark.parametrize("profile", TABLE_PHONES)
def test_no_page_scrolls_sideways_at_phone_width(open_page, long_session, profile):
    sheet_page = SheetPage(open_page(profile))
    page = sheet_page.page
    token, view_token = long_session.token, long_session.view_token
    checked = []

    def check(what):
        page.wait_for_load_state()
        assert not scrolls_sideways(page), what
        checked.append(what)

    page.goto("/new/")
    sheet_page.choose("Number of players", "5")
    check("new session, 5 players")
    page.goto(f"/s/{token}/")
    sheet_page.tap(page.locator("details.chart > summary"))
    expect(page.locator("#chart svg")).to_be_visible()
    # The latest 20 hands are on the page: the first of them, and the last.
    sheet_page.open_row(21)
    sheet_page.open_row(40)
    sheet_page.tap(page.locator("details.share > summary"))
    check("sheet, chart, rows and share open")
    sheet_page.open_new_hand()
    sheet_page.choose("Taker", "Marie-Christine", sheet_page.form)
    sheet_page.choose("Contract", "Garde contre", sheet_page.form)
    sheet_page.choose("Partner", "Jean-Baptiste", sheet_page.form)
    sheet_page.choose("Bouts", "3", sheet_page.form)
    sheet_page.type_into(sheet_page.form.get_by_label("Points", exact=True), "88.5")
    sheet_page.tap(page.locator("details.announcements > summary"))
    sheet_page.choose("Marie-Christine", "triple (13 trumps)", sheet_page.form)
    expect(page.locator("#preview .preview-scores .score")).to_have_count(5)
    check("hand form on the sheet, announcements open, preview")
    page.goto(f"/s/{token}/hands/new/")
    sheet_page.tap(page.locator("details.announcements > summary"))
    check("hand form page")
    page.goto(f"/s/{token}/hands/3/edit/")
    check("correction page")
    page.goto(f"/s/{token}/hands/3/delete/")
    check("delete page")
    page.goto(f"/s/{token}/stats/")
    check("statistics")
    page.goto(f"/s/{token}/share/")
    check("share")
    page.goto(f"/v/{view_token}/")
    sheet_page.tap(page.locator("details.chart > summary"))
    sheet_page.open_row(22)
    check("read-only sheet")
    page.goto(f"/v/{view_token}/stats/")
    check("read-only statistics")
    page.goto("/")
    expect(page.locator(".session-card")).to_have_count(1)
    check("home, with the sessions")
    assert len(checked) == 11


# The totals bar at its widest. Names of 20 characters, and totals of 6 digits with
# their sign (+132180, −114720: the sheet writes a true minus and no thousands separator).
TWENTY = [
    "Anne-Sophie Lefebvre",
    "Jean-Baptiste Moreau",
    "Marie-Christine Roux",
    "Maximilien Fontaines",
    "Bérénice Montgolfier",
    "Pierre-Louis Garnier",
]
NARROW = {
    "320": ("Pixel 7", {"viewport": {"width": 320, "height": 640}}),
    "360": ("Pixel 7", {"viewport": {"width": 360, "height": 740}}),
    "Pixel 7": ("Pixel 7", {}),
    "iPhone 13": ("iPhone 13", {}),
}


def huge_hands(seats: int, rules: scoring.Rules, count: int = 128):
    """Hands that make the totals run into six digits: seat 0 (or the next player) wins a
    garde contre with chelem and poignée alone, then seat 1 (or the next) loses one."""
    players = rules.players(seats)
    for number in range(count):
        dealer = number % seats
        playing = [s for s in range(seats) if not (rules.dealer_sits_out and s == dealer)]
        won = number % 2 == 0
        preferred = [0, 2, 4] if won else [1, 3, 5]
        taker = next(s for s in preferred if s in playing)
        hand = scoring.Hand(
            seats,
            taker,
            "garde_contre",
            3 if won else 0,
            91 if won else 0,
            poignees={taker: "triple"},
            chelem="announced_made" if won else "announced_failed",
            dealer=dealer,
        )
        assert rules.players(seats) == players
        yield None, hand


def big_sheet(seats: int):
    """A session of ``seats`` seats (6: the dealer sits out, docs/rules.md §6.4) with 20-character
    names and six-digit totals."""
    rules = scoring.Rules(dealer_sits_out=seats == 6)
    return writes.create_sheet(
        "Grand tournoi", TWENTY[:seats], 0, rules=rules, hands=huge_hands(seats, rules)
    )


def boxes_of(page: Page) -> dict:
    """Where the totals bar's numbers and names are, and whether any is clipped."""
    return page.evaluate(
        """() => {
            const box = (element) => {
                const r = element.getBoundingClientRect();
                return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                        clipped: element.scrollWidth > element.clientWidth,
                        text: element.textContent.trim()};
            };
            const bar = document.getElementById("totals").getBoundingClientRect();
            return {
                scores: [...document.querySelectorAll("#totals .total .score")].map(box),
                names: [...document.querySelectorAll("#totals .total .name")].map(box),
                rows: [...document.querySelectorAll("#hands .hand .scores .score")].map(box),
                bar: {top: bar.top, height: bar.height},
                width: window.innerWidth, height: window.innerHeight,
            };
        }"""
    )


def overlap(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@pytest.mark.parametrize("seats", [3, 4, 5, 6])
@pytest.mark.parametrize("screen", list(NARROW))
def test_the_totals_bar_fits_six_digit_totals_and_long_names(open_page, screen, seats):
    sheet = big_sheet(seats)
    profile, options = NARROW[screen]
    page = open_page(profile, **options)
    page.goto(sheet.get_absolute_url())
    found = boxes_of(page)
    scores = found["scores"]
    assert len(scores) == seats
    # The data is as wide as the issue says: at least two totals of six digits and a sign.
    assert sum(len(score["text"]) == 7 for score in scores) >= 2, [s["text"] for s in scores]
    for one in range(seats):
        score = scores[one]
        # Each number whole: inside the screen, and not cut by its own box.
        assert score["left"] >= 0, score
        assert score["right"] <= found["width"], score
        assert not score["clipped"], score
        for other in scores[one + 1 :]:
            assert not overlap(score, other), (score, other)
        # A name may be shortened, never drawn over a number.
        for name in found["names"]:
            assert not overlap(score, name), (score, name)
    # The names are shortened, not lost: each whole name is there for a screen reader.
    totals = page.locator("#totals .total")
    for seat in range(seats):
        expect(totals.nth(seat).get_by_text(TWENTY[seat], exact=True)).to_be_attached()
    # The rows' numbers (five characters: −2904) are not cut either.
    assert found["rows"]
    assert [row for row in found["rows"] if row["clipped"] or row["right"] > found["width"]] == []
    assert not scrolls_sideways(page)
    # The bar leaves most of the screen to the rows.
    assert found["bar"]["height"] < found["height"] / 3, found["bar"]


def focused_in(locator) -> bool:
    return locator.evaluate("element => element.contains(document.activeElement)")


def expect_form_in_sight(sheet_page: SheetPage) -> None:
    """The form's heading and its first taker button are on screen, nothing (the sticky totals)
    drawn over them, and the focus is on the form."""
    page = sheet_page.page
    panel = page.locator("#entry .entry-panel")
    heading = panel.get_by_role("heading", level=2)
    first_taker = panel.get_by_role("group", name="Taker", exact=True).get_by_role("radio").first
    expect(heading).to_be_focused()
    # Wait for the scroll to end: two frames without movement.
    page.wait_for_function(
        """() => new Promise(done => {
            const y = window.scrollY;
            requestAnimationFrame(() => requestAnimationFrame(() => done(window.scrollY === y)));
        })"""
    )
    assert uncovered(heading), heading.bounding_box()
    assert uncovered(first_taker), first_taker.bounding_box()
    assert focused_in(panel)


@pytest.mark.parametrize("screen", list(NARROW))
def test_the_hand_form_opens_in_sight_below_the_totals(open_page, screen):
    sheet = big_sheet(6)
    profile, options = NARROW[screen]
    sheet_page = SheetPage(open_page(profile, **options))
    page = sheet_page.page
    page.goto(sheet.get_absolute_url())
    # The rows (20 of 128 hands) make the page far longer than the screen: the form opens
    # far below where the page is.
    height = page.viewport_size["height"]
    assert page.evaluate("document.documentElement.scrollHeight") > 4 * height
    sheet_page.tap(page.get_by_role("link", name="New hand"))
    expect(sheet_page.form).to_be_visible()
    expect_form_in_sight(sheet_page)

    # The same for a correction, opened from a row at the top of the page's rows.
    sheet_page.tap(page.locator("[data-cancel]"))
    expect(sheet_page.form).to_have_count(0)
    page.evaluate("window.scrollTo(0, 0)")
    row = sheet_page.open_row(109)
    sheet_page.tap(row.get_by_role("link", name="Edit"))
    expect(page.locator("#entry h2")).to_contain_text("Correct hand 109")
    expect_form_in_sight(sheet_page)


def test_the_widest_totals_bar_and_its_form_have_no_serious_accessibility_problem(
    open_page, axe_script
):
    sheet = big_sheet(6)
    profile, options = NARROW["320"]
    sheet_page = SheetPage(open_page(profile, **options, bypass_csp=True))
    page = sheet_page.page
    page.goto(sheet.get_absolute_url())
    toggle = page.get_by_role("button", name="Keep the screen on")
    sheet_page.tap(toggle)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert axe_violations(page, axe_script) == []
    sheet_page.open_new_hand()
    assert axe_violations(page, axe_script) == []
