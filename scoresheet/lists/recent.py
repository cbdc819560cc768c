"""What this browser's list of sessions (tokens in its session cookie) brings back."""

from django.db.models import Q

from scoresheet import names as player_names
from scoresheet.models import Seat

KNOWN_NAMES = 40
# A read-only link in the browser's list, beside the full-access tokens (views.READ_ONLY).
READ_ONLY = "v/"


def known_names(entries: list[str]) -> list[str]:
    """The players of the listed sessions, newest session first, each name once (by its key):
    the names the new-session form suggests."""
    full = [e for e in entries if not e.startswith(READ_ONLY)]
    read_only = [e.removeprefix(READ_ONLY) for e in entries if e.startswith(READ_ONLY)]
    if not entries:
        return []
    seats = Seat.objects.filter(
        Q(sheet__token__in=full) | Q(sheet__view_token__in=read_only)
    ).values_list("sheet__token", "sheet__view_token", "name", "position")
    rank = {entry: index for index, entry in enumerate(entries)}

    def order(seat):
        token, view_token, _name, position = seat
        return (
            min(rank.get(token, len(rank)), rank.get(READ_ONLY + view_token, len(rank))),
            position,
        )

    known, seen = [], set()
    for _token, _view_token, name, _position in sorted(seats, key=order):
        key = player_names.key(name)
        if key not in seen:
            seen.add(key)
            known.append(name)
    return known[:KNOWN_NAMES]
