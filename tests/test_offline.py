"""scoresheet/sheets/offline.py: the manifest, the service worker and the sheet's state for
offline.js."""

import json
import re
import uuid

from django.urls import reverse

from scoresheet import scoring
from scoresheet.models import Hand
from scoresheet.sheets import writes


def sheet_state(response) -> dict:
    found = re.search(
        r'<script id="sheet-state" type="application/json">(.*?)</script>',
        response.content.decode(),
        re.DOTALL,
    )
    assert found, "the sheet page carries its state for offline.js"
    return json.loads(found.group(1))


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
    # RULES.md §5, hand 1: −106, −106, +318, −106; the deal moves on to seat 1.
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
    # RULES.md §5, hand 2 alone: −76 ×3, +228.
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
        assert stored["HX-Trigger"] == "hand-stored"
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
