"""This browser's lists of sessions and of clubs: the tokens kept in its session cookie, newest
first, and what they bring back. One implementation serves both lists."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from scoresheet import player_names
from scoresheet.models import Club, Seat, Sheet, local_time

KNOWN_NAMES = 40


@dataclass(frozen=True)
class Kind:
    """A list: its key in the session cookie, what it lists, how a read-only link's entry is
    marked beside the full-access tokens, and how many entries it keeps."""

    key: str
    model: type[Sheet] | type[Club]
    read_only: str
    most: int


SHEETS = Kind("sheets", Sheet, "v/", 30)
CLUBS = Kind("clubs", Club, "cv/", 10)
LISTS = {kind.key: kind for kind in (SHEETS, CLUBS)}


def remember(request, kind: Kind, item: Sheet | Club, readonly: bool = False) -> None:
    """Keep ``item``'s token at the top of this browser's list, tokens only: the cookie stays
    far below the 4 KB browsers keep, however long the names."""
    entry = kind.read_only + item.view_token if readonly else item.token
    entries = [e for e in request.session.get(kind.key, []) if e != entry]
    request.session[kind.key] = [entry, *entries][: kind.most]
    if kind is SHEETS:
        # Cookies written before names were looked up carried them: drop them.
        request.session.pop("names", None)


def found(kind: Kind, entries: list[str]) -> QuerySet:
    """The sessions or clubs the ``entries`` open, by either link."""
    full = [e for e in entries if not e.startswith(kind.read_only)]
    read_only = [e.removeprefix(kind.read_only) for e in entries if e.startswith(kind.read_only)]
    return kind.model.objects.filter(Q(token__in=full) | Q(view_token__in=read_only))


def listed_entries(kind: Kind, entries: list[str], item: Sheet | Club) -> list[str]:
    """The entries of this browser's list that open ``item``: its full link, its read-only
    link, or both."""
    return [e for e in (item.token, kind.read_only + item.view_token) if e in entries]


def listed(kind: Kind, entries: list[str], items: QuerySet) -> list[dict]:
    """What ``entries`` open among ``items``, newest first, each once: the item, its URL, if it
    is read-only, and its entries. One query."""
    if not entries:
        return []
    by_entry = {}
    for item in items:
        by_entry[item.token] = (item, False)
        by_entry[kind.read_only + item.view_token] = (item, True)
    shown, result = set(), []
    for entry in entries:
        if entry not in by_entry or by_entry[entry][0].pk in shown:
            continue
        item, readonly = by_entry[entry]
        # A browser given both links keeps the one that can change it.
        readonly = readonly and item.token not in entries
        shown.add(item.pk)
        result.append(
            {
                "item": item,
                "url": item.get_view_url() if readonly else item.get_absolute_url(),
                "readonly": readonly,
                "entries": listed_entries(kind, entries, item),
            }
        )
    return result


def recent_sheets(request) -> list[dict]:
    """This browser's sessions, newest first, each with its players, hand count and leaders."""
    entries = request.session.get(SHEETS.key, [])
    recent = listed(SHEETS, entries, found(SHEETS, entries).prefetch_related("seats"))
    for shown in recent:
        sheet = shown["sheet"] = shown.pop("item")
        names = [seat.name for seat in sheet.seats.all()]
        shown |= {
            # Its own local time, made naive: a template would convert it again, and fail on
            # a date at the end of the calendar (models.local_time).
            "created": local_time(sheet.created).replace(tzinfo=None),
            "names": names,
            "hands": sheet.hand_count,
            "leaders": [names[seat] for seat in sheet.summary().leaders],
        }
    return recent


def recent_clubs(request) -> list[dict]:
    """This browser's clubs, newest first."""
    entries = request.session.get(CLUBS.key, [])
    recent = listed(CLUBS, entries, found(CLUBS, entries))
    for shown in recent:
        shown["club"] = shown.pop("item")
    return recent


def known_names(request) -> list[str]:
    """The players of the listed sessions, newest session first, each name once (by its key):
    the names the new-session form suggests."""
    entries = request.session.get(SHEETS.key, [])
    if not entries:
        return []
    read_only = SHEETS.read_only
    full = [e for e in entries if not e.startswith(read_only)]
    views = [e.removeprefix(read_only) for e in entries if e.startswith(read_only)]
    seats = Seat.objects.filter(
        Q(sheet__token__in=full) | Q(sheet__view_token__in=views)
    ).values_list("sheet__token", "sheet__view_token", "name", "position")
    rank = {entry: index for index, entry in enumerate(entries)}

    def order(seat):
        token, view_token, _name, position = seat
        return (
            min(rank.get(token, len(rank)), rank.get(read_only + view_token, len(rank))),
            position,
        )

    known, seen = [], set()
    for _token, _view_token, name, _position in sorted(seats, key=order):
        key = player_names.key(name)
        if key not in seen:
            seen.add(key)
            known.append(name)
    return known[:KNOWN_NAMES]
