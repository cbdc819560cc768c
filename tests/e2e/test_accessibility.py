"""Accessibility: axe-core on every main page, and what axe does not measure (the contrast of the
focus ring and of the controls' edges, WCAG 1.4.11). The Content-Security-Policy is in force."""

import json
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from scoresheet.files import session_backup as backup
from tests.conftest import BACKUPS
from tests.e2e.conftest import DESKTOP
from tests.e2e.sheet_page import SheetPage

pytestmark = pytest.mark.django_db(transaction=True)

AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
BLOCKING = {"serious", "critical"}


@pytest.fixture
def session():
    """The 5-player backup of tests/conftest.py (every kind of hand), as a session."""
    return backup.load(json.dumps(BACKUPS[5]))


def axe_violations(page: Page, axe_script) -> list[str]:
    """The serious and critical violations axe-core finds on the page as it is now."""
    page.add_script_tag(path=axe_script)
    violations = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
        ".then(result => result.violations)",
        AXE_TAGS,
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']]}"
        for v in violations
        if v["impact"] in BLOCKING
    ]


@pytest.mark.parametrize("profile", ["Pixel 7", DESKTOP])
def test_axe_finds_nothing_serious(open_page, axe_script, session, profile):
    # axe is a script of its own: the app's CSP (script-src 'self') would refuse it.
    sheet_page = SheetPage(open_page(profile, bypass_csp=True))
    page = sheet_page.page
    found = {}

    def audit(name):
        page.wait_for_load_state()
        found[name] = axe_violations(page, axe_script)

    page.goto("/new/")
    sheet_page.choose("Number of players", "5")
    audit("new session")
    page.goto(session.get_absolute_url())
    sheet_page.tap(page.locator("details.chart > summary"))
    expect(page.locator("#chart svg")).to_be_visible()
    sheet_page.open_row(1)
    sheet_page.tap(page.locator("details.share > summary"))
    audit("sheet (hands, chart, a row and share open)")
    sheet_page.open_new_hand()
    sheet_page.tap(sheet_page.form.get_by_role("button", name="Save the hand"))
    expect(page.locator(".form-errors")).to_be_visible()
    audit("hand form, refused")
    sheet_page.choose("Taker", "Ana", sheet_page.form)
    sheet_page.choose("Contract", "Garde", sheet_page.form)
    sheet_page.choose("Partner", "Dan", sheet_page.form)
    sheet_page.choose("Bouts", "3", sheet_page.form)
    sheet_page.type_into(sheet_page.form.get_by_label("Points", exact=True), "91")
    expect(page.locator("#preview .warnings")).to_be_visible()
    audit("hand form, preview with a warning")
    page.goto(f"/s/{session.token}/hands/new/")
    sheet_page.tap(page.locator("details.announcements > summary"))
    audit("hand form page, announcements open")
    page.goto(f"/s/{session.token}/hands/2/delete/")
    audit("delete page")
    page.goto(f"/s/{session.token}/stats/")
    audit("statistics")
    page.goto(f"/s/{session.token}/share/")
    audit("share")
    page.goto(f"/v/{session.view_token}/")
    sheet_page.tap(page.locator("details.chart > summary"))
    audit("read-only sheet")
    page.goto("/")
    expect(page.locator(".session-card")).to_have_count(1)
    audit("home")

    assert len(found) == 10
    assert {page: problems for page, problems in found.items() if problems} == {}


def luminance(css_color: str) -> float:
    red, green, blue = (int(c) / 255 for c in re.findall(r"\d+", css_color)[:3])
    linear = [
        c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)
    ]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    lighter, darker = sorted((luminance(first), luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


# A color drawn by an element (its outline or border) and the background around it: the first
# ancestor with a background of its own.
DRAWN = """([element, property]) => {
  const drawn = element.matches(".segment input") ? element.nextElementSibling : element;
  let around = drawn.parentElement;
  while (around && getComputedStyle(around).backgroundColor === "rgba(0, 0, 0, 0)") {
    around = around.parentElement;
  }
  const background = getComputedStyle(around || document.body).backgroundColor;
  return [getComputedStyle(drawn)[property], background];
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focus_ring_and_control_edges_contrast(open_page, session, scheme):
    """WCAG 1.4.11: 3:1 for the focus ring, on light and dark backgrounds, and controls' edges,
    in the light theme and the dark one."""
    sheet_page = SheetPage(open_page(DESKTOP, color_scheme=scheme))
    page = sheet_page.page
    page.goto(session.get_absolute_url())
    sheet_page.open_new_hand()
    form = sheet_page.form
    focusable = {
        "header link (dark bar)": page.locator(".bar .brand"),
        "a segmented choice": form.get_by_role("radio", name="Prise", exact=True),
        "the points": form.get_by_label("Points", exact=True),
        "a button": form.get_by_role("button", name="Save the hand"),
        "a switch": form.get_by_label("These are the defence's points"),
    }
    for name, control in focusable.items():
        control.focus()
        page.keyboard.press("Shift+Tab")
        page.keyboard.press("Tab")  # a keyboard focus: :focus-visible
        expect(control).to_be_focused()
        ring, around = page.evaluate(DRAWN, [control.element_handle(), "outlineColor"])
        assert contrast(ring, around) >= 3, (name, ring, around)
    edges = {
        "the points": form.get_by_label("Points", exact=True),
        "a segmented choice": form.get_by_role("radio", name="Prise", exact=True),
        "the language": page.get_by_label("Language"),
    }
    for name, control in edges.items():
        edge, around = page.evaluate(DRAWN, [control.element_handle(), "borderTopColor"])
        assert contrast(edge, around) >= 3, (name, edge, around)


def test_the_content_security_policy_is_in_force(open_page, session):
    """Without bypass_csp, the page refuses a script of its own (which is why axe needs it)."""
    page = open_page()
    response = page.goto(session.get_absolute_url())
    policy = response.header_value("content-security-policy")
    assert "script-src 'self'" in policy
    assert "unsafe-inline" not in policy
    violations = []
    page.on("console", lambda message: violations.append(message.text))
    with pytest.raises(PlaywrightError):  # the refused tag
        page.add_script_tag(content="window.injected = true;")
    assert page.evaluate("window.injected") is None
    assert any("Content Security Policy" in text for text in violations)
    # htmx still works under the policy (no eval, no inline script).
    SheetPage(page).open_new_hand()
    expect(page.locator("#preview")).to_be_visible()
