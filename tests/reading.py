"""How tests read and fill a sheet: the totals a page shows, the sheet its stored hands give
when scored afresh, and hands stored through the write path."""

import re
import uuid

from django.conf import settings
from django.db import connection

from scoresheet import tally
from scoresheet.models import Hand, Sheet
from scoresheet.sheets import writes


def numbered(sheet):
    """The sheet's hands as stored now, in play order, each with its ``number`` (the sheet's
    offset read again: a deletion may have moved it since ``sheet`` was read)."""
    return Sheet.objects.get(pk=sheet.pk).numbered_hands()


def hand_numbered(sheet, number: int) -> Hand:
    """Hand ``number`` of the sheet as stored now."""
    return numbered(sheet).get(number=number)


def rescored(sheet) -> tally.Tally:
    """The sheet scored afresh from its stored inputs (dealers, hands), ignoring every stored
    score: what the stored rows and totals must equal."""
    names = list(sheet.seats.values_list("name", flat=True))
    hands = list(sheet.hands.order_by("position"))
    dealt = [(hand.dealer, hand.to_scoring(len(names))) for hand in hands]
    replayed = list(tally.replay(len(names), dealt, sheet.game_rules))
    totals = replayed[-1][1] if replayed else (0,) * len(names)
    next_dealer = (hands[-1].dealer + 1) % len(names) if hands else sheet.first_dealer
    return tally.Tally(
        seats=len(names),
        rows=tuple(row for row, _totals in replayed),
        totals=totals,
        next_dealer=next_dealer,
        count=len(hands),
    )


def totals_of(sheet) -> tuple[int, ...]:
    """Each seat's total, scored afresh from the stored hands."""
    return rescored(sheet).totals


def store(sheet, *hands) -> None:
    """Store hands (scoring.Hand, or None for a passed deal) in play order, through the one
    write path as the app does."""
    for hand in hands:
        writes.add_hand(sheet.token, hand, uuid.uuid4())


def shown_totals(html: str) -> tuple[int, ...]:
    """The totals as the page (or an htmx answer) shows them, in seat order."""
    block = re.search(r'<section id="totals".*?</section>', html, re.S).group(0)
    found = re.findall(r'class="score [a-z]+">([+−]?\d+)<', block)
    return tuple(int(value.replace("−", "-").replace("+", "")) for value in found)


def table_rows() -> dict[str, int]:
    """The number of rows of every table of the database, the rate limit's counters aside
    (they count the requests, whatever they send)."""
    counters = settings.CACHES["ratelimit"]["LOCATION"]
    tables = [name for name in connection.introspection.table_names() if name != counters]
    with connection.cursor() as cursor:
        found = {}
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            found[table] = cursor.fetchone()[0]
    return found
