"""The club's writes: the club and its settings, its roster (add, rename, merge), the sessions
it counts (start, attach, detach), in the shape of ``writes``.

Each function is one call and one short transaction: it locks the club's row (for a write
that touches a session too: the sheet first, then the club, the order ``writes`` takes them
in), checks the form's key or what it was told under that lock, writes, updates the derived
data (``club_results``), and returns what changed (``ClubChange``). A unique violation (two
phones at once) is turned here into the club's own error (``ClubError``), never reaching a
view. A session's own hands still go through ``writes``.

Views parse a request, call one of these and render what it returns.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404

# _ only marks a message for extraction; ClubError.translated translates it.
from django.utils.translation import gettext_noop as _

from scoresheet import bulk, player_names, scoring
from scoresheet.clubs import ClubError
from scoresheet.clubs import results as club_results
from scoresheet.models import Club, ClubPlayer, ClubResult, ClubSheet, Sheet, SpentKey
from scoresheet.sheets import writes

# A form's key spent on something else (a tampered form): the write protocol's own error, the
# same for a session, a club and a night.
KeyTaken = writes.KeyTaken

if TYPE_CHECKING:
    from scoresheet.files.club_backup import ClubBackup

# What a roster name already taken says, wherever it is typed.
TAKEN = _("“%(name)s” is already one of the club's players.")


@dataclass(frozen=True)
class ClubChange:
    """What a club write did: the club after it and the roster player, session or sheet
    concerned.

    ``done`` is False when nothing was written: the same form sent again (``already``: its
    key made the club or the session the first time, which this holds), a name already the
    player's, or a session no longer counted.
    """

    club: Club
    player: ClubPlayer | None = None
    club_sheet: ClubSheet | None = None
    sheet: Sheet | None = None
    done: bool = True
    already: bool = False


def _locked(club: Club) -> Club:
    """The club, locked until the transaction ends (or 404 if it is gone)."""
    return get_object_or_404(Club.objects.select_for_update(), pk=club.pk)


def _locked_sheet(sheet_id: int) -> Sheet:
    return get_object_or_404(Sheet.objects.select_for_update(), pk=sheet_id)


# The roster


def clean_player_name(value: str) -> str:
    """A roster name as it is stored, or ``ClubError`` saying why it cannot be one."""
    try:
        return player_names.checked(value or "", player_names.PLAYER_LENGTH)
    except player_names.InvalidName as error:
        if error.reason == "blank":
            raise ClubError(_("Name: enter the player's name.")) from None
        raise ClubError(
            _("Name: a name has at most %(length)s characters."), length=player_names.PLAYER_LENGTH
        ) from None


def _distinct(names) -> list[str]:
    """Roster names, cleaned, none twice (by ``player_names.key``)."""
    cleaned, seen = [], set()
    for name in names:
        name = clean_player_name(name)
        if player_names.key(name) in seen:
            raise ClubError(TAKEN, name=name)
        seen.add(player_names.key(name))
        cleaned.append(name)
    return cleaned


def create_club(
    name: str,
    rules: scoring.Rules = scoring.FFT,
    players=(),
    *,
    key: uuid.UUID | None = None,
    created=None,
) -> ClubChange:
    """A new club, its default house rules and its first players (``created``: a restored
    club's date). ``key``, the new-club form's: the same form sent again, even twice at once,
    opens the club it made the first time (``already``)."""
    name = player_names.checked(name, player_names.TITLE_LENGTH)
    players = _distinct(players)
    if key is not None and (made := writes.made_by(key, SpentKey.Made.CLUB)) is not None:
        return ClubChange(made, done=False, already=True)
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, rules=rules.to_data())
            if key is not None:
                # A key spent before fails here (unique): the whole transaction is undone.
                SpentKey.objects.create(key=key, made=SpentKey.Made.CLUB, club=club)
            if created is not None:
                # auto_now_add stamps today; a restored club keeps the date it was created.
                Club.objects.filter(pk=club.pk).update(created=created)
                club.created = created
            ClubPlayer.objects.bulk_create(ClubPlayer(club=club, name=p) for p in players)
    except IntegrityError:
        made = writes.made_by(key, SpentKey.Made.CLUB) if key is not None else None
        if made is None:
            raise writes.KeyTaken from None
        # Sent twice at once: the other one made it.
        return ClubChange(made, done=False, already=True)
    return ClubChange(club)


def change_club(club: Club, name: str, rules: scoring.Rules) -> ClubChange:
    """Rename a club and change its default house rules: only sessions started afterwards take
    them; every session already played keeps its own rules and scores."""
    name = player_names.checked(name, player_names.TITLE_LENGTH)
    with transaction.atomic():
        club = _locked(club)
        club.name, club.rules = name, rules.to_data()
        club.save(update_fields=["name", "rules"])
    return ClubChange(club)


def add_player(club: Club, name: str) -> ClubChange:
    """Put a new name on the roster; refuses a name already there (by ``player_names.key``): of a
    double tap, the first adds it, the second is told it is there."""
    name = clean_player_name(name)
    try:
        with transaction.atomic():
            club = _locked(club)
            if club.players.filter(key=player_names.key(name)).exists():
                raise ClubError(TAKEN, name=name)
            player = ClubPlayer.objects.create(club=club, name=name)
    except IntegrityError:
        raise ClubError(TAKEN, name=name) from None
    return ClubChange(club, player=player)


def roster_entries(club: Club, names) -> list[ClubPlayer]:
    """The roster players of ``names`` (cleaned names), in order; a name not on the roster
    yet is added to it. Inside a write of this module, the club locked."""
    wanted = [player_names.key(name) for name in names]
    found = {p.key: p for p in club.players.filter(key__in=wanted)}
    entries = []
    for name, key in zip(names, wanted, strict=True):
        if key not in found:
            found[key] = ClubPlayer.objects.create(club=club, name=clean_player_name(name))
        entries.append(found[key])
    return entries


def rename_player(club: Club, player_id: int, name: str) -> ClubChange:
    """Give a roster entry another name; refuses a name another entry has, and an entry gone
    meanwhile (merged into another)."""
    name = clean_player_name(name)
    clash = ClubError(
        _("“%(name)s” is already one of the club's players: merge them instead."), name=name
    )
    try:
        with transaction.atomic():
            club = _locked(club)
            player = club.players.filter(pk=player_id).first()
            if player is None:
                raise ClubError(_("That player is not one of the club's players."))
            if club.players.filter(key=player_names.key(name)).exclude(pk=player.pk).exists():
                raise clash
            if player.name == name:
                return ClubChange(club, player=player, done=False)
            player.name = name
            player.save(update_fields=["name", "key"])
    except IntegrityError:
        raise clash from None
    return ClubChange(club, player=player)


def merge_players(club: Club, keep_id: int, drop_id: int) -> ClubChange:
    """Make ``drop`` (a name typed twice) the same player as ``keep``: every session of
    ``drop`` counts for ``keep``, and ``drop`` leaves the roster."""
    if keep_id == drop_id:
        raise ClubError(_("Choose two different players to merge."))
    with transaction.atomic():
        club = _locked(club)
        players = {p.pk: p for p in club.players.filter(pk__in=[keep_id, drop_id])}
        if len(players) != 2:
            raise ClubError(_("That player is not one of the club's players."))
        keep, drop = players[keep_id], players[drop_id]
        changed = []
        # Only what the merge reads: a big club's sessions carry their sheets' statistics.
        club_sheets = club.club_sheets.select_related("sheet").only(
            "club", "players", "sheet__name"
        )
        for club_sheet in club_sheets:
            if drop.pk not in club_sheet.players:
                continue
            if keep.pk in club_sheet.players:
                raise ClubError(
                    _("%(keep)s and %(drop)s both played “%(session)s”: they are two people."),
                    keep=keep.name,
                    drop=drop.name,
                    session=club_sheet.sheet.name,
                )
            club_sheet.players = [keep.pk if p == drop.pk else p for p in club_sheet.players]
            changed.append(club_sheet)
        bulk.update(ClubSheet, ("players",), [(each.pk, each.players) for each in changed])
        club_results.merged(club.pk, keep.pk, drop.pk)
        drop.delete()
    return ClubChange(club, player=keep)


# The club's sessions


def start_sheet(
    club: Club,
    name: str,
    names,
    first_dealer: int,
    rules: scoring.Rules | None = None,
    *,
    key: uuid.UUID | None = None,
) -> ClubChange:
    """A new session of the club: its seats are roster players (a new name joins the roster),
    and it plays the club's default rules unless given others. ``key``, the form's: the same
    form sent again opens the session it made the first time (``already``)."""
    names = _distinct(names)
    try:
        with transaction.atomic():
            # The club first: two sessions started at once with a new name add it once.
            club = _locked(club)
            if key is not None:
                made = writes.made_by(key, SpentKey.Made.SHEET, club=club)
                if made is not None:
                    return ClubChange(club, sheet=made, done=False, already=True)
            entries = roster_entries(club, names)
            sheet = writes.create_sheet(
                name, names, first_dealer, rules=club.game_rules if rules is None else rules
            )
            if key is not None:
                SpentKey.objects.create(key=key, made=SpentKey.Made.SHEET, sheet=sheet, club=club)
            club_sheet = counted(club, sheet, entries)
    except IntegrityError:
        # Under the club's lock only a key spent in another club can fail: a tampered form.
        raise writes.KeyTaken from None
    return ClubChange(club, club_sheet=club_sheet, sheet=sheet)


def counted(club: Club, sheet: Sheet, entries: list[ClubPlayer]) -> ClubSheet:
    """Count ``sheet`` in the club, seat ``i`` being ``entries[i]``, with its results. Inside a
    write of this module, the sheet and the club locked."""
    club_sheet = ClubSheet.objects.create(club=club, sheet=sheet, players=[p.pk for p in entries])
    club_results.store(club_sheet, sheet)
    return club_sheet


def attach(club: Club, sheet: Sheet, names) -> ClubChange:
    """Count an existing session in the club, seat ``i`` being roster player ``names[i]``
    (a new name joins the roster). A session belongs to one club at most: of two attaches at
    once, the first counts it, the second is told it belongs to a club."""
    names = [clean_player_name(name) for name in names]
    if len(names) != sheet.seats.count():
        raise ClubError(_("Give a player for every seat of the session."))
    keys = [player_names.key(name) for name in names]
    if len(set(keys)) != len(keys):
        raise ClubError(_("Each seat needs a different player."))
    belongs = ClubError(_("This session already belongs to a club."))
    try:
        with transaction.atomic():
            # The sheet first, then the club, as the write path locks them: its totals cannot
            # change between reading them and counting them.
            sheet = _locked_sheet(sheet.pk)
            club = _locked(club)
            if ClubSheet.objects.filter(sheet=sheet).exists():
                raise belongs
            club_sheet = counted(club, sheet, roster_entries(club, names))
    except IntegrityError:
        raise belongs from None
    return ClubChange(club, club_sheet=club_sheet, sheet=sheet)


def detach(club: Club, club_sheet_id: int) -> ClubChange:
    """Stop counting a session in the club; the session itself is left as it is. ``done`` is
    False (``sheet`` None) when it was no longer counted."""
    sheet_id = club.club_sheets.filter(pk=club_sheet_id).values_list("sheet_id", flat=True).first()
    if sheet_id is None:
        return ClubChange(club, done=False)
    with transaction.atomic():
        sheet = _locked_sheet(sheet_id)
        club = _locked(club)
        club_sheet = club.club_sheets.filter(pk=club_sheet_id).first()
        if club_sheet is None:
            # Detached meanwhile, by another phone.
            return ClubChange(club, done=False)
        club_sheet.sheet = sheet
        club_results.remove(club_sheet)
    return ClubChange(club, sheet=sheet)


# A club's backup


# What an import writes of a club's result: every column but the id, the club, the session and
# the player (known once those rows are in).
RESULT_COLUMNS = ("seat", "played", *club_results.FIGURES, *club_results.RATING)


def restore(checked: ClubBackup) -> ClubChange:
    """A new club (new links) holding a checked backup (``club_backup.read``).

    Every session is scored, and every result and rating of the club computed, in memory
    first, outside any transaction (``club_results.fresh_rows``: the rating chain once, not
    once per session); then one short transaction writes it all with a few bulk inserts, so
    that a big file holds the database only the time of those (issue 20)."""
    roster = {player_names.key(name): seat for seat, name in enumerate(checked.players)}
    # The rating's order: by date, then as the file lists them; the sessions are written in
    # that order, so their ids follow it too (club_results.ORDER).
    sessions = sorted(checked.sessions, key=lambda session: session.created)
    new = writes.NewSheets()
    for session in sessions:
        new.add(
            session.name,
            session.players,
            session.first_dealer,
            rules=session.rules,
            created=session.created,
            hands=session.hands,
        )
    seated = [[roster[player_names.key(name)] for name in session.players] for session in sessions]
    # Sessions and players by their place in these lists until they have ids.
    fresh = club_results.fresh_rows(
        (number, seated[number], each.sheet, each.played) for number, each in enumerate(new.new)
    )
    results = bulk.Columns(ClubResult, RESULT_COLUMNS).prepared(
        [row[name] for name in RESULT_COLUMNS] for row in fresh
    )
    club = Club(name=checked.name, rules=checked.rules.to_data())
    players = [ClubPlayer(name=name) for name in checked.players]
    with transaction.atomic():
        club.save(force_insert=True)
        # auto_now_add stamped it with now: a restored club keeps the time it was created.
        Club.objects.filter(pk=club.pk).update(created=checked.created)
        club.created = checked.created
        for player in players:
            player.club = club
        ClubPlayer.objects.bulk_create(players)
        counted = ClubSheet.objects.bulk_create(
            ClubSheet(club=club, sheet=sheet, players=[players[seat].pk for seat in seats])
            for sheet, seats in zip(new.write(), seated, strict=True)
        )
        bulk.insert(
            ClubResult,
            ("club", "club_sheet", "player", *RESULT_COLUMNS),
            [
                (club.pk, counted[row["club_sheet_id"]].pk, players[row["player_id"]].pk, *values)
                for row, values in zip(fresh, results, strict=True)
            ],
        )
    return ClubChange(club)
