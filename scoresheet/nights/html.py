"""The night's repeated markup (a line per player, a card per table), written in Python: a
night of 60 players renders its 60 lines and 15 tables within 1.5 times the cost of a night of
8 (`make bench`, benchmarks/night.py), which the template engine's loops did not. Every value
from the database goes through ``escape``."""

from html import escape

from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

from scoresheet import player_names, typography
from scoresheet.numbers import minus


def _number(value: int | None) -> str:
    return "—" if value is None else minus(value)


def ranking_rows(lines) -> SafeString:
    """The ranking's rows: place, player, one cell per round (— when not played), total."""
    rows = []
    for line in lines:
        cells = "".join(f"<td>{_number(points)}</td>" for points in line.rounds)
        absent = ' class="absent"' if line.gone else ""
        rows.append(
            f"<tr{absent}><td>{line.place}</td>"
            f'<th scope="row">{escape(line.name)}</th>{cells}'
            f'<td class="total">{minus(line.total)}</td></tr>'
        )
    return mark_safe("".join(rows))


def _screen_line(line) -> str:
    return (
        f'<li class="screen-line"><span class="place">{line.place}</span> '
        f'<span class="name">{escape(line.name)}</span> '
        f'<span class="total">{minus(line.total)}</span></li>'
    )


# A column of the screen's ranking holds at most this many lines: 16 players read in one.
SCREEN_COLUMN = 16
# A line that holds nothing: the columns' lines keep one height (the screen fills its height
# with them, night.css).
_FILLER = '<li class="screen-line filler" aria-hidden="true"></li>'


def screen_lines(lines, most: int = SCREEN_COLUMN) -> SafeString:
    """The screen's ranking: columns of at most ``most`` lines, the same count in each."""
    lines = list(lines)
    columns = max(1, -(-len(lines) // most))
    per = -(-len(lines) // columns)
    parts = []
    for start in range(0, max(len(lines), 1), per or 1):
        chunk = lines[start : start + per]
        filled = "".join(map(_screen_line, chunk)) + _FILLER * (per - len(chunk))
        parts.append(f'<ol class="screen-lines" start="{start + 1}">{filled}</ol>')
    return mark_safe("".join(parts))


def podium(lines) -> SafeString:
    """The first three of the final ranking, set apart on the screen."""
    return mark_safe(
        "".join(
            f'<li class="podium-{line.place if line.place <= 3 else 3}">'
            f'<span class="place">{line.place}</span> '
            f'<span class="name">{escape(line.name)}</span> '
            f'<span class="total">{minus(line.total)}</span></li>'
            for line in lines
        )
    )


def _title(table) -> str:
    return escape(gettext("Table %(table)s") % {"table": table.table})


def _names(table) -> str:
    return escape(", ".join(table.names))


# A token never holds what a URL escapes (new_token: URL-safe base64), so a sheet's links are
# its URL pattern with the token put in: one ``reverse`` per page, not one per table.
HOLE = "TOKEN"


def _sheet_url(table, readonly: bool) -> str:
    token = table.sheet.view_token if readonly else table.sheet.token
    return _pattern("view_sheet" if readonly else "sheet").replace(HOLE, token)


def _pattern(name: str) -> str:
    return reverse(name, args=[HOLE])


def table_cards(tables, readonly: bool) -> SafeString:
    """The round's tables: players, progress, the sheet's link and (full access) its code."""
    link_text = escape(gettext("Its sheet") if readonly else gettext("Its sheet (full link)"))
    deals = gettext("%(deals)s/%(planned)s deals")
    qr_text = gettext("QR code of table %(table)s's link")
    cards = []
    for table in tables:
        link = ""
        if table.sheet is not None:
            link = f'<a href="{escape(_sheet_url(table, readonly))}">{link_text}</a>'
            if not readonly:
                src = escape(_pattern("qr").replace(HOLE, table.sheet.token))
                alt = escape(qr_text % {"table": table.table})
                link += (
                    f'<img class="qr" src="{src}" width="160" height="160" alt="{alt}" '
                    'loading="lazy">'
                )
        progress = escape(deals % {"deals": table.deals, "planned": table.planned})
        cards.append(
            f'<li class="night-table{_state(table)}"><h3>{_title(table)}</h3>'
            f'<p class="seats">{_names(table)}</p>'
            f'<p class="progress">{progress}</p>{link}</li>'
        )
    return mark_safe("".join(cards))


def _state(table) -> str:
    return " done beyond" if table.beyond else " done" if table.done else ""


def _count(table) -> str:
    """The table's deals of those planned, "5/4" in the warning colour past the plan."""
    return f'<span class="count">{table.deals}/{table.planned}</span>'


def screen_tables(tables) -> SafeString:
    """The round's seating on the screen, beside the ranking: each table, its deals, its
    players in full."""
    return mark_safe(
        "".join(
            f'<li class="screen-table{_state(table)}"><strong>{_title(table)}</strong> '
            f'{_count(table)}<span class="seats">{_names(table)}</span></li>'
            for table in tables
        )
    )


def seating(tables) -> SafeString:
    """The round's seating taking the screen, right after a draw: each table and its players,
    one a line."""
    return mark_safe(
        "".join(
            f'<li class="seating-table"><h2>{_title(table)}</h2><ul>'
            + "".join(f"<li>{escape(name)}</li>" for name in table.names)
            + "</ul></li>"
            for table in tables
        )
    )


def earlier_rounds(tables, current: int, readonly: bool) -> SafeString:
    """The rounds before the current one: each table's players, linked to its sheet."""
    parts, shown = [], None
    for table in tables:
        if table.round == current:
            continue
        if table.round != shown:
            if shown is not None:
                parts.append("</ul>")
            title = escape(gettext("Round %(round)s") % {"round": table.round})
            parts.append(f'<h3>{title}</h3><ul class="earlier">')
            shown = table.round
        names = _names(table)
        if table.sheet is not None:
            names = f'<a href="{escape(_sheet_url(table, readonly))}">{names}</a>'
        line = f"{_title(table)}: {names} ({table.deals}/{table.planned})"
        parts.append(f"<li>{typography.spaced(line)}</li>")
    if shown is not None:
        parts.append("</ul>")
    return mark_safe("".join(parts))


def options(lines) -> SafeString:
    """A ``<select>``'s options: the players of ``lines``, in alphabetical order."""
    return mark_safe(
        "".join(
            f'<option value="{line.player}">{escape(line.name)}</option>'
            for line in player_names.alphabetical(lines, name=lambda line: line.name)
        )
    )
