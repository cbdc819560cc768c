"""Dark mode: the pages follow the phone's dark mode, or the theme chosen in the
footer (Auto, Light, Dark), remembered on this phone; axe finds no contrast problem in the dark
either; the chart's lines and labels follow; a QR code stays dark on light."""

import json
import re

import pytest
from playwright.sync_api import expect

from scoresheet.files import session_backup as backup
from tests.conftest import BACKUPS
from tests.e2e.sheet_page import SheetPage
from tests.e2e.test_accessibility import axe_violations, contrast, luminance
from tests.test_clubs import club as worked_club  # noqa: F401  (a fixture: the worked club)

pytestmark = pytest.mark.django_db(transaction=True)

BACKGROUND = "getComputedStyle(document.body).backgroundColor"
TEXT = "getComputedStyle(document.body).color"


@pytest.fixture
def session():
    """The 5-player backup of tests/conftest.py (every kind of hand), as a session."""
    return backup.load(json.dumps(BACKUPS[5]))


def is_dark(page) -> bool:
    return luminance(page.evaluate(BACKGROUND)) < 0.05 and luminance(page.evaluate(TEXT)) > 0.7


def is_light(page) -> bool:
    return luminance(page.evaluate(BACKGROUND)) > 0.9 and luminance(page.evaluate(TEXT)) < 0.05


@pytest.mark.parametrize("profile", ["Pixel 7", "iPhone 13"])
def test_the_dark_phone_gets_dark_pages_and_axe_finds_nothing(
    open_page,
    axe_script,
    session,
    worked_club,  # noqa: F811
    profile,
):
    sheet_page = SheetPage(open_page(profile, bypass_csp=True, color_scheme="dark"))
    page = sheet_page.page
    found = {}

    def audit(name):
        page.wait_for_load_state()
        assert is_dark(page), name
        found[name] = axe_violations(page, axe_script)

    page.goto("/")
    audit("home")
    page.goto(session.get_absolute_url())
    sheet_page.tap(page.locator("details.chart > summary"))
    expect(page.locator("#chart svg")).to_be_visible()
    sheet_page.open_row(1)
    audit("sheet, chart and a row open")
    sheet_page.open_new_hand()
    sheet_page.choose("Taker", "Ana", sheet_page.form)
    sheet_page.choose("Contract", "Garde", sheet_page.form)
    sheet_page.choose("Partner", "Dan", sheet_page.form)
    sheet_page.choose("Bouts", "3", sheet_page.form)
    sheet_page.type_into(sheet_page.form.get_by_label("Points", exact=True), "91")
    expect(page.locator("#preview .warnings")).to_be_visible()
    audit("hand form, preview with a warning")
    page.goto(f"/s/{session.token}/stats/")
    audit("statistics")
    page.goto(f"/s/{session.token}/summary/")
    audit("summary")
    page.goto(f"/s/{session.token}/share/")
    audit("share")
    # The QR code keeps its dark modules on a light square.
    assert (
        luminance(
            page.locator("img.qr").first.evaluate("e => getComputedStyle(e).backgroundColor")
        )
        > 0.9
    )
    page.goto(worked_club.get_absolute_url())
    audit("club")
    page.goto(f"/c/{worked_club.token}/players/")
    audit("club players")
    page.goto("/no-such-page/")
    audit("not found")

    assert {name: problems for name, problems in found.items() if problems} == {}


def test_the_chart_follows_the_dark_theme(open_page, session):
    page = open_page("Pixel 7", color_scheme="dark")
    page.goto(f"/s/{session.token}/stats/")
    chart = page.locator("svg.running-totals").first
    expect(chart).to_be_visible()
    card = page.evaluate(
        "getComputedStyle(document.querySelector('.stats-chart')).backgroundColor"
    )
    # The fifth player's line, black on paper, and the axes' labels are light on the dark card.
    fifth = chart.locator("polyline").nth(4).evaluate("e => getComputedStyle(e).stroke")
    label = chart.locator("text").first.evaluate("e => getComputedStyle(e).fill")
    assert contrast(fifth, card) >= 3, (fifth, card)
    assert contrast(label, card) >= 4.5, (label, card)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_theme_chosen_on_the_phone_is_kept(open_page, session, language):
    page = open_page(
        "Pixel 7", color_scheme="dark", locale="fr-FR" if language == "fr" else "en-GB"
    )
    words = {
        "en": ("Theme", "Light", "Auto", "Change"),
        "fr": ("Thème", "Clair", "Auto", "Changer"),
    }
    theme, light, auto, change = words[language]
    page.goto(session.get_absolute_url())
    assert is_dark(page)
    footer = page.locator("form.theme")
    footer.get_by_label(theme).select_option(label=light)
    footer.get_by_role("button", name=change).click()
    page.wait_for_url(f"**{session.get_absolute_url()}")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert is_light(page)
    # Kept: on a reload, on another page, painted light from the first byte (the server wrote it).
    response = page.reload()
    assert 'data-theme="light"' in response.text()
    assert is_light(page)
    page.goto("/")
    assert is_light(page)
    footer = page.locator("form.theme")
    footer.get_by_label(theme).select_option(label=auto)
    footer.get_by_role("button", name=change).click()
    page.wait_for_load_state()
    expect(page.locator("html")).not_to_have_attribute("data-theme", "light")
    assert is_dark(page)


def test_a_light_phone_may_choose_dark_without_javascript(open_page, session):
    page = open_page("Pixel 7", java_script_enabled=False)
    page.goto(session.get_absolute_url())
    assert is_light(page)
    page.locator("form.theme").get_by_label("Theme").select_option("dark")
    page.locator("form.theme").get_by_role("button", name="Change").click()
    # Back on the page, at the theme's place in the footer (the form's "next" ends in #theme).
    page.wait_for_url(f"**{session.get_absolute_url()}#theme")
    assert is_dark(page)
    expect(page.locator("form.theme")).to_be_in_viewport()


@pytest.mark.parametrize("profile", ["Pixel 7", "360"])
def test_the_theme_changes_at_once_where_the_page_is(open_page, session, profile):
    """With JavaScript the footer's theme changes the page at once: no new page, so it stays
    scrolled where it was (the footer, at the bottom of a long sheet), and the choice is kept."""
    page = open_page(profile)
    page.goto(session.get_absolute_url())
    assert is_light(page)
    footer = page.locator("form.theme")
    footer.scroll_into_view_if_needed()
    page.evaluate("window.stillHere = true")
    scrolled = page.evaluate("window.scrollY")
    assert scrolled > 0
    footer.get_by_label("Theme").select_option("dark")
    footer.get_by_role("button", name="Change").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    assert is_dark(page)
    assert page.evaluate("window.stillHere") is True  # the same page: nothing was loaded
    assert page.evaluate("window.scrollY") == scrolled
    # Kept on this phone, and written by the server from the first byte of the next page.
    response = page.reload()
    assert 'data-theme="dark"' in response.text()
    footer = page.locator("form.theme")
    footer.scroll_into_view_if_needed()
    footer.get_by_label("Theme").select_option("auto")
    footer.get_by_role("button", name="Change").click()
    expect(page.locator("html")).not_to_have_attribute("data-theme", "dark")
    assert is_light(page)
    assert re.search(r"<html [^>]*>", page.reload().text()).group() == '<html lang="en">'
