"""Time to a usable page on a slow phone: Chromium with 4× CPU throttling and the "Slow 4G"
network profile (DevTools protocol), against the real server on loopback.

Measures the first visit of a 40-hand sheet (until the page is usable: its scripts have run,
DOMContentLoaded) and entering one hand (from the tap on Save to the updated totals). Prints
one JSON object. Needs Debian's chromium (/usr/bin/chromium).
"""

import json
import statistics
import sys

from harness import Phone, Server
from playwright.sync_api import sync_playwright

from scripts import chromium

# DevTools' "Slow 4G" preset (formerly "Fast 3G"): bytes per second and milliseconds.
SLOW_4G = {
    "offline": False,
    "downloadThroughput": 1.6 * 1000 * 1000 / 8 * 0.9,
    "uploadThroughput": 750 * 1000 / 8 * 0.9,
    "latency": 150 * 3.75,
}
RUNS = 5

# Installed in the page before the tap: the time of the tap on Save, and of the moment the
# totals were replaced by the server's answer.
WATCH = """() => {
  window.__tap = null; window.__done = null;
  const button = document.querySelector('#entry button[name="save"]');
  button.addEventListener('click', () => { window.__tap = performance.now(); }, {capture: true});
  new MutationObserver((changes, observer) => {
    if (window.__tap !== null && document.querySelector('#totals')) {
      window.__done = performance.now(); observer.disconnect();
    }
  }).observe(document.querySelector('main'), {childList: true});
}"""


def choose(scope, group, option):
    scope.get_by_role("group", name=group, exact=True).get_by_role(
        "radio", name=option, exact=True
    ).click()


def measure(browser, device, url, network) -> dict:
    # The harness polls with its own script; the CSP would refuse it (the app is unchanged).
    context = browser.new_context(**device, bypass_csp=True)
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": 4})
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    if network:
        cdp.send("Network.emulateNetworkConditions", SLOW_4G)
    page.goto(url, wait_until="load")
    timing = page.evaluate(
        """() => { const t = performance.getEntriesByType('navigation')[0];
                   return {usable: t.domContentLoadedEventEnd, load: t.loadEventEnd}; }"""
    )
    transferred = page.evaluate(
        """() => performance.getEntriesByType('navigation')
              .concat(performance.getEntriesByType('resource'))
              .reduce((sum, e) => sum + (e.transferSize || 0), 0)"""
    )
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
    page.wait_for_function("window.__done !== null", timeout=30_000)
    entered = page.evaluate("window.__done - window.__tap")
    context.close()
    return {
        "usable": timing["usable"],
        "load": timing["load"],
        "entered": entered,
        "bytes": transferred,
    }


def slow_phone_figures() -> dict:
    server = Server(workers=2).start()
    try:
        phone = Phone(server.base, seed=40)
        token = phone.new_sheet(5)
        for _ in range(40):
            assert phone.play(token, phone.random_hand(5))[1]
        url = f"{server.base}/s/{token}/"
        with sync_playwright() as p:
            browser = chromium.launch(p)
            device = p.devices["Pixel 7"]
            slow = [measure(browser, device, url, network=True) for _ in range(RUNS)]
            cpu_only = [measure(browser, device, url, network=False) for _ in range(RUNS)]
            browser.close()
    finally:
        server.close()

    def median(runs, name):
        return round(statistics.median(run[name] for run in runs))

    return {
        "first_visit_usable_ms": median(slow, "usable"),
        "first_visit_load_ms": median(slow, "load"),
        "first_visit_bytes": median(slow, "bytes"),
        "enter_hand_ms": median(slow, "entered"),
        "network_round_trip_ms": SLOW_4G["latency"],
        "enter_hand_cpu_throttled_only_ms": median(cpu_only, "entered"),
        "first_visit_usable_cpu_throttled_only_ms": median(cpu_only, "usable"),
    }


if __name__ == "__main__":
    json.dump(slow_phone_figures(), sys.stdout)
    print()
