"""One preview: the hand form's preview scored on the phone with no network (offline/preview.js
filling the server's <template id="preview-template">) is the server's preview markup, for every
hand of the JavaScript engine's corpus that has one (tests/test_scoring_js.py: every contract,
3 to 6 seats, every house rule, announcements, misères, the sitting-out dealer), warnings, "sits
out", misère terms and the attack's points included, in English and in French.

Both sides are the app's own: the server's preview of each hand (scoresheet/sheets/rows.py's
``preview`` rendered by the preview partial of hand_form.html) and the browser's (scoring.js's
breakdown and warnings, filled into the template by ``previewData``). Each markup is compared as
the browser serializes it, so that only the markup counts, not how each side escapes a quote.
"""

import json
from pathlib import Path

import pytest
from django.template.loader import get_template
from django.utils import translation

from scoresheet import scoring
from scoresheet.sheets import offline, rows
from scoresheet.templatetags.offline import preview_template
from tests.test_scoring_js import as_json, cases

ROOT = Path(__file__).resolve().parents[2]
ORIGIN = "http://preview.test"
# Names that the markup must escape, at every table size.
NAMES = ["Ana", "<b>Ben</b>", "Chloé & Co", 'Dan "D"', "Élise", "O'Neil"]
# The corpus in parts, each a test of its own (a few seconds each).
PARTS = 4

# For each case: scoring.js's breakdown and warnings, filled into the page's template as the
# offline preview does it; returns the cases whose markup differs from the server's.
COMPARE = """async ({cases, markups, names}) => {
  const engine = await import('/static/scoresheet/scoring.js');
  const { previewData } = await import('/static/scoresheet/offline/preview.js');
  const { filled } = await import('/static/scoresheet/offline/template.js');
  const template = document.getElementById('preview-template');
  const words = JSON.parse(document.getElementById('offline-texts').textContent).warnings;
  const differ = [];
  JSON.parse(cases).forEach(({hand, rules, converted}, index) => {
    const read = engine.rulesFrom(rules).rules;
    const detail = engine.breakdown(hand, read);
    const ours = document.createElement('template');
    if (!detail.problems) {
      const warnings = engine.warnings(hand, read);
      const seats = names.slice(0, hand.seats);
      const data = previewData({hand, detail, warnings, converted}, {names: seats, words});
      ours.content.append(filled(template, data));
    }
    const theirs = document.createElement('template');
    theirs.innerHTML = markups[index];
    if (ours.innerHTML !== theirs.innerHTML) {
      differ.push([index, ours.innerHTML, theirs.innerHTML]);
    }
  });
  return differ;
}"""


def valid(case: dict) -> bool:
    """A hand the server scores (its form would be valid): it has a preview."""
    try:
        hand = scoring.Hand(**case["hand"])
    except TypeError:
        return False
    return not scoring.validate(hand, case["rules"])


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    drawn = [case for case in cases(30_000) if valid(case)]
    # The attack's points said first, as when they were typed as the defence's, once in three.
    return [{**case, "converted": index % 3 == 0} for index, case in enumerate(drawn)]


def page_html(language: str) -> str:
    with translation.override(language):
        texts = json.dumps(offline.texts(), ensure_ascii=False).replace("<", "\\u003c")
        return (
            f'<!doctype html><html lang="{language}"><head><meta charset="utf-8"></head><body>'
            f'<script id="offline-texts" type="application/json">{texts}</script>'
            f"{preview_template()}</body></html>"
        )


def server(html: str):
    """Answers the page with ``html``, and /static/… with the app's files."""

    def serve(route):
        path = route.request.url.removeprefix(ORIGIN)
        if path.startswith("/static/"):
            body = (ROOT / path.lstrip("/")).read_text(encoding="utf-8")
            route.fulfill(body=body, content_type="text/javascript")
        else:
            route.fulfill(body=html, content_type="text/html; charset=utf-8")

    return serve


@pytest.fixture(scope="module")
def pages(browser):
    """A page per language with the server's preview template and words, the app's modules
    served from static/ (routed: no server)."""
    context = browser.new_context()
    opened = {}
    for language in ("en", "fr"):
        page = context.new_page()
        page.route(f"{ORIGIN}/**", server(page_html(language)))
        page.goto(f"{ORIGIN}/")
        opened[language] = page
    yield opened
    context.close()


def server_preview(case: dict) -> str:
    hand = scoring.Hand(**case["hand"])
    names = NAMES[: hand.seats]
    preview = rows.preview(hand, case["rules"], names, converted=case["converted"])
    return get_template("scoresheet/hand_form.html#preview").render({"preview": preview})


@pytest.mark.parametrize("part", range(PARTS))
def test_the_offline_preview_is_the_servers(pages, corpus, part):
    share = corpus[part::PARTS]
    # Every other hand in French: the words, the decimal comma and the warnings translated.
    for language, chosen in (("en", share[0::2]), ("fr", share[1::2])):
        with translation.override(language):
            markups = [server_preview(case) for case in chosen]
        sent = [
            {
                "hand": as_json(c["hand"]),
                "rules": c["rules"].to_data(),
                "converted": c["converted"],
            }
            for c in chosen
        ]
        arguments = {"cases": json.dumps(sent), "markups": markups, "names": NAMES}
        differ = pages[language].evaluate(COMPARE, arguments)
        assert not differ, (language, chosen[differ[0][0]], differ[0][1:])


def test_the_corpus_shows_every_piece_of_the_preview(corpus):
    """The comparison above covers warnings, a seat sitting out, misère terms, the attack's
    points and both outcomes."""
    previews = [
        rows.preview(
            scoring.Hand(**c["hand"]), c["rules"], NAMES[: c["hand"]["seats"]], c["converted"]
        )
        for c in corpus[::7]
    ]
    assert len(corpus) > 20_000
    assert any(p.warnings for p in previews)
    assert any(cell.out for p in previews for cell in p.cells)
    assert any(p.misere_terms for p in previews)
    assert any(p.converted for p in previews)
    assert any(p.made for p in previews)
    assert any(p.lost for p in previews)
    assert {len(p.cells) for p in previews} == set(scoring.SEATS)
