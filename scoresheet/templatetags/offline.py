"""The tags that make the app installable and usable offline (see
scoresheet/sessions/offline.py)."""

from django import template
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, json_script
from django.utils.http import urlencode

from scoresheet.sessions import offline

register = template.Library()


@register.simple_tag(takes_context=True)
def offline_head(context) -> str:
    """The manifest, the icons, the theme colour, the offline script and the words it shows."""
    request = context.get("request")
    start = offline.start_path(request.path if request else None)
    manifest = reverse("manifest")
    if start != reverse("home"):
        manifest += "?" + urlencode({"start": start})
    return format_html(
        '<link rel="manifest" href="{}">'
        '<meta name="theme-color" content="{}">'
        '<link rel="apple-touch-icon" href="{}">'
        '<script type="module" src="{}" data-scoring="{}" data-worker="{}"></script>'
        "{}",
        manifest,
        offline.THEME,
        static("scoresheet/icons/icon-192.png"),
        static("scoresheet/offline.js"),
        static("scoresheet/scoring.js"),
        reverse("service_worker"),
        json_script(offline.texts(), "offline-texts"),
    )


@register.simple_tag
def sheet_state(sheet, names, readonly=False) -> str:
    """The sheet's state for the page's script: ``<script type="application/json">``."""
    return json_script(offline.sheet_state(sheet, list(names), bool(readonly)), "sheet-state")
