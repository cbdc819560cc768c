"""Installable and offline at the table, in Chromium at phone size.

The manifest and its icons, the service worker controlling the page; the sheet reopening with
no network; hands entered offline shown at once with their scores and totals (docs/rules.md §5.1's
sample sheet), then stored exactly once when the network returns, even after the page was
closed and reopened; a queued hand the server refuses staying visible with its reason.
"""

import re
import struct

import pytest
from playwright.sync_api import expect

from scoresheet import scoring
from scoresheet.models import Hand, Sheet
from scoresheet.sheets import writes

from .sheet_page import SheetPage, signed
from .test_accessibility import axe_violations

NAMES = ["Ana", "Ben", "Chloé", "Dan"]
# docs/rules.md F1–F3, the FFT rulebook's sample sheet: its first three hands and their rows.
SAMPLE = [
    (
        scoring.Hand(4, 2, "garde", 2, 49, None, "attack", {2: "simple"}),
        [-106, -106, 318, -106],
    ),
    (scoring.Hand(4, 3, "garde_sans", 1, 55, None, "defence"), [-76, -76, -76, 228]),
    (
        scoring.Hand(4, 1, "prise", 0, 49, None, "attack", {1: "simple"}),
        [42, -126, 42, 42],
    ),
]
# Their running totals, added by hand from the rows above.
RUNNING = [[-106, -106, 318, -106], [-182, -182, 242, 122], [-140, -308, 284, 164]]

# Resolves when this page's service worker controls it and keeps the given pages and fragments.
KEPT = """async ({pages, fragments}) => {
  await navigator.serviceWorker.ready;
  for (let i = 0; i < 200; i++) {
    if (navigator.serviceWorker.controller) {
      const cache = await caches.open('tarot-pages');
      const urls = (await cache.keys()).map(r => r.url);
      const has = (path, fragment) => urls.some(u => {
        const url = new URL(u);
        return url.pathname === path && url.searchParams.has('__fragment') === fragment;
      });
      if (pages.every(p => has(p, false)) && fragments.every(p => has(p, true))) return true;
    }
    await new Promise(r => setTimeout(r, 100));
  }
  return false;
}"""


# A row's markup but for the queue's own parts (its status, its actions).
ROW_MARKUP = """row => {
  const copy = row.cloneNode(true);
  copy.querySelectorAll('.queue-status, .row-actions').forEach(node => node.remove());
  return [copy.querySelector('summary').innerHTML, copy.querySelector('.formula').outerHTML];
}"""


def png_size(body: bytes) -> tuple[int, int]:
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", body[16:24])


@pytest.fixture
def sheet(db):
    return writes.create_sheet("Vendredi", NAMES, 0)


def opened(open_page, sheet, poll=None, **options) -> SheetPage:
    """The sheet on a phone, once the service worker keeps it and its hand form; ``poll``: the
    live poll's interval in ms, instead of the tests' short one."""
    page = open_page("Pixel 7", **options)
    if poll:
        page.add_init_script(f"window.tarotIntervals.poll = {poll};")
    page.goto(sheet.get_absolute_url())
    kept = {
        "pages": [sheet.get_absolute_url()],
        "fragments": [f"{sheet.get_absolute_url()}hands/new/"],
    }
    assert page.evaluate(KEPT, kept)
    return SheetPage(page)


def test_installable(open_page, sheet):
    """The manifest holds what browsers ask of an installable app, its icons are fetched, and
    the service worker controls the page."""
    page = open_page("Pixel 7")
    page.goto(sheet.get_absolute_url())
    link = page.locator('link[rel="manifest"]')
    href = link.get_attribute("href")
    response = page.request.get(href)
    assert response.ok
    assert response.headers["content-type"].startswith("application/manifest+json")
    manifest = response.json()
    assert manifest["name"] == "Tarot score sheet"
    assert manifest["short_name"]
    assert manifest["display"] == "standalone"
    # Installed from a sheet, the app opens that sheet (iOS keeps a home-screen app apart).
    assert manifest["start_url"] == sheet.get_absolute_url()
    assert manifest["scope"] == "/"
    assert manifest["theme_color"].startswith("#")
    assert manifest["background_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        fetched = page.request.get(icon["src"])
        assert fetched.ok
        assert fetched.headers["content-type"] == "image/png"
        width, height = png_size(fetched.body())
        assert f"{width}x{height}" == icon["sizes"]
        sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
    assert sizes["any"] >= {192, 512}
    assert 512 in sizes["maskable"]
    assert page.evaluate(KEPT, {"pages": [sheet.get_absolute_url()], "fragments": []})
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js")
    worker = page.request.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert "script-src 'self'" in worker.headers["content-security-policy"]


def test_the_sheet_reopens_offline(open_page, sheet):
    writes.add_hand(sheet.token, SAMPLE[0][0], key=Hand().key)
    phone = opened(open_page, sheet)
    page = phone.page
    phone.expect_totals(NAMES, RUNNING[0])
    page.context.set_offline(True)
    page.goto(sheet.get_absolute_url())
    expect(page.locator("#offline-banner")).to_contain_text("Offline: this copy was last updated")
    phone.expect_row(1, SAMPLE[0][1])
    phone.expect_totals(NAMES, RUNNING[0])
    # Corrections need the network: the page says so instead of failing silently.
    phone.open_row(1)
    phone.tap(phone.row(1).get_by_role("link", name="Edit"))
    expect(page.locator("#flash")).to_contain_text("needs the network")


def expect_preview_row(page, row, out=None) -> None:
    """The preview shows this row (the seat ``out`` sitting out, as the server's preview says
    it): the form is complete and done moving before Save is tapped."""
    scores = [signed(v) if seat != out else "sits out" for seat, v in enumerate(row)]
    expect(page.locator("#preview .preview-scores .score")).to_have_text(scores)


def enter(phone: SheetPage, hand: scoring.Hand, preview: bool = False) -> None:
    phone.open_new_hand()
    phone.fill_hand(hand, NAMES)
    if preview:
        phone.expect_preview(hand, NAMES)
    else:
        expect(phone.page.locator("#preview .preview-scores .score")).to_have_count(hand.seats)
    phone.save(confirmed=False)


def wait_until(page, found, what: str) -> None:
    for _ in range(400):
        if found():
            return
        page.wait_for_timeout(25)
    raise AssertionError(f"never: {what}")


def test_a_live_poll_while_the_queue_is_sent_keeps_the_waiting_rows(open_page, sheet):
    """Seen on CI under load: a live poll asked before the first queued hand was stored and
    answered after it replaced the rows while the second hand was on its way, and that hand's
    waiting row was gone until it was stored. Both requests are held to make the order sure."""
    phone = opened(open_page, sheet)
    page = phone.page
    page.context.set_offline(True)
    for number, ((hand, row), totals) in enumerate(zip(SAMPLE[:2], RUNNING, strict=False), 1):
        enter(phone, hand)
        phone.expect_row(number, row)
        phone.expect_totals(NAMES, totals)
    posts, polls = [], []
    page.context.route(
        re.compile(r"/hands/new/$"),
        lambda route: posts.append(route) if route.request.method == "POST" else route.continue_(),
    )
    page.context.route(
        re.compile(r"/live/\?"), lambda route: route.continue_() if polls else polls.append(route)
    )
    page.context.set_offline(False)
    wait_until(page, lambda: posts and polls, "the first hand sent and a poll asked")
    # The poll asked before the first hand is stored; the first hand is stored.
    with page.expect_response(re.compile(r"/hands/new/$")):
        posts[0].continue_()
    expect(phone.row(1)).not_to_have_class(re.compile("pending"))
    wait_until(page, lambda: len(posts) == 2, "the second hand sent")
    # The poll's answer now carries the first hand: the second still waits on the phone.
    with page.expect_response(re.compile(r"/live/\?")):
        polls[0].continue_()
    page.wait_for_timeout(300)
    expect(phone.row(2)).to_have_class("hand pending")
    phone.expect_row(2, SAMPLE[1][1])
    phone.expect_totals(NAMES, RUNNING[1])
    posts[1].continue_()
    expect(page.locator("#hands .hand.pending")).to_have_count(0)
    phone.expect_row(2, SAMPLE[1][1])
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 2


@pytest.mark.parametrize("reopen", [False, True], ids=["same page", "closed and reopened"])
def test_three_hands_offline_are_stored_once(open_page, sheet, reopen):
    phone = opened(open_page, sheet)
    page = phone.page
    context = page.context
    context.set_offline(True)
    for number, ((hand, row), totals) in enumerate(zip(SAMPLE, RUNNING, strict=True), start=1):
        # The preview too comes from the phone (scoring.js) with no network.
        enter(phone, hand, preview=True)
        # At once, with no network: the row, marked as waiting, and the new totals.
        phone.expect_row(number, row)
        expect(phone.row(number)).to_have_class("hand pending")
        expect(phone.row(number).locator(".queue-status")).to_have_text("Waiting to be sent")
        phone.expect_totals(NAMES, totals)
    expect(page.locator("#offline-banner")).to_contain_text("Offline")
    assert Hand.objects.filter(sheet=sheet).count() == 0
    if reopen:
        page.close()
        page = context.new_page()
        page.goto(sheet.get_absolute_url())
        phone = SheetPage(page)
        for number, (_, row) in enumerate(SAMPLE, start=1):
            phone.expect_row(number, row)
            expect(phone.row(number)).to_have_class("hand pending")
        phone.expect_totals(NAMES, RUNNING[-1])
    context.set_offline(False)
    expect(page.locator("#hands .hand.pending")).to_have_count(0, timeout=15_000)
    for number, (_, row) in enumerate(SAMPLE, start=1):
        phone.expect_row(number, row)
    phone.expect_totals(NAMES, RUNNING[-1])
    stored = Sheet.objects.get(pk=sheet.pk)
    assert stored.hand_count == 3
    assert list(stored.hands.values_list("scores", flat=True)) == [row for _, row in SAMPLE]
    # Open again, online: nothing is sent twice.
    page.goto(sheet.get_absolute_url())
    expect(page.locator("#hands .hand")).to_have_count(3)
    assert Hand.objects.filter(sheet=sheet).count() == 3


def test_another_phones_hand_stored_before_the_queue_shows_too(open_page, sheet):
    """Two hands wait on this phone while another phone stores docs/rules.md F1: back
    online, this phone's hands are stored after it (hands 2 and 3), and its page shows all
    three, the other phone's row too (the answers to the queue bring their own rows only)."""
    phone = opened(open_page, sheet)
    page = phone.page
    page.context.set_offline(True)
    for hand, _ in SAMPLE[1:]:
        enter(phone, hand)
    expect(page.locator("#hands .hand.pending")).to_have_count(2)
    writes.add_hand(sheet.token, SAMPLE[0][0], key=Hand().key)
    page.context.set_offline(False)
    expect(page.locator("#hands .hand.pending")).to_have_count(0, timeout=15_000)
    for number, (_, row) in enumerate(SAMPLE, start=1):
        phone.expect_row(number, row)
    phone.expect_totals(NAMES, RUNNING[-1])
    assert list(sheet.hands.values_list("scores", flat=True)) == [row for _, row in SAMPLE]


def test_a_refused_hand_stays_with_the_reason(open_page, sheet, make_sheet, axe_script):
    # axe is a script of its own: the app's CSP would refuse it.
    phone = opened(open_page, sheet, bypass_csp=True)
    page = phone.page
    page.context.set_offline(True)
    enter(phone, SAMPLE[0][0])
    phone.expect_row(1, SAMPLE[0][1])
    key = phone.row(1).get_attribute("data-key")
    # Meanwhile the key went to another session's hand: the server refuses this one.
    other = make_sheet(name="Samedi")
    writes.add_hand(other.token, SAMPLE[1][0], key=key)
    enter(phone, SAMPLE[1][0])
    page.context.set_offline(False)
    refused = page.locator("#hands .hand.refused")
    expect(refused).to_have_count(1, timeout=15_000)
    expect(refused.locator(".queue-status")).to_contain_text("Refused by the server")
    expect(refused.locator(".queue-status")).to_contain_text("expired")
    expect(refused.locator(".scores .score")).to_have_text([signed(v) for v in SAMPLE[0][1]])
    # The hand after it waits: the order of the sheet is kept.
    expect(page.locator("#hands .hand.pending:not(.refused) .queue-status")).to_contain_text(
        "Waits until the refused hand above"
    )
    assert Hand.objects.filter(sheet=sheet).count() == 0
    # Waiting and refused rows hold to the app's accessibility bar (axe-core, as every page).
    assert axe_violations(page, axe_script) == []
    # Corrected (here: saved again as it was, with a fresh key), both are stored, in order.
    phone.tap(refused.get_by_role("button", name="Correct it"))
    expect(phone.form).to_be_visible()
    phone.save(confirmed=False)
    expect(page.locator("#hands .hand.pending")).to_have_count(0, timeout=15_000)
    stored = list(
        Hand.objects.filter(sheet=sheet).order_by("position").values_list("scores", flat=True)
    )
    assert stored == [SAMPLE[0][1], SAMPLE[1][1]]
    phone.expect_totals(NAMES, RUNNING[1])


def test_online_the_row_shows_before_the_server_answers(open_page, sheet):
    phone = opened(open_page, sheet)
    page = phone.page
    held = []
    # The server's answer to Save is held back until the row has been checked.
    page.context.route(
        "**/hands/new/",
        lambda route: held.append(route) if route.request.method == "POST" else route.continue_(),
    )
    enter(phone, SAMPLE[0][0])
    phone.expect_row(1, SAMPLE[0][1])
    phone.expect_totals(NAMES, RUNNING[0])
    expect(phone.row(1)).to_have_class("hand pending")
    expect(phone.row(1).locator(".queue-status")).to_have_text("Sending…")
    assert Hand.objects.filter(sheet=sheet).count() == 0
    held[0].continue_()
    phone.expect_confirmed()
    expect(phone.row(1)).to_have_class("hand")
    phone.expect_row(1, SAMPLE[0][1])
    assert Hand.objects.get(sheet=sheet).scores == SAMPLE[0][1]


def test_a_row_is_shown_once_when_the_hand_is_stored_before_its_answer(open_page, sheet):
    """Save's answer is slow: the hand is stored, and the live polls meanwhile hold its row.
    They are not shown while the hand is on its way (its own answer brings the sheet, which a
    poll may or may not hold yet): the waiting row stays, then the answer's row replaces it,
    and hand 1 is on the sheet once, with the right totals at every moment."""
    phone = opened(open_page, sheet)
    page = phone.page
    held = []

    def stored_but_slow(route):
        if route.request.method != "POST":
            route.continue_()
            return
        held.append((route, route.fetch()))

    page.context.route("**/hands/new/", stored_but_slow)
    enter(phone, SAMPLE[0][0])
    wait_until(page, lambda: held, "the hand stored")
    assert Hand.objects.filter(sheet=sheet).count() == 1
    # Polls answered with the stored hand while its answer is held.
    for _ in range(2):
        with page.expect_response(re.compile(r"/live/\?")):
            pass
    expect(page.locator("#hands details.hand")).to_have_count(1)
    expect(phone.row(1)).to_have_class("hand pending")
    phone.expect_totals(NAMES, RUNNING[0])
    route, answer = held[0]
    route.fulfill(response=answer)
    phone.expect_confirmed()
    expect(page.locator("#flash")).to_contain_text("Hand 1 saved.")
    expect(page.locator("#hands details.hand")).to_have_count(1)
    phone.expect_row(1, SAMPLE[0][1])
    phone.expect_totals(NAMES, RUNNING[0])
    assert Hand.objects.filter(sheet=sheet).count() == 1


def test_a_hand_whose_answer_was_lost_and_that_was_deleted_meanwhile_is_not_stored_again(
    open_page, sheet
):
    """The server stored the hand, but its answer never reached the phone (the network went
    at that moment): the row keeps waiting. Meanwhile another phone deletes that hand. Sent
    again, its key is spent: the server answers that it was already saved, the queue takes
    that as done and empties, and nothing is stored twice."""
    # No live poll meanwhile: it would show the stored hand's row at once, in place of ours.
    phone = opened(open_page, sheet, poll=600_000)
    page = phone.page
    answers = []
    deleted = []

    def answer_lost(route):
        if route.request.method != "POST":
            route.continue_()
        elif not answers:
            # The request reaches the server; its answer does not reach the phone.
            answers.append(route.fetch().text())
            route.abort("connectionreset")
        elif not deleted:
            # A retry before the other phone deleted the hand: still no network.
            route.abort("internetdisconnected")
        else:
            response = route.fetch()
            answers.append(response.text())
            route.fulfill(response=response)

    page.context.route("**/hands/new/", answer_lost)
    enter(phone, SAMPLE[0][0])
    for _ in range(100):
        if answers:
            break
        page.wait_for_timeout(100)
    # Sent, stored, its answer lost: the row is waiting again.
    expect(phone.row(1).locator(".queue-status")).to_have_text("Waiting to be sent")
    stored = Hand.objects.get(sheet=sheet)
    # Another phone deletes it.
    writes.delete_hand(sheet.token, stored.key)
    deleted.append(True)
    assert not Hand.objects.filter(sheet=sheet).exists()
    # The network comes back: the queue sends the hand again, with its key.
    page.context.set_offline(True)
    page.context.set_offline(False)
    phone.expect_confirmed()
    assert len(answers) == 2
    assert "This hand was already saved; it is not saved again." in answers[1]
    expect(page.locator("#hands .hand")).to_have_count(0)
    phone.expect_totals(NAMES, [0, 0, 0, 0])
    assert not Hand.objects.filter(sheet=sheet).exists()
    assert Sheet.objects.get(pk=sheet.pk).hand_count == 0
    # Reopened, nothing waits and nothing is sent again.
    page.goto(sheet.get_absolute_url())
    expect(page.locator("#hands .hand")).to_have_count(0)
    assert len(answers) == 2
    assert not Hand.objects.filter(sheet=sheet).exists()


def test_the_server_row_wins_with_a_note(open_page, sheet):
    """If the server scores a hand otherwise than the phone did, its row is shown, and said."""
    phone = opened(open_page, sheet)
    page = phone.page

    def tampered(route):
        # What reaches the server is not what the phone scored: 55 points instead of 49.
        if route.request.method == "POST":
            route.continue_(post_data=route.request.post_data.replace("points=49", "points=55"))
        else:
            route.continue_()

    page.context.route("**/hands/new/", tampered)
    enter(phone, SAMPLE[0][0])
    phone.expect_confirmed()
    # garde, 2 bouts, 55: made by 14, (25 + 14) × 2 + 20 + 20 = 118 per defender.
    phone.expect_row(1, [-118, -118, 354, -118])
    expect(page.locator("#flash")).to_contain_text("The server scored hand 1 differently")


def test_a_passed_deal_offline(open_page, sheet):
    phone = opened(open_page, sheet)
    page = phone.page
    page.context.set_offline(True)
    phone.open_new_hand()
    phone.tap(phone.form.get_by_role("button", name="Everyone passed"))
    expect(phone.row(1)).to_have_class("hand pending passed")
    phone.expect_row(1, [0, 0, 0, 0])
    # The deal moves on (docs/rules.md §4): Ben deals hand 2.
    expect(page.locator("#totals .dealer-line")).to_contain_text("Hand 2: Ben deals")
    page.context.set_offline(False)
    phone.expect_confirmed()
    stored = Hand.objects.get(sheet=sheet)
    assert stored.passed
    assert stored.dealer == 0


def test_dealer_sits_out_offline(open_page, db):
    """docs/rules.md M1–M2 (§6.5): 5 seats, the dealer sitting out, misère 10: two hands offline.
    The form kept for the first hand leaves out its dealer; the second hand's form leaves out the
    next dealer and gives the first one back."""
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    rules = scoring.Rules(misere=10, dealer_sits_out=True)
    sheet = writes.create_sheet("Cinq", names, 4, rules=rules)
    phone = opened(open_page, sheet)
    page = phone.page
    page.context.set_offline(True)
    # H6: Élise deals and sits out; prise, 1 bout, 60, misère by Chloé: +92, −44, −4, −44, 0.
    phone.open_new_hand()
    phone.fill_hand(
        scoring.Hand(5, 0, "prise", 1, 60, dealer=4, miseres={2: 1}), names, rules=rules
    )
    expect_preview_row(page, [92, -44, -4, -44, 0], out=4)
    phone.save(confirmed=False)
    phone.expect_row(1, [92, -44, -4, -44, 0])
    # Hand 2: Ana deals and sits out; Élise plays and takes. Prise, 1 bout, 60 at 4 players:
    # (25 + 9) × 1 = 34 from each of the three defenders, +102 to the taker, 0 to Ana.
    phone.open_new_hand()
    takers = phone.form.get_by_role("group", name="Taker", exact=True).get_by_role("radio")
    expect(takers).to_have_count(4)
    expect(phone.form.locator('input[name="taker"][value="0"]')).to_have_count(0)
    expect(page.locator("#entry-title small")).to_have_text("Ana deals and sits out")
    phone.fill_hand(scoring.Hand(5, 4, "prise", 1, 60, dealer=0), names, rules=rules)
    expect_preview_row(page, [0, -34, -34, -34, 102], out=0)
    phone.save(confirmed=False)
    phone.expect_row(2, [0, -34, -34, -34, 102])
    phone.expect_totals(names, [92, -78, -38, -78, 102])
    # The waiting rows and the totals say who sits out, as the server's do.
    expect(phone.row(2).locator(".dealt")).to_have_text("Ana deals and sits out")
    expect(page.locator("#totals .dealer-line")).to_have_text("Hand 3: Ben deals and sits out")
    page.context.set_offline(False)
    phone.expect_confirmed()
    stored = list(sheet.hands.order_by("position").values_list("dealer", "scores"))
    assert stored == [(4, [92, -44, -4, -44, 0]), (0, [0, -34, -34, -34, 102])]


def test_the_preview_offline_is_the_servers(open_page, db):
    """docs/rules.md §6.4 at 5 seats, the dealer sitting out, misère 10: Ana takes a garde with the
    3 bouts, the defence's points typed as 0 (the attack has all 91), Chloé announces a misère.
    Online the server previews it; offline the phone does, and it is the same markup: the
    attack's 91 points, the warning that no chelem is recorded, Élise sitting out, the misère's
    term."""
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    rules = scoring.Rules(misere=10, dealer_sits_out=True)
    sheet = writes.create_sheet("Cinq", names, 4, rules=rules)
    phone = opened(open_page, sheet)
    page = phone.page
    phone.open_new_hand()
    hand = scoring.Hand(5, 0, "garde", 3, 91, dealer=4, miseres={2: 1})
    phone.fill_hand(hand, names, defence_points=True, rules=rules)
    preview = page.locator("#preview")
    expect(preview.locator(".warnings li")).to_have_text(
        ["Chelem: the attack has all 91 points but no chelem is recorded."]
    )
    expect(preview.locator(".preview-title")).to_contain_text("Attack: 91 points.")
    expect(preview.locator(".preview-scores .score").nth(4)).to_have_text("sits out")
    expect(preview.locator(".formula")).to_contain_text("10 misère × 3 (Chloé)")
    # htmx's swap is settled (it marks the new markup "htmx-added" for a moment).
    expect(preview.locator(".htmx-added")).to_have_count(0)
    online = preview.inner_html()
    page.context.set_offline(True)
    preview.evaluate("section => section.replaceChildren()")
    phone.form.dispatch_event("change")
    expect(preview.locator(".preview-scores .score")).to_have_count(5)
    assert preview.inner_html() == online


def test_a_waiting_row_is_the_servers_row_in_french(open_page, db):
    """Offline, in French, at 5 with misère 10: prise… garde, 2 bouts, 45,5 points with Ben
    called, misère by Chloé. FFT: 45,5 − 41 = 4,5, the half point to the winning camp: made by
    5, (25 + 5) × 2 = 60 per defender; Ana +120, Ben +60, the others −60; Chloé's misère takes
    10 from each of the 4 others: +110, +50, −20, −70, −70. The waiting row shows the misère
    badge and "45,5 pts", and once stored it is the server's row, word for word."""
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    sheet = writes.create_sheet("Cinq", names, 4, rules=scoring.Rules(misere=10))
    phone = opened(open_page, sheet, locale="fr-FR")
    page = phone.page
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    page.context.set_offline(True)
    phone.tap(page.locator("#actions a.primary"))
    form = phone.form
    expect(form).to_be_visible()

    def choose(name, value):
        label = form.locator(f'label:has(input[name="{name}"][value="{value}"])')
        phone.tap(label)
        expect(form.locator(f'input[name="{name}"][value="{value}"]')).to_be_checked()

    choose("taker", 0)
    choose("contract", "garde")
    choose("partner", 1)
    choose("bouts", 2)
    phone.type_into(form.locator('input[name="points"]'), "45,5")
    phone.tap(form.locator("details.announcements summary"))
    choose("misere_2", 1)
    expect_preview_row(page, [110, 50, -20, -70, -70])
    phone.tap(form.locator('button[name="save"]'))
    row = phone.row(1)
    expect(row).to_have_class("hand pending")
    phone.expect_row(1, [110, 50, -20, -70, -70])
    expect(row.locator(".what")).to_have_text("Ana → Ben · Garde · 2 bouts · 45,5 pts")
    expect(row.locator(".badges")).to_have_text("misère · Chloé")
    expect(row.locator(".formula")).to_contain_text("10 misère × 4 (Chloé)")
    waiting = row.evaluate(ROW_MARKUP)
    page.context.set_offline(False)
    phone.expect_confirmed()
    assert sheet.hands.get().scores == [110, 50, -20, -70, -70]
    expect(phone.row(1)).to_have_class("hand")
    assert phone.row(1).evaluate(ROW_MARKUP) == waiting


def test_a_taker_alone_at_5_is_queued_and_scored_at_once(open_page, db):
    """At 5, a taker who called themselves ("alone") is queued and scored offline like
    any hand (it was refused as "Partner missing"). Garde, 2 bouts, 56 points: 41 needed, made
    by 15, (25 + 15) × 2 = 80 per defender; alone, the taker takes 4 × 80 (docs/rules.md E14)."""
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    sheet = writes.create_sheet("Cinq", names, 0)
    phone = opened(open_page, sheet)
    page = phone.page
    row = [320, -80, -80, -80, -80]
    page.context.set_offline(True)
    phone.open_new_hand()
    phone.fill_hand(scoring.Hand(5, 0, "garde", 2, 56, partner=None), names)
    expect(page.locator("#preview .preview-scores .score")).to_have_text([signed(v) for v in row])
    phone.save(confirmed=False)
    phone.expect_row(1, row)
    expect(phone.row(1)).to_have_class("hand pending")
    expect(phone.row(1).locator(".badge")).to_contain_text(["alone"])
    page.context.set_offline(False)
    expect(page.locator("#hands .hand.pending")).to_have_count(0, timeout=15_000)
    phone.expect_row(1, row)
    stored = Sheet.objects.get(pk=sheet.pk)
    assert list(stored.hands.values_list("scores", flat=True)) == [row]
    assert stored.hands.get().partner is None
