"""A club night in the room: 16 players (accented names), 5 rounds of 4 deals, four table
phones (Pixel 7, iPhone 13), the organiser's phone at 360 px and a TV at 1920 × 1080. Most deals
are stored through the write module; the phones enter the few this test is about.

Each phone carries its night (round, table, deal; the round over; where its players go next);
a fifth deal asks first, is stored only once confirmed (offline too) and shows "5/4"; the screen
fills the room's screen and ends on the final ranking; the organiser's page never scrolls
sideways, at 100 % and at 200 % text."""

import time
import uuid
from datetime import date

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Night, NightTable, Sheet
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes
from tests.e2e.conftest import NARROW
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_large_text import WIDEST, at_font_size
from tests.e2e.test_offline import KEPT

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Anaïs",
    "Bruno",
    "Chloé",
    "Dan",
    "Élodie",
    "Émile",
    "Farid",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Jules",
    "Karim",
    "Léa",
    "Noémie",
    "Océane",
    "Zoé",
]
NIGHT = "Tournoi de décembre"
# The screen and the phones follow within 3 s (they poll every 2 s; here every 0.3 s:
# conftest's INTERVALS).
LIVE = 3_000
# The four table phones, two of each.
PHONES = ["Pixel 7", "iPhone 13", "Pixel 7", "iPhone 13"]
# What the page overflows sideways by (0: nothing).
OVERFLOW = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
# The warning colour past the plan (app.css's --warning, light theme; night.css on the screen).
WARNING = "rgb(122, 75, 0)"
SCREEN_WARNING = "rgb(255, 204, 102)"


def garde(taker: int) -> scoring.Hand:
    """A garde made with 2 bouts and 56 points at 4 (made by 15): 80 a defender, 240 to the
    taker (docs/rules.md §2)."""
    return scoring.Hand(4, taker, "garde", 2, 56)


def prepared(played: int = 3, minutes: int | None = 60):
    """The club and its night, round 1 drawn, each of its four tables with ``played`` deals
    stored through the write module."""
    club = club_writes.create_club("Le jeudi", players=NAMES).club
    night = night_writes.create_night(
        club, NIGHT, date(2026, 12, 4), NAMES, 5, 4, minutes, seed="2026"
    ).night
    for table in range(1, 5):
        play(night, 1, table, played)
    return club, Night.objects.get(pk=night.pk)


def sheet_at(night, round_number: int, table: int) -> Sheet:
    return NightTable.objects.get(night=night, round=round_number, table=table).club_sheet.sheet


def play(night, round_number: int, table: int, deals: int, start: int = 0) -> None:
    sheet = sheet_at(night, round_number, table)
    for number in range(start, start + deals):
        writes.add_hand(sheet.token, garde(number % 4), uuid.uuid4())


def seat_names(sheet: Sheet) -> list[str]:
    return list(sheet.seats.values_list("name", flat=True))


def left(deadline: float) -> float:
    """The milliseconds left before ``deadline`` (time.monotonic()), for an expect's timeout."""
    return max(1, (deadline - time.monotonic()) * 1000)


def enter(phone: SheetPage, taker: int, names: list[str]) -> None:
    phone.open_new_hand()
    phone.fill_hand(garde(taker), names)
    expect(phone.page.locator("#preview .preview-scores .score")).to_have_count(4)


def open_tables(open_page, night, round_number: int = 1) -> list[SheetPage]:
    """The four table phones (two Pixel 7, two iPhone 13), each on its table's sheet."""
    phones = []
    for table, device in enumerate(PHONES, start=1):
        phone = SheetPage(open_page(device))
        phone.page.goto(sheet_at(night, round_number, table).get_absolute_url())
        phones.append(phone)
    return phones


def test_each_table_s_phone_shows_its_round_table_and_deal_then_the_round_over(open_page):
    _club, night = prepared(played=3)
    phones = open_tables(open_page, night)
    for table, phone in enumerate(phones, start=1):
        line = phone.page.locator("#night-line")
        expect(line.locator(".night-name")).to_have_text(NIGHT)
        expect(line).to_contain_text(f"Round 1 of 5 · Table {table}")
        expect(line.locator(".deal")).to_have_text("Deal 4 of 4")
        expect(phone.page.locator("#night-status")).not_to_contain_text("over")

    # Table 1 enters its 4th deal by taps: the round is over for it.
    first = phones[0]
    enter(first, 3, seat_names(sheet_at(night, 1, 1)))
    first.save()
    expect(first.page.locator("#night-line .deal")).to_have_text("4 of 4 deals played")
    expect(first.page.locator("#night-status .round-over")).to_contain_text(
        "This round is over for this table."
    )
    # The three others' 4th deals, stored elsewhere: each phone follows.
    for table in (2, 3, 4):
        play(night, 1, table, 1, start=3)
    for phone in phones[1:]:
        expect(phone.page.locator("#night-line .deal")).to_have_text(
            "4 of 4 deals played", timeout=LIVE
        )
        expect(phone.page.locator("#night-status .round-over")).to_contain_text(
            "This round is over for this table.", timeout=LIVE
        )


def test_after_the_draw_every_phone_shows_where_each_player_goes(open_page):
    club, night = prepared(played=4)
    phones = open_tables(open_page, night)
    for phone in phones:
        expect(phone.page.locator("#night-status .round-over")).to_be_visible()
    organiser = SheetPage(open_page(NARROW))
    organiser.page.goto(f"/c/{club.token}/nights/{night.number}/")
    organiser.tap(organiser.page.get_by_role("button", name="Draw round 2", exact=True))
    expect(organiser.page.get_by_role("heading", name="Round 2 of 5")).to_be_visible()
    drawn = time.monotonic()
    going = {}
    for table in NightTable.objects.filter(night=night, round=2).select_related(
        "club_sheet__sheet"
    ):
        for name in seat_names(table.club_sheet.sheet):
            going[name] = table.table
    assert sorted(going) == sorted(NAMES)
    # Every phone shows where each of its players goes, within 3 s of the draw.
    for table, phone in enumerate(phones, start=1):
        names = seat_names(sheet_at(night, 1, table))
        expect(phone.page.locator("#night-status .next-seats li")).to_have_text(
            [f"{name} → Table {going[name]}" for name in names], timeout=left(drawn + 3)
        )
    expect(phones[0].page.locator("#night-status")).to_contain_text("Round 2: where you sit")


def test_a_fifth_deal_asks_first_and_the_night_page_and_screen_show_5_of_4(open_page):
    club, night = prepared(played=4)
    sheet = sheet_at(night, 1, 1)
    organiser = open_page(NARROW)
    organiser.goto(f"/c/{club.token}/nights/{night.number}/")
    screen = open_page("Desktop Chrome", viewport={"width": 1920, "height": 1080})
    screen.goto(f"/tv/{night.screen}")
    expect(screen.locator(".screen-table").first.locator(".count")).to_have_text("4/4")

    phone = SheetPage(open_page("iPhone 13"))
    phone.page.goto(sheet.get_absolute_url())
    expect(phone.page.locator("#night-line .deal")).to_have_text("4 of 4 deals played")
    enter(phone, 0, seat_names(sheet))
    phone.tap(phone.form.get_by_role("button", name="Save the hand"))
    question = phone.page.locator("#beyond-plan")
    expect(question).to_be_visible()
    expect(question).to_contain_text("This table has played its 4 deals. Save deal 5?")
    # Asked, nothing stored nor waiting: the form is still open.
    expect(phone.page.locator("#hands .hand")).to_have_count(4)
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 4
    phone.tap(question.get_by_role("button", name="Yes, save it"))
    expect(phone.page.locator("#entry .entry-panel")).to_have_count(0)
    phone.expect_confirmed()
    expect(phone.page.locator("#hand-5")).to_be_visible()
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 5
    deal = phone.page.locator("#night-line .deal")
    expect(deal).to_have_text("5 of 4 deals played")
    expect(deal).to_have_css("color", WARNING)

    card = organiser.locator(".night-table").first
    expect(card.locator(".progress")).to_have_text("5/4 deals", timeout=LIVE)
    expect(card.locator(".progress")).to_have_css("color", WARNING)
    count = screen.locator(".screen-table").first.locator(".count")
    expect(count).to_have_text("5/4", timeout=LIVE)
    expect(count).to_have_css("color", SCREEN_WARNING)


def test_offline_a_deal_past_the_plan_is_asked_and_queued_confirmed(open_page):
    _club, night = prepared(played=3)
    sheet = sheet_at(night, 1, 2)
    names = seat_names(sheet)
    phone = SheetPage(open_page("Pixel 7"))
    page = phone.page
    page.goto(sheet.get_absolute_url())
    expect(page.locator("#night-line .deal")).to_have_text("Deal 4 of 4")
    # Kept by the service worker, with its hand form: it works with no network.
    url = sheet.get_absolute_url()
    assert page.evaluate(KEPT, {"pages": [url], "fragments": [f"{url}hands/new/"]})
    page.context.set_offline(True)
    # Meanwhile the 4th deal is stored from another phone: this one still counts 3.
    play(night, 1, 2, 1, start=3)
    enter(phone, 1, names)
    phone.save(confirmed=False)
    expect(page.locator("#hands .hand.pending")).to_have_count(1)
    page.context.set_offline(False)
    # The server refuses it unconfirmed; its answer names the field, and the phone asks.
    anyway = page.get_by_role("button", name="Save it anyway")
    expect(anyway).to_be_visible(timeout=LIVE)
    expect(page.locator("#hands .hand.refused")).to_contain_text("Beyond the plan")
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 4
    phone.tap(anyway)
    phone.expect_confirmed()
    expect(page.locator("#hand-5")).to_be_visible()
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 5

    # Offline again, the phone knows: it asks before queueing, and the queued deal carries the
    # confirmation.
    page.context.set_offline(True)
    enter(phone, 2, names)
    phone.tap(phone.form.get_by_role("button", name="Save the hand"))
    question = page.locator("#beyond-plan")
    expect(question).to_contain_text("This table has played its 4 deals. Save deal 6?")
    phone.tap(question.get_by_role("button", name="Yes, save it"))
    expect(page.locator("#hands .hand.pending")).to_have_count(1)
    page.context.set_offline(False)
    phone.expect_confirmed()
    expect(page.locator("#hand-6")).to_be_visible()
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 6


SCREEN = """() => {
  const lines = [...document.querySelectorAll('.screen-line:not(.filler)')];
  const seats = [...document.querySelectorAll('.screen-tables li, .seating-table li')];
  const cut = seats.filter(seat => seat.scrollWidth > seat.clientWidth + 1);
  return {
    lines: lines.length,
    last: lines.length ? lines.at(-1).getBoundingClientRect().bottom : null,
    seat: Math.min(...seats.map(seat => parseFloat(getComputedStyle(seat).fontSize))),
    seats: seats.length,
    cut: cut.length,
    width: document.documentElement.scrollWidth,
    height: document.documentElement.scrollHeight,
  };
}"""


def test_the_screen_serves_the_room_from_the_draw_to_the_final_ranking(open_page):
    club, night = prepared(played=0)
    screen = open_page("Desktop Chrome", viewport={"width": 1920, "height": 1080})
    screen.goto(f"/tv/{night.screen}")
    assert len(f"/tv/{night.screen}") <= 12
    # Right after the draw: the seating takes the screen, every name in full, 40 px or more.
    expect(screen.locator(".screen-live")).to_have_class("screen-live seating")
    expect(screen.locator(".seating-table li")).to_have_count(16)
    shown = screen.evaluate(SCREEN)
    assert shown["seat"] >= 40, shown
    assert shown["cut"] == 0, shown
    assert (shown["width"], shown["height"]) == (1920, 1080), shown
    expect(screen.locator(".screen-qr img")).to_be_visible()

    # The first deal: the ranking, the seating beside it, the height of the screen used.
    play(night, 1, 1, 1)
    expect(screen.locator(".screen-live")).to_have_class("screen-live playing", timeout=LIVE)
    expect(screen.locator(".screen-line:not(.filler)")).to_have_count(16)
    shown = screen.evaluate(SCREEN)
    assert 864 < shown["last"] <= 1080, shown
    assert shown["seat"] >= 40, shown
    assert shown["seats"] == 4, shown
    assert shown["cut"] == 0, shown
    assert (shown["width"], shown["height"]) == (1920, 1080), shown
    expect(screen.locator(".screen-timer")).to_be_visible()

    # The whole night, stored elsewhere: after the last round, the final ranking.
    for number in range(1, 6):
        if number > 1:
            night_writes.draw_round(club, night, number)
        for table in range(1, 5):
            played = 1 if (number, table) == (1, 1) else 0
            play(night, number, table, 4 - played, start=played)
    expect(screen.get_by_role("heading", name="Final ranking")).to_be_visible(timeout=LIVE)
    expect(screen.locator(".screen-timer")).to_have_count(0)
    totals = {}
    for table in NightTable.objects.filter(night=night).select_related("club_sheet__sheet"):
        sheet = table.club_sheet.sheet
        for name, total in zip(seat_names(sheet), sheet.totals, strict=True):
            totals[name] = totals.get(name, 0) + total
    best = sorted(totals.values(), reverse=True)[:3]
    podium = screen.locator(".podium li")
    expect(podium).to_have_count(3)
    shown_totals = [
        int(text.replace("−", "-")) for text in podium.locator(".total").all_inner_texts()
    ]
    assert shown_totals == best
    for name in podium.locator(".name").all_inner_texts():
        assert totals[name] in best
    shown = screen.evaluate(SCREEN)
    assert (shown["width"], shown["height"]) == (1920, 1080), shown

    # On a phone, the same address: nothing sideways.
    phone = open_page(NARROW)
    phone.goto(f"/tv/{night.screen}")
    expect(phone.get_by_role("heading", name="Final ranking")).to_be_visible()
    assert phone.evaluate(OVERFLOW) == 0


# The boxes past the page's right edge (not inside a box that scrolls).
BOXES = """() => {
  const width = document.documentElement.clientWidth + 1;
  return [...document.querySelectorAll('body *')]
    .filter(node => node.getBoundingClientRect().right > width)
    .filter(node => !node.closest('.standings-scroll'))
    .slice(0, 6)
    .map(node => {
      const right = Math.round(node.getBoundingClientRect().right);
      return `${node.tagName}.${node.className} ${right}`;
    });
}"""


# Every field and button of the page, and what is drawn as one: 44 × 44 CSS px at least.
TARGETS = """() => {
  const small = [];
  const targets = document.querySelectorAll(
    'main a.button, main button, main input:not([type=hidden]), main select, main summary'
  );
  for (const target of targets) {
    const box = target.getBoundingClientRect();
    if (!box.width || target.closest('[hidden]')) continue;
    if (box.width < 44 - 0.01 || box.height < 44 - 0.01) {
      const name = target.name || target.textContent.trim();
      small.push(`${target.tagName} ${name}: ${box.width}×${box.height}`);
    }
  }
  return small;
}"""


@pytest.mark.parametrize("percent", [100, 200])
def test_the_organisers_night_page_fits_a_phone(open_page, percent):
    club, night = prepared(played=4)
    page = open_page(NARROW)
    at_font_size(page, percent)
    page.goto(f"/c/{club.token}/nights/{night.number}/")
    expect(page.get_by_role("button", name="Draw round 2", exact=True)).to_be_visible()
    # The text follows the phone's setting (Chromium's default font size).
    assert (
        page.evaluate("parseFloat(getComputedStyle(document.body).fontSize)") == 16 * percent / 100
    )
    assert page.evaluate(OVERFLOW) == 0, page.evaluate(WIDEST) + page.evaluate(BOXES)
    assert page.evaluate(TARGETS) == []
    # The screen's address: short, to copy; the long read-only links never printed in full.
    short = page.locator("#tv-link")
    expect(short).to_have_value(f"{page.url.split('/c/')[0]}/tv/{night.screen}")
    expect(page.get_by_role("button", name="Copy")).to_be_visible()
    assert "/cv/" not in page.locator("main").inner_text()
    # The screen at the same width: nothing sideways either.
    screen = open_page(NARROW)
    at_font_size(screen, percent)
    screen.goto(f"/tv/{night.screen}")
    expect(screen.locator(".screen-table")).to_have_count(4)
    assert screen.evaluate(OVERFLOW) == 0, screen.evaluate(WIDEST) + screen.evaluate(BOXES)
