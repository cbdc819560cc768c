"""Tap on Save → new totals on screen, on a slow phone (issue 15): the row and the totals come from
scoring.js on the phone before the server answers, then the server's answer replaces them.

The phone profile of slow_phone.py: Chromium as a Pixel 7, 4× CPU throttling, DevTools' "Slow 4G"
(562.5 ms round trips), against the real server on loopback, a 40-hand sheet at 5 players.
Prints one JSON object: medians of RUNS runs, in milliseconds, for the totals shown and for the
server's answer in place (no row waiting any more). Needs Debian's chromium.

    .venv/bin/python benchmarks/instant_save.py
"""

import json
import statistics
import sys

from harness import Phone, Server
from playwright.sync_api import sync_playwright
from slow_phone import SLOW_4G, choose

from scripts import chromium

RUNS = 5

# Installed before the tap: when the totals on screen first change, and when no row waits for
# the server any more (its answer is in place).
WATCH = """() => {
  window.__tap = null; window.__shown = null; window.__confirmed = null;
  const totals = () => [...document.querySelectorAll('#totals .total .score')]
    .map(cell => cell.textContent).join(' ');
  const before = totals();
  const button = document.querySelector('#entry button[name="save"]');
  button.addEventListener('click', () => { window.__tap = performance.now(); }, {capture: true});
  new MutationObserver((changes, observer) => {
    if (window.__tap === null) return;
    const now = performance.now();
    if (window.__shown === null && totals() !== before) window.__shown = now;
    if (window.__shown !== null && !document.querySelector('#hands .hand.pending')) {
      window.__confirmed = now; observer.disconnect();
    }
  }).observe(document.querySelector('main'),
             {childList: true, subtree: true, characterData: true});
}"""


def measure(browser, device, url) -> dict:
    context = browser.new_context(**device, bypass_csp=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    page.goto(url, wait_until="load")
    # The offline code (offline/start.js and scoring.js) loaded once the page was usable.
    page.wait_for_function(
        "performance.getEntriesByType('resource').some(e => e.name.includes('/scoring.'))"
    )
    page.wait_for_timeout(1500)
    page.get_by_role("link", name="New hand").click()
    form = page.locator("#entry form")
    form.wait_for()
    choose(form, "Taker", "Ben")
    choose(form, "Contract", "Garde")
    choose(form, "Partner", "Dan")
    choose(form, "Bouts", "2")
    form.get_by_label("Points", exact=True).fill("44.5")
    page.evaluate(WATCH)
    form.get_by_role("button", name="Save the hand").click()
    page.wait_for_function("window.__confirmed !== null", timeout=30_000)
    shown, confirmed = page.evaluate(
        "[window.__shown - window.__tap, window.__confirmed - window.__tap]"
    )
    context.close()
    return {"shown": shown, "confirmed": confirmed}


def figures() -> dict:
    server = Server(workers=2).start()
    try:
        phone = Phone(server.base, seed=40)
        token = phone.new_sheet(5)
        for _ in range(40):
            assert phone.play(token, phone.random_hand(5))[1]
        url = f"{server.base}/s/{token}/"
        with sync_playwright() as p:
            browser = chromium.launch(p)
            runs = [measure(browser, p.devices["Pixel 7"], url) for _ in range(RUNS)]
            browser.close()
    finally:
        server.close()
    return {
        "save_to_totals_shown_ms": round(statistics.median(r["shown"] for r in runs)),
        "save_to_server_row_ms": round(statistics.median(r["confirmed"] for r in runs)),
        "network_round_trip_ms": SLOW_4G["latency"],
        "runs": RUNS,
    }


if __name__ == "__main__":
    json.dump(figures(), sys.stdout)
    print()
