"""Phone-width screenshots of the main pages, into docs/ (`make screenshots`).

Starts the app on a throwaway SQLite database, fills a 5-player session through the real
forms, and photographs the pages in Debian's Chromium, as a Pixel 7 would show them.
"""

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scripts import chromium  # noqa: E402

DOCS = ROOT / "docs"
HANDS = [
    # taker, contract, partner, bouts, points, extras
    ("Ana", "Garde", "Chloé", "2", "49", {"petit": "attack"}),
    ("Ben", "Prise", "alone", "1", "48.5", {}),
    ("Dan", "Garde sans", "Élise", "3", "62", {"poignee": "Dan"}),
    ("Chloé", "Garde contre", "Ana", "2", "39", {}),
    ("Élise", "Prise", "Ben", "0", "58", {"petit": "defence"}),
]


# A club evening that went on: five players with ordinary long names, 240 hands, 5-digit totals.
LONG_NAMES = ["Anne-Sophie", "Jean-Baptiste", "Marie-Christine", "Maximilien", "Bérénice"]


def big_session() -> dict:
    """A tarot-scoresheet/1 backup of 240 hands whose totals run to five digits."""
    contracts = ["garde_contre", "garde_sans", "garde", "garde_contre", "prise"]
    hands = []
    for number in range(240):
        taker = (number * 3 + number // 7) % 5
        made = number % 4 != 3 or taker == 0
        hands.append(
            {
                "taker": taker,
                "contract": contracts[number % 5],
                "bouts": 3 if made else 1,
                "points": 81 if made else 40.5,
                "partner": None if number % 6 == 0 else (taker + 1 + number % 4) % 5,
                "petit_au_bout": "attack" if made and number % 3 == 0 else None,
                "poignees": {str(taker): "double"} if number % 5 == 0 else {},
                "chelem": None,
                "defence_chelem": False,
            }
        )
    return {
        "format": "tarot-scoresheet/1",
        "name": "Tournoi du club, table 12",
        "created": "2026-11-27T20:41:00+01:00",
        "players": LONG_NAMES,
        "first_dealer": 0,
        "rules": {},
        "hands": hands,
    }


def big_sheet(page, base: str, tmp: Path) -> None:
    """The sheet's picture: the big session, imported through the home page's form."""
    backup = tmp / "tournoi.json"
    backup.write_text(json.dumps(big_session()), encoding="utf-8")
    page.goto(base + "/")
    page.set_input_files("#id_backup", backup)
    page.locator(".import-form button[type=submit]").click()
    page.wait_for_selector("#hands")
    page.locator("#hands .hand").last.locator("summary").click()
    page.screenshot(path=DOCS / "sheet.png")
    page.locator("details.chart > summary").click()
    page.locator("details.chart svg").scroll_into_view_if_needed()
    page.screenshot(path=DOCS / "chart.png")


def dark_sheet(browser, p, url: str) -> None:
    """The same sheet on a phone in dark mode, and with its running totals shown (issue 22)."""
    context = browser.new_context(**p.devices["Pixel 7"], locale="en-GB", color_scheme="dark")
    page = context.new_page()
    page.goto(url)
    page.locator("#hands .hand").last.locator("summary").click()
    page.screenshot(path=DOCS / "sheet-dark.png")
    context.close()
    context = browser.new_context(**p.devices["Pixel 7"], locale="en-GB")
    page = context.new_page()
    page.goto(url)
    page.get_by_role("switch", name="Running totals").click()
    page.locator("#hands .hand").last.scroll_into_view_if_needed()
    page.screenshot(path=DOCS / "sheet-running.png")
    context.close()


def summary_pictures(page) -> None:
    """The big session's summary (issue 23), and the picture a shared link shows."""
    page.get_by_role("link", name="Summary", exact=True).click()
    page.wait_for_selector(".standings-table")
    page.screenshot(path=DOCS / "summary.png", full_page=True)
    image = page.locator("img.summary-image").get_attribute("src")
    origin = page.url.split("/s/")[0]
    (DOCS / "summary-card.png").write_bytes(page.request.get(origin + image).body())


# A club night of 16 (issue 30): accented names, one of them long.
NIGHT_NAMES = [
    "Anaïs",
    "Bruno",
    "Chloé",
    "Dan",
    "Élodie",
    "Farid",
    "Gaëlle",
    "Hugo",
    "Inès",
    "Jules",
    "Karim",
    "Léa",
    "Marie-Christine",
    "Noémie",
    "Océane",
    "Zoé",
]


def small(path: Path) -> None:
    """A picture of the docs in 48 colours: a screen's flat colours keep, at a third of the
    bytes."""
    Image.open(path).convert("RGB").quantize(colors=48).save(path, optimize=True)


def night_pictures(browser, p, base: str) -> None:
    """A club night of 16 (issue 30), started from the club's page: round 1's four tables
    each enter their 4 deals on a phone; the big screen at 1920 × 1080 once they have; then
    round 2 is drawn, and table 1's phone shows where its players go."""
    context = browser.new_context(**p.devices["Pixel 7"], locale="en-GB")
    page = context.new_page()
    page.goto(base + "/club/new/")
    page.fill("#id_name", "Le jeudi")
    page.get_by_role("button", name="Create the club").click()
    page.get_by_role("link", name="New club night").click()
    page.fill("#id_name", "Tournoi de décembre")
    page.fill("#id_new_players", "\n".join(NIGHT_NAMES))
    page.fill("#id_minutes", "60")
    page.get_by_role("button", name="Start the night and draw round 1").click()
    night = page.url
    tables = [
        link.get_attribute("href")
        for link in page.get_by_role("link", name="Its sheet (full link)").all()
    ]
    for number, table in enumerate(tables):
        page.goto(base + table)
        names = page.locator("#totals .name").all_inner_texts()
        for deal in range(4):
            page.get_by_role("link", name="New hand").click()
            form = page.locator("#entry form")
            form.get_by_role("radio").first.wait_for()
            choose(form, "Taker", names[(deal + number) % 4])
            choose(form, "Contract", "Garde" if deal % 2 else "Prise")
            choose(form, "Bouts", str(1 + (deal + number) % 3))
            form.get_by_label("Points", exact=True).fill(str(38 + 4 * deal + 3 * number))
            page.wait_for_timeout(300)
            form.get_by_role("button", name="Save the hand").click()
            page.wait_for_selector("#entry .entry-panel", state="detached")
    screen = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    tv = screen.new_page()
    page.goto(night)
    tv.goto(base + page.locator("#tv-link").input_value().split(base, 1)[-1])
    tv.wait_for_selector(".screen-line")
    tv.screenshot(path=DOCS / "club-night-screen.png")
    small(DOCS / "club-night-screen.png")
    screen.close()
    page.get_by_role("button", name="Draw round 2", exact=True).click()
    page.get_by_role("heading", name="Round 2 of 5").wait_for()
    page.goto(base + tables[0])
    page.wait_for_selector("#night-status .next-seats")
    page.locator("#night-status").scroll_into_view_if_needed()
    page.screenshot(path=DOCS / "club-night-table.png", scale="css")
    small(DOCS / "club-night-table.png")
    context.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve(database: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "SQLITE_PATH": str(database), "DEBUG": "1"}
    python = sys.executable
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    server = subprocess.Popen(
        [python, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return server
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise RuntimeError("the app did not start")


def choose(scope, group, option):
    """Tap an option of a segmented choice (a radio group named by its legend)."""
    scope.get_by_role("group", name=group, exact=True).get_by_role(
        "radio", name=option, exact=True
    ).click()


def enter_hand(page, taker, contract, partner, bouts, points, extras):
    page.get_by_role("link", name="New hand").click()
    form = page.locator("#entry form")
    form.get_by_role("radio").first.wait_for()
    choose(form, "Taker", taker)
    choose(form, "Contract", contract)
    choose(form, "Partner", partner)
    choose(form, "Bouts", bouts)
    form.get_by_label("Points", exact=True).fill(points)
    if extras:
        form.locator("details.announcements > summary").click()
        if "petit" in extras:
            choose(form, "Petit au bout", extras["petit"])
        if "poignee" in extras:
            choose(form, extras["poignee"], "simple (8 trumps)")
    page.wait_for_timeout(400)
    return form


def club_page(page, base: str) -> None:
    """The club (issue 16): two sessions started from it, then its page."""
    page.goto(base + "/club/new/")
    page.fill("#id_name", "Le jeudi")
    page.get_by_role("button", name="Create the club").click()
    club_url = page.url
    tables = [
        (["Ana", "Ben", "Chloé", "Dan", "Élise"], HANDS),
        (["Ana", "Ben", "Chloé", "Dan", "Fanny"], HANDS[:2]),
    ]
    for names, hands in tables:
        page.goto(club_url)
        page.get_by_role("link", name="New session in the club").click()
        choose(page, "Number of players", str(len(names)))
        for seat, name in enumerate(names):
            page.fill(f"#id_player_{seat}", name)
        page.get_by_role("button", name="Start the session").click()
        for hand in hands:
            form = enter_hand(page, *hand)
            form.get_by_role("button", name="Save the hand").click()
            page.wait_for_selector("#entry .entry-panel", state="detached")
    page.goto(club_url)
    page.screenshot(path=DOCS / "club.png", full_page=True)


def main() -> None:
    DOCS.mkdir(exist_ok=True)
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        server = serve(Path(tmp) / "db.sqlite3", port)
        try:
            with sync_playwright() as p:
                browser = chromium.launch(p, os.environ.get("CHROMIUM", chromium.CHROMIUM))
                context = browser.new_context(**p.devices["Pixel 7"], locale="en-GB")
                page = context.new_page()
                base = f"http://127.0.0.1:{port}"
                page.goto(base + "/new/")
                choose(page, "Number of players", "5")
                for seat, name in enumerate(["Ana", "Ben", "Chloé", "Dan", "Élise"]):
                    page.fill(f"#id_player_{seat}", name)
                page.fill("#id_name", "Vendredi soir")
                page.screenshot(path=DOCS / "new-session.png")
                page.get_by_role("button", name="Start the session").click()
                for hand in HANDS:
                    form = enter_hand(page, *hand)
                    form.get_by_role("button", name="Save the hand").click()
                    page.wait_for_selector("#entry .entry-panel", state="detached")
                form = enter_hand(page, "Ben", "Garde", "Dan", "2", "44.5", {"petit": "attack"})
                form.locator("#preview .preview-scores").wait_for()
                page.locator("#entry h2").evaluate("e => e.scrollIntoView()")
                page.evaluate("window.scrollBy(0, -200)")
                page.screenshot(path=DOCS / "hand-form.png")
                page.locator("#preview").evaluate("e => e.scrollIntoView({block: 'end'})")
                page.screenshot(path=DOCS / "hand-preview.png")
                page.goto(page.url)
                page.locator("details.chart > summary").click()
                page.get_by_role("link", name="Statistics").click()
                page.screenshot(path=DOCS / "statistics.png", full_page=True)
                big_sheet(page, base, Path(tmp))
                dark_sheet(browser, p, page.url)
                summary_pictures(page)
                club_page(page, base)
                night_pictures(browser, p, base)
                browser.close()
        finally:
            server.terminate()
            server.wait()
    names = [
        "new-session",
        "sheet",
        "sheet-dark",
        "sheet-running",
        "chart",
        "statistics",
        "hand-form",
        "hand-preview",
        "club",
        "summary",
        "summary-card",
        "club-night-screen",
        "club-night-table",
    ]
    for name in names:
        print(DOCS / f"{name}.png")


if __name__ == "__main__":
    main()
