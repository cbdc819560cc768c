"""Small filters for showing scores: signs that read without colour, seat names, labels."""

import functools
from decimal import Decimal
from pathlib import Path

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.utils import formats
from django.utils.safestring import mark_safe
from django.utils.translation import gettext

from scoresheet import numbers, player_names, scoring, typography
from scoresheet.models import Chelem

register = template.Library()


# The numbers as numbers.py writes them: +318, −106, 0; −42; the sign's class; the width class.
register.filter("signed", numbers.signed)
register.filter("minus", numbers.minus)
register.filter("sign_class", numbers.sign_class)
register.filter("width_class", numbers.width_class)
# The names of a table as its narrow places show them: "Cécile R.", "Jean-Baptiste".
register.filter("short_names", player_names.short)


@register.filter
def name_class(name: str) -> str:
    """The class that lets a name of the totals bar shrink to its column before it is cut
    (app.css): " name-8" to " name-16" by its length (after the element's first class), none
    for the shortest."""
    length = len(name)
    return f" name-{min(length, 16)}" if length > 7 else ""


# What a template writes around its words, typeset for the page's language ({% filter spaced %}:
# "13 % réussies ; Ben" in French).
register.filter("spaced", typography.spaced, is_safe=True)


@register.filter
def has_field_errors(form) -> bool:
    """Whether a visible field is wrong: only then does the page ask to check the highlighted
    fields (a hidden field's or the form's own problem highlights nothing)."""
    return any(
        form[name].errors
        for name in form.errors
        if name in form.fields and not form[name].is_hidden
    )


@register.filter
def index(sequence, position):
    """``names|index:seat``: the item at a position, or an empty string."""
    try:
        return sequence[int(position)]
    except (IndexError, TypeError, ValueError):
        return ""


@register.filter
def points(value: Decimal) -> str:
    """Card points without a useless ".0", in the language's format: 49, 40.5 (40,5 in French)."""
    return numbers.card_points_text(value, formats.get_format("DECIMAL_SEPARATOR"))


@register.filter
def chelem_label(value) -> str:
    return Chelem(value).label if value else ""


@register.filter
def rules_words(rules: scoring.Rules) -> str:
    """ "FFT", or the session's house rules in words (docs/rules.md §6.1)."""
    return rules.in_words(gettext)


@register.filter
def misere_text(detail: scoring.Breakdown, names) -> str:
    """The misères of a hand, after its formula: ``+ 10 misère × 3 (Chloé)``."""
    return detail.misere_expression(names) if detail is not None else ""


@register.filter
def duration(value) -> str:
    """A time span in hours and minutes, "2 h 05 min", or "45 min" under an hour."""
    minutes = int(value.total_seconds() // 60)
    hours, minutes = divmod(minutes, 60)
    if hours:
        return gettext("%(hours)s h %(minutes)02d min") % {"hours": hours, "minutes": minutes}
    return gettext("%(minutes)s min") % {"minutes": minutes}


@functools.cache
def _static_text(path: str) -> str:
    return Path(finders.find(path)).read_text(encoding="utf-8")


@register.simple_tag
def inline_static(path: str) -> str:
    """One of the app's own static files, inlined (read once; at every request in DEBUG)."""
    text = _static_text.__wrapped__(path) if settings.DEBUG else _static_text(path)
    return mark_safe(text)


class PartNode(template.Node):
    def __init__(self, name, nodelist):
        self.name = name
        self.nodelist = nodelist

    def render(self, context):
        content = self.nodelist.render(context)
        if not context.get("slots"):
            return content
        return f'<span data-part="{self.name}">{content}</span>'


@register.tag
def part(parser, token):
    """``{% part "name" %}…{% endpart %}``: the content as it is, or, in the row's <template>
    (``slots`` in the context, see scoresheet/rows.py), a piece the offline script keeps,
    repeats or drops (rows.js)."""
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError('{% part "name" %} takes one quoted name')
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    return PartNode(bits[1][1:-1], nodelist)
