"""scoresheet/sheets/offline.py: the manifest, the service worker and the sheet's state for
offline.js."""

import html
import json
import re
import uuid
from pathlib import Path

from django.conf import settings
from django.test import Client
from django.urls import reverse

from scoresheet import scoring
from scoresheet.models import Hand, Sheet
from scoresheet.sheets import offline, writes


def sheet_state(response) -> dict:
    found = re.search(r'<section id="totals"[^>]* data-sheet="([^"]*)"', response.content.decode())
    assert found, "the totals carry the sheet's state for the offline code"
    return json.loads(html.unescape(found.group(1)))


def test_manifest_has_what_an_installable_app_needs(client):
    response = client.get(reverse("manifest"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == "Tarot score sheet"
    assert manifest["short_name"] == "Tarot"
    assert manifest["start_url"] == "/"
    assert manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#14171a"
    assert manifest["background_color"] == "#fbfaf7"
    purposes = {(icon["sizes"], icon.get("purpose", "any")) for icon in manifest["icons"]}
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}


def test_manifest_is_translated(client):
    response = client.get(reverse("manifest"), headers={"Accept-Language": "fr"})
    assert response.json()["name"] == "Feuille de marque du tarot"


def test_installed_from_a_sheet_the_app_opens_it(client, sheet4):
    start = sheet4.get_absolute_url()
    response = client.get(reverse("manifest"), {"start": start})
    assert response.json()["start_url"] == start
    page = client.get(start).content.decode()
    assert (
        f'<link rel="manifest" href="/manifest.webmanifest?start={start.replace("/", "%2F")}">'
        in page
    )


def test_manifest_start_is_only_a_sheet_of_this_site(client):
    for start in [
        "https://evil.example/",
        "//evil.example/s/x/",
        "/admin/",
        "/s/../admin/",
        "/s/a b/",
    ]:
        response = client.get(reverse("manifest"), {"start": start})
        assert response.json()["start_url"] == "/", start


def test_service_worker_is_served_at_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    assert "script-src 'self'" in response["Content-Security-Policy"]
    code = response.content.decode()
    config = json.loads(code.split("\n", 1)[0].removeprefix("const CONFIG = ").removesuffix(";"))
    assert "/static/scoresheet/scoring.js" in config["shell"]
    assert "/static/scoresheet/offline.js" in config["shell"]
    assert config["home"] == "/"
    assert re.fullmatch(r"[0-9a-f]{16}", config["version"])
    assert 'addEventListener("fetch"' in code


def test_every_page_links_the_manifest_and_the_offline_script(client):
    page = client.get(reverse("home")).content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page
    assert '<script type="module" src="/static/scoresheet/offline.js"' in page
    assert 'data-worker="/sw.js"' in page
    texts = re.search(r'<script id="offline-texts" type="application/json">(.*?)</script>', page)
    assert json.loads(texts.group(1))["waiting"] == "Waiting to be sent"


def test_sheet_state_is_what_the_sheet_stores(client, sheet4):
    hand = scoring.Hand(4, 2, "garde", 2, 49, None, "attack", {2: "simple"})
    writes.add_hand(sheet4.token, hand, key=Hand().key)
    state = sheet_state(client.get(sheet4.get_absolute_url()))
    assert state["token"] == sheet4.token
    assert state["hand_url"] == reverse("hand_new", args=[sheet4.token])
    assert state["names"] == ["Ana", "Ben", "Chloé", "Dan"]
    assert state["rules"] == scoring.FFT.to_data()
    assert state["players"] == 4
    # docs/rules.md F1: −106, −106, +318, −106; the deal moves on to seat 1.
    assert state["totals"] == [-106, -106, 318, -106]
    assert state["hand_count"] == 1
    assert state["next_dealer"] == 1


def test_the_state_comes_with_each_saved_hand(htmx, sheet4):
    response = htmx.post(
        reverse("hand_new", args=[sheet4.token]),
        {
            "key": str(Hand().key),
            "taker": "3",
            "contract": "garde_sans",
            "bouts": "1",
            "points": "55",
            "petit_au_bout": "defence",
        },
    )
    # docs/rules.md F2 alone: −76 ×3, +228.
    assert sheet_state(response)["totals"] == [-76, -76, -76, 228]


def test_read_only_state_cannot_queue(client, sheet4):
    state = sheet_state(client.get(sheet4.get_view_url()))
    assert state["token"] is None
    assert state["hand_url"] is None
    assert sheet4.token not in json.dumps(state)


def test_a_hand_form_answers_htmx_with_what_happened(client, htmx, sheet4):
    """The contract offline.js and htmx read (offline.py): 422 with the form for a refused
    hand, 409 with the hand as saved for a correction outrun by another phone, and the
    ``hand-stored`` event with a stored hand, sent again or not."""
    new = f"/s/{sheet4.token}/hands/new/"
    refused = htmx.post(new, {"key": str(uuid.uuid4()), "taker": "0"})
    assert refused.status_code == 422
    assert 'class="entry-panel' in refused.content.decode()
    assert "HX-Trigger" not in refused
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    data["points"] = "50"
    for _again in range(2):
        stored = htmx.post(new, data)
        assert stored.status_code == 200
        assert json.loads(stored["HX-Trigger"]) == {"hand-stored": {}}
    assert sheet4.hands.count() == 1
    hand = sheet4.hands.get()
    edit = f"/s/{sheet4.token}/hands/1/edit/"
    correction = {**data, "key": str(hand.key), "version": str(hand.version), "points": "60"}
    assert htmx.post(edit, correction).status_code == 200
    # The same form again: its version is the one before the correction.
    outrun = htmx.post(edit, {**correction, "points": "70"})
    assert outrun.status_code == 409
    config = json.loads(
        re.search(r'<meta name="htmx-config" content="([^"]*)"', client.get(new).content.decode())
        .group(1)
        .replace("&quot;", '"')
    )
    handling = {rule["code"]: rule for rule in config["responseHandling"]}
    assert handling["422"]["swap"]
    assert handling["409"]["swap"]


# The offline queue's contract (docs/architecture.md, "A request's path"): its requests are htmx
# requests that ask for JSON, and every answer it reads is status, headers and JSON.
QUEUE = {"HX-Request": "true", "Accept": "application/json"}
# docs/rules.md F1: garde, 2 bouts, 49 points, petit au bout and Chloé's poignée simple.
HAND_1 = {"taker": "2", "contract": "garde", "bouts": "2", "points": "49"}
HAND_1 |= {"petit_au_bout": "attack", "poignee_2": "simple"}


def test_the_queue_is_answered_a_stored_hand_as_data(client, sheet4):
    new = reverse("hand_new", args=[sheet4.token])
    response = client.post(new, {"key": str(uuid.uuid4()), **HAND_1}, headers=QUEUE)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert json.loads(response["HX-Trigger"]) == {"hand-stored": {}}
    assert "Accept" in response["Vary"]
    answer = response.json()
    assert answer["outcome"] == "stored"
    assert answer["number"] == 1
    # docs/rules.md F1: −106, −106, +318, −106.
    assert answer["scores"] == [-106, -106, 318, -106]
    assert answer["revision"] == Sheet.objects.get(pk=sheet4.pk).revision > sheet4.revision
    # The regions for the page to swap in: the row, and the totals with the sheet's new state.
    assert 'id="hand-1"' in answer["html"]
    assert 'hx-swap-oob="true" data-sheet=' in answer["html"]


def test_the_same_key_again_is_answered_already_saved(client, sheet4):
    new = reverse("hand_new", args=[sheet4.token])
    data = {"key": str(uuid.uuid4()), **HAND_1}
    first = client.post(new, data, headers=QUEUE).json()
    again = client.post(new, data, headers=QUEUE)
    assert again.status_code == 200
    assert again.json()["outcome"] == "already"
    assert again.json()["number"] == 1
    assert again.json()["scores"] == [-106, -106, 318, -106]
    assert again.json()["revision"] == first["revision"]
    assert sheet4.hands.count() == 1


def test_a_refused_hand_is_answered_422_with_its_reasons_by_field(client, sheet4):
    new = reverse("hand_new", args=[sheet4.token])
    # No contract, and 92 card points: two fields wrong.
    data = {"key": str(uuid.uuid4()), **HAND_1, "points": "92"}
    del data["contract"]
    response = client.post(new, data, headers=QUEUE)
    assert response.status_code == 422
    answer = response.json()
    assert answer["outcome"] == "refused"
    assert set(answer["errors"]) >= {"contract", "points"}
    assert all(answer["errors"][name] for name in ("contract", "points"))
    assert any("91" in reason for reason in answer["errors"]["points"])
    # The form, for "Correct it", as htmx would have had it; nothing stored.
    assert 'class="entry-panel' in answer["form"]
    assert 'hx-post="' in answer["form"]
    assert "HX-Trigger" not in response
    assert sheet4.hands.count() == 0


def test_a_refusal_is_in_the_pages_language(client, sheet4):
    new = reverse("hand_new", args=[sheet4.token])
    headers = {**QUEUE, "Accept-Language": "fr"}
    data = {"key": str(uuid.uuid4()), **HAND_1, "points": "92"}
    answer = client.post(new, data, headers=headers).json()
    assert "91" in answer["errors"]["points"][0]
    assert "Points" in answer["errors"]["points"][0]
    assert answer["errors"]["points"][0] != "Points: must be between 0 and 91, not 92."


def test_an_outrun_correction_is_answered_409(client, sheet4):
    new = reverse("hand_new", args=[sheet4.token])
    client.post(new, {"key": str(uuid.uuid4()), **HAND_1}, headers=QUEUE)
    hand = sheet4.hands.get()
    edit = reverse("hand_edit", args=[sheet4.token, 1])
    correction = {**HAND_1, "key": str(hand.key), "version": str(hand.version), "points": "60"}
    assert client.post(edit, correction, headers={"HX-Request": "true"}).status_code == 200
    # The same form again: its version is the one before the correction.
    response = client.post(edit, {**correction, "points": "70"}, headers=QUEUE)
    assert response.status_code == 409
    answer = response.json()
    assert answer["outcome"] == "outrun"
    assert 'class="entry-panel' in answer["form"]
    assert sheet4.hands.get().points == 60


def test_htmx_keeps_getting_markup(htmx, sheet4):
    new = reverse("hand_new", args=[sheet4.token])
    stored = htmx.post(new, {"key": str(uuid.uuid4()), **HAND_1})
    assert stored["Content-Type"].startswith("text/html")
    refused = htmx.post(new, {"key": str(uuid.uuid4()), "taker": "0"})
    assert refused.status_code == 422
    assert refused["Content-Type"].startswith("text/html")


def test_the_live_poll_says_its_revision_in_a_header(client, sheet4):
    live = reverse("live", args=[sheet4.token])
    writes.add_hand(sheet4.token, scoring.Hand(4, 0, "prise", 1, 60), key=uuid.uuid4())
    revision = Sheet.objects.get(pk=sheet4.pk).revision
    moved = client.get(live, {"revision": "0"}, headers={"HX-Request": "true"})
    assert moved.status_code == 200
    assert moved["X-Sheet-Revision"] == str(revision)
    unchanged = client.get(live, {"revision": str(revision)}, headers={"HX-Request": "true"})
    assert unchanged.status_code == 204
    assert unchanged["X-Sheet-Revision"] == str(revision)


def test_the_queue_sends_the_csrf_token_of_the_cookie(sheet4):
    """The queue reads Django's CSRF cookie (offline/send.js): readable by the page, its default
    name, and enough on its own in the X-CSRFToken header."""
    assert settings.CSRF_COOKIE_NAME == "csrftoken"
    assert not settings.CSRF_COOKIE_HTTPONLY
    assert not settings.CSRF_USE_SESSIONS
    browser = Client(enforce_csrf_checks=True)
    browser.get(sheet4.get_absolute_url())
    token = browser.cookies["csrftoken"].value
    new = reverse("hand_new", args=[sheet4.token])
    data = {"key": str(uuid.uuid4()), **HAND_1}
    assert browser.post(new, data, headers=QUEUE).status_code == 403
    accepted = browser.post(new, data, headers={**QUEUE, "X-CSRFToken": token})
    assert accepted.json()["outcome"] == "stored"


def test_the_offline_preview_has_every_warning_in_the_pages_language(client):
    """offline.WARNINGS lists the messages scoring.warnings gives (docs/rules.md §3.2): all 91
    points with no chelem, a chelem made with few points, a defence chelem with points left."""
    rules = scoring.FFT
    hands = [
        scoring.Hand(4, 0, "garde", 3, 91),
        scoring.Hand(4, 0, "garde", 2, 60, chelem="announced_made"),
        scoring.Hand(4, 0, "garde", 0, 10, defence_chelem=True),
    ]
    given = {w.message for hand in hands for w in scoring.warnings(hand, rules)}
    assert given == set(offline.WARNINGS)
    page = client.get(reverse("home"), headers={"Accept-Language": "fr"}).content.decode()
    texts = re.search(r'<script id="offline-texts" type="application/json">(.*?)</script>', page)
    warnings = json.loads(texts.group(1))["warnings"]
    assert set(warnings) == given
    assert all(warnings[message] != message for message in given)


def modules_loaded(path: Path, seen: set[Path]) -> set[Path]:
    """The module at ``path`` and every one it imports, statically or dynamically."""
    if path in seen:
        return seen
    seen.add(path)
    code = path.read_text(encoding="utf-8")
    for url in re.findall(r"""(?:\bfrom\s*|\bimport\s*\(\s*)["'](\.{1,2}/[^"']+)["']""", code):
        modules_loaded((path.parent / url).resolve(), seen)
    return seen


def test_the_service_worker_keeps_every_module_the_pages_load():
    static = Path(__file__).resolve().parent.parent / "static"
    loaded: set[Path] = set()
    for entry in ("scoresheet/app.js", "scoresheet/offline.js"):
        modules_loaded((static / entry).resolve(), loaded)
    kept = {(static / path).resolve() for path in offline.SHELL if path.startswith("scoresheet/")}
    # The offline code, the hand form's behaviours and the engine among them.
    assert static / "scoresheet/offline/send.js" in loaded
    assert static / "scoresheet/back.js" in loaded
    assert static / "scoresheet/scoring.js" in loaded
    assert loaded <= kept, sorted(str(p) for p in loaded - kept)
    assert all(path.exists() for path in kept)


def test_the_hand_form_under_the_sheet_brings_the_preview_template(htmx, client, sheet4):
    new = reverse("hand_new", args=[sheet4.token])
    fragment = htmx.get(new).content.decode()
    template = re.search(r'<template id="preview-template">(.*?)</template>', fragment, re.S)
    assert template, "the offline preview fills the server's preview partial"
    # Both outcomes, every piece: slots for the words, parts for what a hand may or may not have.
    for part in ["problems", "ready", "converted", "made", "lost", "warnings", "out", "plays"]:
        assert f'<span data-part="{part}">' in template.group(1)
    for name in ["attack", "diff", "warning", "signed", "expression", "per_defender"]:
        assert f'<span data-slot="{name}"></span>' in template.group(1)
    # The form on a page of its own posts to the server to preview: no template there.
    assert "preview-template" not in client.get(new).content.decode()
