"""Keep the screen on: the Screen Wake Lock API where the browser has it, a stub
standing in for it here to record what the page asks."""

import pytest
from playwright.sync_api import expect

from scoresheet.sheets import writes
from tests.e2e.test_stale_form import PROFILES, phone

pytestmark = pytest.mark.django_db(transaction=True)

# A wake lock that records each request and release; the page cannot tell it from the real one.
STUB = """
(() => {
  window.wakeCalls = [];
  const lock = {
    request(type) {
      window.wakeCalls.push("request " + type);
      const sentinel = new EventTarget();
      sentinel.released = false;
      sentinel.type = type;
      sentinel.release = () => {
        window.wakeCalls.push("release");
        sentinel.released = true;
        sentinel.dispatchEvent(new Event("release"));
        return Promise.resolve();
      };
      window.lastSentinel = sentinel;
      return Promise.resolve(sentinel);
    },
  };
  Object.defineProperty(Navigator.prototype, "wakeLock", {get: () => lock, configurable: true});
})();
"""
HIDE = """state => {
  Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});
  document.dispatchEvent(new Event('visibilitychange'));
}"""


@pytest.mark.parametrize("profile", list(PROFILES))
def test_keep_the_screen_on_is_asked_remembered_taken_again_and_let_go(open_page, profile):
    sheet = writes.create_sheet("Vendredi", ["Ana", "Ben", "Chloé", "Dan"], 0)
    sheet_page = phone(open_page, profile)
    page = sheet_page.page
    page.add_init_script(STUB)
    page.goto(sheet.get_absolute_url())
    toggle = page.get_by_role("button", name="Keep the screen on")
    expect(toggle).to_be_visible()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("wakeCalls") == []

    sheet_page.tap(toggle)
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("wakeCalls") == ["request screen"]

    # The phone locked, then woke: the browser let the lock go; the page takes it again.
    page.evaluate("lastSentinel.released = true")
    page.evaluate(HIDE, "hidden")
    page.evaluate(HIDE, "visible")
    page.wait_for_function("wakeCalls.length === 2")
    assert page.evaluate("wakeCalls") == ["request screen", "request screen"]

    # Remembered on this phone: the read-only page (or the next visit) keeps the screen on too.
    page.goto(sheet.get_view_url())
    expect(toggle).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("wakeCalls.length === 1")
    assert page.evaluate("wakeCalls") == ["request screen"]

    sheet_page.tap(toggle)
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("wakeCalls") == ["request screen", "release"]
    page.reload()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    page.evaluate(HIDE, "visible")
    assert page.evaluate("wakeCalls") == []


@pytest.mark.parametrize("profile", list(PROFILES))
def test_no_toggle_where_the_browser_cannot_keep_the_screen_on(open_page, profile):
    sheet = writes.create_sheet("Vendredi", ["Ana", "Ben", "Chloé", "Dan"], 0)
    page = phone(open_page, profile).page
    page.add_init_script("delete Navigator.prototype.wakeLock")
    page.goto(sheet.get_absolute_url())
    expect(page.locator("#totals")).to_be_visible()
    page.wait_for_load_state("load")
    assert page.evaluate("'wakeLock' in navigator") is False
    expect(page.locator("[data-wake]")).to_be_hidden()

    without_js = phone(open_page, profile, java_script_enabled=False).page
    without_js.goto(sheet.get_absolute_url())
    expect(without_js.locator("#totals")).to_be_visible()
    expect(without_js.locator("[data-wake]")).to_be_hidden()


def test_keep_the_screen_on_in_french(open_page):
    sheet = writes.create_sheet("Vendredi", ["Ana", "Ben", "Chloé", "Dan"], 0)
    page = phone(open_page, "360", locale="fr-FR").page
    page.add_init_script(STUB)
    page.goto(sheet.get_absolute_url())
    expect(page.get_by_role("button", name="Garder l’écran allumé")).to_be_visible()
