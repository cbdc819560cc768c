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
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_safe

from scoresheet.models import Camp, Chelem, Contract

# The files every page needs, kept by the service worker when it installs.
SHELL = [
    "django_htmx/htmx-2.min.js",
    "scoresheet/app.js",
    "scoresheet/form.js",
    "scoresheet/share.js",
    "scoresheet/offline.js",
    "scoresheet/offline/sheet.js",
    "scoresheet/offline/rows.js",
    "scoresheet/scoring.js",
    "scoresheet/icons/icon-192.png",
    "scoresheet/icons/icon-512.png",
    "scoresheet/icons/maskable-512.png",
]
SERVICE_WORKER = "scoresheet/sw.js"
# What the server answers a hand form with, for htmx and for offline.js's queue alike (the
# queue reads the same status and event): the form again, refused by the rules or the form's
# own checks; the form again, with the hand as another phone saved it meanwhile; and, with the
# sheet's new rows, the event that says the hand is stored (now, or before: the same key).
REFUSED = 422
CONFLICT = 409
STORED = "hand-stored"


def stored(response):
    """The answer to a hand stored: it says so in ``HX-Trigger`` (offline.js reads it)."""
    if response.status_code == 200:
        response["HX-Trigger"] = STORED
    return response


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

    """The statuses and the event offline.js reads from the answer to a queued hand."""


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
    return {
        "token": None if readonly else sheet.token,
        "hand_url": None if readonly else reverse("hand_new", args=[sheet.token]),
        "names": names,
        "rules": rules.to_data(),
        "players": rules.players(seats),
        "totals": list(sheet.totals) or [0] * seats,
        "hand_count": sheet.hand_count,
        "next_dealer": sheet.next_dealer,
        "rendered": timezone.now().isoformat(),
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
        "not_ready": _("Not ready yet:"),
        "deals": _("%(name)s deals"),
        # The hand form's words, with its own placeholder.
        "deals_out": _("%(dealer)s deals and sits out").replace("%(dealer)s", "%(name)s"),
        "hand_deals": _("Hand %(number)s: <strong>%(name)s</strong> deals"),
        "and_sits_out": _("and sits out"),
        "made_by": _("made by %(diff)s"),
        "lost_by": _("lost by %(diff)s"),
        "pts": _("%(points)s pts"),
        "bouts": [
            ngettext("%(bouts)s bout", "%(bouts)s bouts", n) % {"bouts": n} for n in range(4)
        ],
        "rank": _("#%(rank)s"),
        "per_defender": _("per defender"),
        "contracts": {str(value): str(label) for value, label in Contract.choices},
        "sits_out": _("%(name)s sits out"),
        "camps": {str(value): str(label) for value, label in Camp.choices},
        "chelems": {str(value): str(label) for value, label in Chelem.choices},
    }
