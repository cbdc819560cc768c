"""The club page's list of club nights, each with its winner: a few queries at any size
(the nights, their tables' stored totals, the names), whatever the number of nights shown; and
on every page of a night table's session, what its phone shows of the night
(``night_table``)."""

from django import template
from django.urls import reverse

from scoresheet.models import Club, Night, Sheet
from scoresheet.nights import ranking, tables

register = template.Library()

# The club page lists the latest nights: no page grows with the club.
LATEST_NIGHTS = 5


@register.inclusion_tag("scoresheet/nights/_club_nights.html")
def club_nights(club: Club, readonly: bool = False) -> dict:
    nights = list(Night.objects.filter(club=club).order_by("-date", "-number")[:LATEST_NIGHTS])
    winners = ranking.winners(nights)
    token = club.view_token if readonly else club.token
    prefix = "view_" if readonly else ""
    return {
        "readonly": readonly,
        "new_url": None if readonly else reverse("night_new", args=[club.token]),
        "nights": [
            {
                "night": night,
                "url": reverse(prefix + "night", args=[token, night.number]),
                "winners": winners.get(night.pk, []),
            }
            for night in nights
        ],
    }


# Where a page's render keeps the table it read: the page shows it in two places.
READ = "night_table"


@register.inclusion_tag("scoresheet/nights/_table.html", takes_context=True)
def night_table(context, sheet: Sheet, names: list[str], part: str = "line") -> dict:
    """A night table's session, on each of its pages: ``part`` "line" (its night, round,
    table and deal: at the top, one line) or "status" (the round over for it, where its
    players go next, the night over: under what the players tap, so that nothing they are
    about to tap moves when it grows). Nothing for a session of its own."""
    read = context.render_context.get(READ)
    if read is None or read[0] != sheet.pk:
        read = (sheet.pk, tables.read(sheet, names))
        context.render_context[READ] = read
    return {"table": read[1], "part": part, "oob": context.get("oob", False)}
