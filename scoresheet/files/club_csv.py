"""A club's standings as CSV: a row per player, the figures of the standings page."""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext

from scoresheet.clubs.standings import Standings
from scoresheet.files import csv_text


def csv_header() -> list[str]:
    return [
        gettext("Player"),
        gettext("Sessions"),
        gettext("Hands"),
        gettext("Points"),
        gettext("Points per hand"),
        gettext("Sessions won"),
        gettext("Hands taken"),
        gettext("Made (%)"),
        gettext("Average contract"),
        gettext("Rating"),
    ]


def csv_rows(result: Standings) -> Iterator[list]:
    yield csv_header()
    for row in result.rows:
        yield [
            row.player.name,
            row.sessions,
            row.hands,
            row.points,
            "" if row.per_hand is None else row.per_hand,
            row.wins,
            row.taken,
            "" if row.share_made is None else row.share_made,
            "" if row.average_contract is None else row.average_contract,
            row.rating if row.sessions else "",
        ]


def csv_lines(result: Standings) -> Iterator[str]:
    """The standings as the session CSV is written (``csv_text.lines``)."""
    return csv_text.lines(csv_rows(result))
