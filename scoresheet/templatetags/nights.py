"""The club page's list of club nights, each with its winner: a few queries at any size
(the nights, their tables' stored totals, the names), whatever the number of nights shown."""

from django import template
from django.urls import reverse

from scoresheet.models import Club, Night
from scoresheet.nights import ranking

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
