"""The club night's writes, in the shape of the club's (``clubs/writes.py``): each function is
one call and one short transaction that locks the club's row (the night's owner), checks the
form's key or the round it was told under that lock, writes, and returns what changed
(``NightChange``).

A draw reads what it needs alone (the night's players and the rounds it has drawn, never a
player's past results) and is computed before the lock; under it, the night's revision says
whether it still holds, and the round's tables are written at once: sessions of the club
through the club's ``start_sheets``, a few statements whatever their number, so that a table of
the night saving meanwhile waits only that long. Their hands then go through
``sheets/writes.py`` as any session's.
"""

from __future__ import annotations

import dataclasses
import secrets
import uuid
from dataclasses import dataclass
from datetime import date as Date

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_noop as _

from scoresheet import keys, limits, scoring
from scoresheet.clubs import ClubError
from scoresheet.clubs.writes import (
    clean_player_name,
    locked,
    roster_entries,
    roster_names,
    start_sheets,
)
from scoresheet.models import Club, Night, NightTable, SpentKey
from scoresheet.nights import draw


@dataclass(frozen=True)
class NightChange:
    """What a night's write did. ``done`` is False when nothing was written: the same form sent
    again (``already``), a round drawn already (by a double tap, or another organiser)."""

    night: Night
    done: bool = True
    already: bool = False


def _night(club: Club, night: Night) -> Night:
    """The night as it is now, read under the club's lock."""
    return Night.objects.get(pk=night.pk, club=club)


def table_name(night: str, round_number: int, table: int) -> str:
    """A table's session name, in the organiser's language: "<night> · Round r · Table t",
    the night's name shortened with "…" when the whole would not fit a session's name."""
    words = gettext("%(night)s · Round %(round)s · Table %(table)s")
    where = {"round": round_number, "table": table}
    whole = words % {"night": night, **where}
    if len(whole) <= limits.TITLE_LENGTH:
        return whole
    room = max(limits.TITLE_LENGTH - (len(whole) - len(night)) - 1, 1)
    return (words % {"night": night[:room].rstrip() + "…", **where})[: limits.TITLE_LENGTH]


def new_seed() -> str:
    return str(secrets.randbelow(900_000) + 100_000)


def create_night(
    club: Club,
    name: str,
    date: Date,
    names,
    rounds: int,
    deals: int,
    minutes: int | None = None,
    rules: scoring.Rules | None = None,
    *,
    key: uuid.UUID | None = None,
    seed: str | None = None,
    passed_counts: bool = True,
) -> NightChange:
    """A new night of the club with these players (a new name joins the roster), and its
    round 1 drawn from a new seed. ``key``, the form's: sent again, even twice at once, the
    form opens the night it made the first time (``already``). ``passed_counts``: whether a
    deal everyone passed counts as one of a round's deals."""
    names = roster_names(names)
    if len(names) < limits.NIGHT_FEWEST:
        raise ClubError(
            _("Players: a night needs at least %(count)s players."), count=limits.NIGHT_FEWEST
        )

    def make() -> Night:
        with transaction.atomic():
            owner = locked(club)
            if key is not None:
                keys.spend(key, SpentKey.Made.NIGHT, club=owner)
            entries = roster_entries(owner, names)
            last = owner.nights.order_by("-number").values_list("number", flat=True).first()
            night = Night.objects.create(
                club=owner,
                number=(last or 0) + 1,
                name=name,
                date=date,
                seed=seed or new_seed(),
                rounds=rounds,
                deals=deals,
                minutes=minutes,
                rules=(owner.game_rules if rules is None else rules).to_data(),
                players=[player.pk for player in entries],
                key=key,
                passed_counts=passed_counts,
            )
            _write_round(owner, night, 1, draw.first_round(night.present, night.seed))
        return night

    if key is None:
        return NightChange(make())
    night, made = keys.once(key, SpentKey.Made.NIGHT, make, club=club)
    return NightChange(night, done=made, already=not made)


# How many times a round is drawn before the lock, when the night changes meanwhile (a player
# leaves, another organiser draws), before it is drawn under the lock.
DRAW_TRIES = 3


def draw_round(club: Club, night: Night, number: int) -> NightChange:
    """Draw round ``number`` (the one the organiser saw next): a double tap, or two organisers
    at once, draw it once; the second is told nothing was done. The draw is computed before the
    club is locked, and written under the lock if the night has not changed meanwhile."""
    for _try in range(DRAW_TRIES):
        seen = _night(club, night)
        refused = _not_drawn(seen, number)
        if refused is not None:
            return refused
        tables = _drawn(seen, number)
        with transaction.atomic():
            owner = locked(club)
            current = _night(owner, night)
            if current.revision == seen.revision:
                _write_round(owner, current, number, tables)
                return NightChange(current)
    with transaction.atomic():
        owner = locked(club)
        current = _night(owner, night)
        refused = _not_drawn(current, number)
        if refused is not None:
            return refused
        _write_round(owner, current, number, _drawn(current, number))
    return NightChange(current)


def _not_drawn(night: Night, number: int) -> NightChange | None:
    """Why round ``number`` is not drawn now: drawn already, or beyond the rounds planned
    (nothing done); too few players present (``ClubError``). None: it can be drawn."""
    if number != night.drawn + 1 or number > night.rounds:
        return NightChange(night, done=False, already=number <= night.drawn)
    if len(night.present) < limits.NIGHT_FEWEST:
        raise ClubError(
            _("A round needs at least %(count)s players present."), count=limits.NIGHT_FEWEST
        )
    return None


def _drawn(night: Night, number: int) -> list[list[int]]:
    """Round ``number``'s tables from the night's players present and the rounds drawn: one
    query, and the draw's search."""
    history = [[] for _round in range(number - 1)]
    # Before the lock, another organiser may have drawn this round meanwhile: the rounds
    # before it alone (the night's revision then says the draw is stale).
    drawn = night.tables.filter(round__lt=number).order_by("round", "table")
    for round_number, players in drawn.values_list("round", "players"):
        history[round_number - 1].append(players)
    return draw.next_round(night.present, history, night.seed)


def _write_round(club: Club, night: Night, number: int, tables: list[list[int]]) -> None:
    """Seat round ``number``: each table a session of the club, its players in their seats
    (their names as the roster has them now). Inside a write, the club locked."""
    roster = club.players.in_bulk([player for table in tables for player in table])
    rules = night.game_rules
    club_sheets = start_sheets(
        club,
        [
            (
                table_name(night.name, number, index),
                [roster[player] for player in players],
                table_rules(rules, len(players)),
            )
            for index, players in enumerate(tables, start=1)
        ],
    )
    NightTable.objects.bulk_create(
        NightTable(night=night, round=number, table=index, players=players, club_sheet=club_sheet)
        for index, (players, club_sheet) in enumerate(zip(tables, club_sheets, strict=True), 1)
    )
    night.drawn = number
    night.round_started = timezone.now()
    _moved(night, "drawn", "round_started")


def table_rules(rules: scoring.Rules, seats: int) -> scoring.Rules:
    """The night's rules at a table of ``seats``: "the dealer sits out" is a choice at 5 seats
    only (docs/rules.md §6.4), so a table of 4 or 3 of that night plays every hand."""
    return dataclasses.replace(rules, dealer_sits_out=rules.dealer_sits_out and seats == 5)


def _moved(night: Night, *fields: str) -> None:
    night.revision += 1
    night.save(update_fields=["revision", *fields])


def leave(club: Club, night: Night, player_id: int) -> NightChange:
    """A player leaves: out of the next draws (their rounds played still count)."""
    with transaction.atomic():
        club = locked(club)
        night = _night(club, night)
        if player_id not in night.players or player_id in night.gone:
            return NightChange(night, done=False)
        night.gone = [*night.gone, player_id]
        _moved(night, "gone")
    return NightChange(night)


def come_back(club: Club, night: Night, player_id: int) -> NightChange:
    """A player who left plays the next draws again."""
    with transaction.atomic():
        club = locked(club)
        night = _night(club, night)
        if player_id not in night.gone:
            return NightChange(night, done=False)
        night.gone = [p for p in night.gone if p != player_id]
        _moved(night, "gone")
    return NightChange(night)


def join(club: Club, night: Night, name: str) -> NightChange:
    """A late arrival (a new name joins the roster): in the next draws. One who left comes
    back; a new one is refused once the night seats its most (``limits.NIGHT_MOST``), checked
    under the club's lock, so that two arriving at once cannot both take the last place."""
    name = clean_player_name(name)
    with transaction.atomic():
        club = locked(club)
        night = _night(club, night)
        (player,) = roster_entries(club, [name])
        if player.pk in night.players and player.pk not in night.gone:
            raise ClubError(
                _("A late arrival: %(name)s is already playing tonight."), name=player.name
            )
        if player.pk not in night.players and len(night.players) >= limits.NIGHT_MOST:
            # Raised inside the transaction: a name new to the roster is not added either.
            raise ClubError(
                _("A late arrival: a night seats at most %(most)s players."),
                most=limits.NIGHT_MOST,
            )
        night.players = (
            [*night.players, player.pk] if player.pk not in night.players else night.players
        )
        night.gone = [p for p in night.gone if p != player.pk]
        _moved(night, "players", "gone")
    return NightChange(night)
