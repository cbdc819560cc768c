"""The home page's list of sessions in a real Chromium: it survives long non-Latin names.

Chromium drops a cookie larger than 4 KB; the list once lived in the session cookie with the
players' names, and sessions 7 to 10 of long CJK names silently vanished from it.
"""

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.django_db(transaction=True)

SESSIONS = 30


def cjk_name(session: int, seat: int) -> str:
    """A 40-character name of CJK ideographs, different for every player of every session."""
    return chr(0x4E00 + session * 40 + seat) * 40


def test_thirty_sessions_of_long_cjk_names_are_all_listed(open_page):
    page = open_page("Pixel 7")
    for session in range(SESSIONS):
        page.goto("/new/")
        page.get_by_role("group", name="Number of players").get_by_role(
            "radio", name="4", exact=True
        ).check()
        seats = page.get_by_role("group", name="Players, in seating order")
        for seat in range(4):
            seats.get_by_label(f"Player {seat + 1}", exact=True).fill(cjk_name(session, seat))
        page.get_by_label("Session name").fill(chr(0x7000 + session) * 80)
        page.get_by_role("button", name="Start the session").click()
        page.wait_for_url("**/s/*/")
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
