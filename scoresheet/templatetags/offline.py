"""The tags that make the app installable and usable offline (see
scoresheet/sheets/offline.py)."""

import json

from django import template
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.utils.html import format_html, json_script
from django.utils.http import urlencode
from django.utils.safestring import mark_safe

from scoresheet.sheets import offline, rows

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
        '<script type="module" src="{}" data-worker="{}"></script>'
        "{}",
        manifest,
        offline.THEME,
        static("scoresheet/icons/icon-192.png"),
        static("scoresheet/offline.js"),
        reverse("service_worker"),
        json_script(offline.texts(), "offline-texts"),
    )


@register.simple_tag
def sheet_state(sheet, names, readonly=False) -> str:
    """The sheet's state for the offline code, as JSON for the totals' ``data-sheet`` attribute
    (escaped there): it comes with every answer that swaps the totals in, and htmx keeps an
    attribute where it drops a ``<script>``."""
    return json.dumps(offline.sheet_state(sheet, list(names), bool(readonly)), ensure_ascii=False)


@register.simple_tag(takes_context=True)
def row_template(context) -> str:
    """The row partial once more, with slots (scoresheet/rows.py): what the offline code fills
    to show a hand the server has not stored yet."""
    row = render_to_string(
        "scoresheet/sheet.html#row",
        {"row": rows.SLOTS, "slots": True, "names": context.get("names", ())},
    )
    return format_html('<template id="row-template">{}</template>', mark_safe(row))


@register.simple_tag
def preview_template() -> str:
    """The hand form's preview partial once more, with slots (scoresheet/rows.py): what the
    offline code fills to preview a hand with no network."""
    preview = render_to_string(
        "scoresheet/hand_form.html#preview", {"preview": rows.PREVIEW_SLOTS, "slots": True}
    )
    return format_html('<template id="preview-template">{}</template>', mark_safe(preview))


@register.simple_tag
def htmx_config() -> str:
    """htmx's settings, as scoresheet/offline.py defines them: ``<meta name="htmx-config">``."""
    return format_html(
        '<meta name="htmx-config" content="{}">',
        json.dumps(offline.htmx_config(), separators=(", ", ": ")),
    )
