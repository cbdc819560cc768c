"""The app's links, each declared once: a page under both links of what it shows (the full one
runs a session, a club or a night; the read-only one only looks, passes ``readonly=True`` to
the same view and is named ``view_<name>``), and the numbers a link holds."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import URLPattern, path, register_converter

from scoresheet import numbers

READ_ONLY = {"readonly": True}


class HandNumber:
    """A hand's number, from 1: at most nine digits, so an absurd number is a 404 before any
    query (a database cannot skip 10**20 rows)."""

    regex = "[0-9]{1,9}"
    digits = numbers.DIGITS

    def to_python(self, value: str) -> int:
        number = numbers.read(value, self.digits)
        if number is None:
            raise ValueError(value)  # no match: a 404
        return number

    def to_url(self, value: int) -> str:
        return str(value)


class NightNumber(HandNumber):
    """A night's number in its club: at most six digits."""

    regex = "[0-9]{1,6}"


class RowId(HandNumber):
    """A row's id in a link (a roster player, a club's session): at most 18 digits, as
    ``numbers.ID_DIGITS`` reads one, where Django's ``int`` takes any number of them."""

    regex = "[0-9]{1,18}"
    digits = numbers.ID_DIGITS


class ScreenCode:
    """A night screen's short code (``models.new_screen_code``), as a remote types it: letters
    and digits, either case."""

    regex = "[A-Za-z0-9]{8}"

    def to_python(self, value: str) -> str:
        return value.lower()

    def to_url(self, value: str) -> str:
        return value


register_converter(HandNumber, "hand")
register_converter(NightNumber, "night")
register_converter(RowId, "id")
register_converter(ScreenCode, "screen")


@dataclass(frozen=True)
class Links:
    """The two links of a session, a club or a night: ``full`` runs it, ``read_only`` shows it
    and changes nothing (its own secret token)."""

    full: str
    read_only: str

    def page(self, route: str, view, name: str) -> URLPattern:
        """A page under the full link alone: it changes something."""
        return path(self.full + route, view, name=name)

    def both(self, route: str, view, name: str) -> list[URLPattern]:
        """A page under both links: ``name`` under the full one, ``view_<name>`` read-only."""
        return [
            path(self.full + route, view, name=name),
            path(self.read_only + route, view, READ_ONLY, name="view_" + name),
        ]


SHEET = Links("s/<str:token>/", "v/<str:token>/")
CLUB = Links("c/<str:token>/", "cv/<str:token>/")
NIGHT = Links("c/<str:token>/nights/<night:number>/", "cv/<str:token>/nights/<night:number>/")
