"""The home page's list of sessions in a real Chromium: it survives long non-Latin names.

Chromium drops a cookie larger than 4 KB; the list once lived in the session cookie with the
players' names, and sessions 7 to 10 of long CJK names silently vanished from it.
"""

import re
import uuid

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

SESSIONS = 30


def cjk_name(session: int, seat: int) -> str:
    """A 40-character name of CJK ideographs, different for every player of every session."""
    return chr(0x4E00 + session * 40 + seat) * 40


# The new-session form sent again by the page itself, with other names and a fresh key: the same
# request a tap on "Start the session" sends, its answer's cookie kept by the browser.
SEND_AGAIN = """async ({names, title, key}) => {
  const form = document.querySelector('form.new-sheet');
  const data = new FormData(form);
  data.set('players', '4');
  names.forEach((name, seat) => data.set(`player_${seat}`, name));
  data.set('name', title);
  data.set('key', key);
  const answer = await fetch(form.action, {method: 'POST', body: data});
  return [answer.status, new URL(answer.url).pathname];
}"""


def test_thirty_sessions_of_long_cjk_names_are_all_listed(open_page):
    page = open_page("Pixel 7")
    # The first session as a person starts it.
    page.goto("/new/")
    page.get_by_role("group", name="Number of players").get_by_role(
        "radio", name="4", exact=True
    ).check()
    seats = page.get_by_role("group", name="Players, in seating order")
    for seat in range(4):
        seats.get_by_label(f"Player {seat + 1}", exact=True).fill(cjk_name(0, seat))
    page.get_by_label("Session name").fill(chr(0x7000) * 80)
    page.get_by_role("button", name="Start the session").click()
    page.wait_for_url("**/s/*/")
    # The other 29 by the same form, sent by the page (a page load each would take most of this
    # test's time, and the list grows from the answers' cookie alike).
    page.goto("/new/")
    for session in range(1, SESSIONS):
        names = [cjk_name(session, seat) for seat in range(4)]
        title = chr(0x7000 + session) * 80
        status, path = page.evaluate(
            SEND_AGAIN, {"names": names, "title": title, "key": str(uuid.uuid4())}
        )
        assert status == 200
        assert re.fullmatch(r"/s/[^/]+/", path), path
    page.goto("/")
    cards = page.locator("a.session-card")
    expect(cards).to_have_count(SESSIONS)
    # Newest first, with its players' names looked up from the database.
    expect(cards.first).to_contain_text(cjk_name(SESSIONS - 1, 0))
    expect(cards.last).to_contain_text(cjk_name(0, 0))
    (cookie,) = [c for c in page.context.cookies() if c["name"] == "sessionid"]
    assert len(cookie["value"]) < 2000
    # The new-session form suggests names of the listed sessions, the newest first.
    page.goto("/new/")
    options = page.locator("#known-names option")
    expect(options).to_have_count(40)
    assert options.first.get_attribute("value") == cjk_name(SESSIONS - 1, 0)
