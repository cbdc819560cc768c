"""Installable and offline: the web app manifest, the service worker, and what the sheet page's
script needs to score and queue hands with no network (the sheet's state, the words it shows).

The service worker's code is static/scoresheet/sw.js; it is served here, at /sw.js, so that its
scope is the whole site, with the list of files it keeps (their hashed URLs in production).
"""

import functools
import hashlib
import json
import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe
from django_htmx.http import trigger_client_event

from scoresheet import player_names
from scoresheet.models import Camp, Chelem, Contract
from scoresheet.sheets import around

# The files every page needs, kept by the service worker when it installs: htmx, every module
# app.js and offline.js load (and what they import), the icons (tests/test_offline.py holds the
# list to the modules' imports).
SHELL = [
    "django_htmx/htmx-2.min.js",
    "scoresheet/app.js",
    "scoresheet/back.js",
    "scoresheet/chart.js",
    "scoresheet/copy.js",
    "scoresheet/dealers.js",
    "scoresheet/draft.js",
    "scoresheet/entry.js",
    "scoresheet/everyone.js",
    "scoresheet/hands.js",
    "scoresheet/live.js",
    "scoresheet/numbers.js",
    "scoresheet/running.js",
    "scoresheet/share.js",
    "scoresheet/steps.js",
    "scoresheet/theme.js",
    "scoresheet/totals.js",
    "scoresheet/upload.js",
    "scoresheet/wake.js",
    "scoresheet/offline.js",
    "scoresheet/offline/banner.js",
    "scoresheet/offline/preview.js",
    "scoresheet/offline/queue.js",
    "scoresheet/offline/renumber.js",
    "scoresheet/offline/rows.js",
    "scoresheet/offline/save.js",
    "scoresheet/offline/send.js",
    "scoresheet/offline/start.js",
    "scoresheet/offline/state.js",
    "scoresheet/offline/template.js",
    "scoresheet/offline/texts.js",
    "scoresheet/offline/waiting.js",
    "scoresheet/scoring.js",
    "scoresheet/icons/icon-192.png",
    "scoresheet/icons/icon-512.png",
    "scoresheet/icons/maskable-512.png",
]
SERVICE_WORKER = "scoresheet/sw.js"
# What the server answers a hand form with, for htmx and for the offline queue alike: the form
# again, refused by the rules or the form's own checks (422); the form again, with the hand as
# another phone saved it meanwhile (409); and, with the sheet's new rows, the event that says the
# hand is stored (now, or before: the same key). htmx gets the markup; the queue's requests (htmx
# requests that ask for JSON) get the same answer as data (docs/architecture.md, "A request's
# path"), and never read markup.
REFUSED = 422
CONFLICT = 409
# A form with a number no page of the app sends (a seat in a field's name, the dealer: "²",
# "+1"): a bad request, for a plain form too; the form comes back with why, and no queue reads it.
TAMPERED = 400
STORED = "hand-stored"
JSON = "application/json"
# The sheet's revision an answer of the live poll shows (the markup's #live carries it too).
REVISION = "X-Sheet-Revision"


def wants_data(request) -> bool:
    """Whether this is the offline queue's request: an htmx request that prefers JSON."""
    return bool(request.htmx) and request.get_preferred_type(["text/html", JSON]) == JSON


def _as_data(response, data: dict) -> JsonResponse:
    answer = JsonResponse(
        data, status=response.status_code, json_dumps_params={"ensure_ascii": False}
    )
    for name in ("HX-Trigger", "Vary"):
        if response.has_header(name):
            answer[name] = response[name]
    return answer


def stored(request, response, change):
    """The answer to a hand stored (``change``): the ``hand-stored`` event (``HX-Trigger``) with
    the changed regions for htmx; for the queue, that outcome as JSON, with the hand's number, its
    stored scores, the sheet's revision, and the regions' markup for the page to swap in."""
    if response.status_code != 200:
        return response
    trigger_client_event(response, STORED)
    patch_vary_headers(response, ["Accept"])
    if not wants_data(request):
        return response
    hand = change.hand
    return _as_data(
        response,
        {
            "outcome": "already" if change.already else "stored",
            "number": change.number,
            "scores": list(hand.scores) if hand is not None else None,
            "revision": change.sheet.revision,
            "html": response.content.decode(),
        },
    )


def refusal(request, response, form):
    """A hand form sent back (refused, 422; outrun by another phone, 409): for the queue, the
    outcome as JSON with each reason under its field's name (``__all__``: the form's own), and
    the form's markup for "Correct it"; for htmx and plain forms, the form as it is."""
    if response.status_code not in (REFUSED, CONFLICT):
        return response
    patch_vary_headers(response, ["Accept"])
    if not wants_data(request):
        return response
    errors = {
        name: [str(message) for message in messages] for name, messages in form.errors.items()
    }
    return _as_data(
        response,
        {
            "outcome": "refused" if response.status_code == REFUSED else "outrun",
            "errors": errors,
            "form": response.content.decode(),
        },
    )


def htmx_config() -> dict:
    """htmx's settings (base.html): a refused or outrun hand form is shown, like any answer."""
    return {
        "includeIndicatorStyles": False,
        "allowEval": False,
        "allowScriptTags": False,
        "responseHandling": [
            {"code": "204", "swap": False},
            {"code": "429", "swap": True},
            {"code": str(REFUSED), "swap": True},
            {"code": str(CONFLICT), "swap": True},
            {"code": "[23]..", "swap": True},
            {"code": "[45]..", "swap": False, "error": True},
        ],
    }


# Every message scoring.warnings gives (its msgids, marked there): the offline preview shows them
# in the page's language (tests/test_offline.py holds the list to the engine's).
WARNINGS = [
    "Chelem: the attack has all 91 points but no chelem is recorded.",
    "Chelem: a chelem made with only %(value)s points is unusual.",
    "Defence chelem: the attack still has %(value)s points.",
]

# A sheet's own pages: installing from one makes the home-screen icon open it (iOS).
SHEET_PATH = re.compile(r"^/[sv]/[A-Za-z0-9_-]{1,32}/$")
THEME = "#14171a"
BACKGROUND = "#fbfaf7"


def start_path(path: str | None) -> str:
    """The page an installed app opens: a sheet's path, or the home page."""
    return path if path and SHEET_PATH.match(path) else reverse("home")


@require_safe
def manifest(request):
    """The web app manifest: names, icons, colours; ``?start=/s/<token>/`` opens that sheet."""
    icons = [
        {"src": static("scoresheet/icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": static("scoresheet/icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": static("scoresheet/icons/maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
    ]
    data = {
        "id": reverse("home"),
        "name": _("Tarot score sheet"),
        "short_name": _("Tarot"),
        "description": _("The score sheet French Tarot players keep at the table."),
        "start_url": start_path(request.GET.get("start")),
        "scope": reverse("home"),
        "display": "standalone",
        "orientation": "portrait",
        "theme_color": THEME,
        "background_color": BACKGROUND,
        "icons": icons,
    }
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False})
    response["Content-Type"] = "application/manifest+json"
    return response


@functools.cache
def _worker(static_prefix: str) -> tuple[str, str]:
    """The service worker's code with its configuration, and its version (a hash of the code
    and of every file it keeps, so that a new deployment installs a new worker)."""
    code = Path(finders.find(SERVICE_WORKER)).read_text(encoding="utf-8")
    shell = [static(path) for path in SHELL]
    digest = hashlib.sha256(code.encode())
    for path in SHELL:
        digest.update(Path(finders.find(path)).read_bytes())
    digest.update(" ".join(shell).encode())
    version = digest.hexdigest()[:16]
    config = {"version": version, "shell": shell, "static": static_prefix, "home": reverse("home")}
    return f"const CONFIG = {json.dumps(config)};\n{code}", version


@require_safe
def service_worker(request):
    """The service worker, at the site's root so that it controls every page."""
    if settings.DEBUG:
        _worker.cache_clear()
    code, _version = _worker(settings.STATIC_URL)
    response = HttpResponse(code, content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker at each visit; never serve them a stale one.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = reverse("home")
    return response


def sheet_state(sheet, names: list[str], readonly: bool = False) -> dict:
    """What the sheet page's script needs to score a hand and add it to the totals itself."""
    rules = sheet.game_rules
    seats = len(names)
    # A club night's table: the deals it plays a round, which a deal more asks to pass.
    plan = around.plan_of(sheet)
    return {
        "token": None if readonly else sheet.token,
        "hand_url": None if readonly else reverse("hand_new", args=[sheet.token]),
        "names": names,
        # As the totals bar and its dealer line show them ("Cécile R."): never worked out again
        # in the browser.
        "short_names": player_names.short(names),
        "rules": rules.to_data(),
        "players": rules.players(seats),
        "totals": list(sheet.totals) or [0] * seats,
        "hand_count": sheet.hand_count,
        "next_dealer": sheet.next_dealer,
        "rendered": timezone.now().isoformat(),
        "plan": None if plan is None else plan.to_data(sheet),
    }


def texts() -> dict:
    """The words the offline script shows, in the request's language."""
    return {
        "offline_copy": _("Offline: this copy was last updated at %(time)s."),
        "offline_now": _(
            "Offline: hands you save wait on this phone and are sent when the network returns."
        ),
        "waiting": _("Waiting to be sent"),
        "sending": _("Sending…"),
        "refused": _("Refused by the server: %(reason)s"),
        "blocked": _("Waits until the refused hand above is corrected or dropped."),
        "drop": _("Drop this hand"),
        "correct": _("Correct it"),
        "needs_network": _("This needs the network, and this phone is offline."),
        "unreachable": _("The server cannot be reached; try again when the network is back."),
        "disagreed": _("The server scored hand %(number)s differently: its row is shown."),
        "pending_totals": _("These totals include hands waiting to be sent."),
        # A deal past a club night's table's plan, refused unconfirmed: sent again, confirmed.
        "save_anyway": _("Save it anyway"),
        "deals": _("%(name)s deals"),
        # The hand form's words, with its own placeholder.
        "deals_out": _("%(dealer)s deals and sits out").replace("%(dealer)s", "%(name)s"),
        "made_by": _("made by %(diff)s"),
        "lost_by": _("lost by %(diff)s"),
        "pts": _("%(points)s pts"),
        "bouts": [
            ngettext("%(bouts)s bout", "%(bouts)s bouts", n) % {"bouts": n} for n in range(4)
        ],
        "rank": _("#%(rank)s"),
        "contracts": {str(value): str(label) for value, label in Contract.choices},
        "sits_out": _("%(name)s sits out"),
        "camps": {str(value): str(label) for value, label in Camp.choices},
        "chelems": {str(value): str(label) for value, label in Chelem.choices},
        # The preview's warnings (scoring.warnings; scoring.js gives their msgids).
        "warnings": {message: _(message) for message in WARNINGS},
    }
