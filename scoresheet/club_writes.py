"""The club's writes: the club, its settings, its roster (add, rename, merge), the sessions it
counts (start, attach, detach). Every change to a club goes through here, in one transaction;
a session's own hands still go through ``writes`` (a session started from the club is created
by ``writes.create_sheet``), and the club's derived results through ``club_results``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import transaction

from scoresheet import bulk, club_results, scoring, writes
from scoresheet import names as player_names
from scoresheet.clubs import NAME_LENGTH, ClubError, _
from scoresheet.models import Club, ClubPlayer, ClubResult, ClubSession, Sheet

if TYPE_CHECKING:
    from scoresheet.club_backup import ClubBackup

# The roster


def clean_player_name(value: str) -> str:
    """A roster name as it is stored, or ``ClubError`` saying why it cannot be one."""
    name = player_names.clean(value or "")
    if not name:
        raise ClubError(_("Name: enter the player's name."))
    if len(name) > NAME_LENGTH:
        raise ClubError(_("Name: a name has at most %(length)s characters."), length=NAME_LENGTH)
    return name


def create_club(name: str, rules: scoring.Rules = scoring.FFT, players=()) -> Club:
    """A new club, its default house rules and its first players."""
    with transaction.atomic():
        club = Club.objects.create(name=name, rules=rules.to_data())
        for player in players:
            add_player(club, player)
    return club


def change_club(club: Club, name: str, rules: scoring.Rules) -> Club:
    """Rename a club and change its default house rules: only sessions started afterwards take
    them; every session already played keeps its own rules and scores."""
    club.name, club.rules = name, rules.to_data()
    Club.objects.filter(pk=club.pk).update(name=club.name, rules=club.rules)
    return club


def add_player(club: Club, name: str) -> ClubPlayer:
    """Put a new name on the roster; refuses a name already there (by ``names.key``)."""
    name = clean_player_name(name)
    if club.players.filter(key=player_names.key(name)).exists():
        raise ClubError(_("“%(name)s” is already one of the club's players."), name=name)
    return ClubPlayer.objects.create(club=club, name=name)


def roster_entries(club: Club, names) -> list[ClubPlayer]:
    """The roster players of ``names`` (cleaned names), in order; a name not on the roster
    yet is added to it."""
    wanted = [player_names.key(name) for name in names]
    found = {p.key: p for p in club.players.filter(key__in=wanted)}
    entries = []
    for name, key in zip(names, wanted, strict=True):
        if key not in found:
            found[key] = ClubPlayer.objects.create(club=club, name=clean_player_name(name))
        entries.append(found[key])
    return entries


def rename_player(club: Club, player_id: int, name: str) -> ClubPlayer:
    """Give a roster entry another name; refuses a name another entry has."""
    name = clean_player_name(name)
    with transaction.atomic():
        player = club.players.select_for_update().filter(pk=player_id).first()
        if player is None:
            raise ClubError(_("That player is not one of the club's players."))
        clash = club.players.filter(key=player_names.key(name)).exclude(pk=player.pk)
        if clash.exists():
            raise ClubError(
                _("“%(name)s” is already one of the club's players: merge them instead."),
                name=name,
            )
        player.name = name
        player.save(update_fields=["name", "key"])
    return player


def merge_players(club: Club, keep_id: int, drop_id: int) -> ClubPlayer:
    """Make ``drop`` (a name typed twice) the same player as ``keep``: every session of
    ``drop`` counts for ``keep``, and ``drop`` leaves the roster."""
    if keep_id == drop_id:
        raise ClubError(_("Choose two different players to merge."))
    with transaction.atomic():
        Club.objects.select_for_update().filter(pk=club.pk).first()
        players = {p.pk: p for p in club.players.filter(pk__in=[keep_id, drop_id])}
        if len(players) != 2:
            raise ClubError(_("That player is not one of the club's players."))
        keep, drop = players[keep_id], players[drop_id]
        changed = []
        # Only what the merge reads: a big club's sessions carry their sheets' statistics.
        sessions = club.sessions.select_related("sheet").only("club", "players", "sheet__name")
        for session in sessions:
            if drop.pk not in session.players:
                continue
            if keep.pk in session.players:
                raise ClubError(
                    _("%(keep)s and %(drop)s both played “%(session)s”: they are two people."),
                    keep=keep.name,
                    drop=drop.name,
                    session=session.sheet.name,
                )
            session.players = [keep.pk if p == drop.pk else p for p in session.players]
            changed.append(session)
        bulk.update(ClubSession, ("players",), [(each.pk, each.players) for each in changed])
        club_results.merged(club.pk, keep.pk, drop.pk)
        drop.delete()
    return keep


# The club's sessions


def start_session(
    club: Club,
    name: str,
    names,
    first_dealer: int,
    rules: scoring.Rules | None = None,
) -> Sheet:
    """A new session of the club: its seats are roster players (a new name joins the roster),
    and it plays the club's default rules unless given others."""
    with transaction.atomic():
        sheet = writes.create_sheet(
            name, list(names), first_dealer, rules=club.game_rules if rules is None else rules
        )
        counted(club, sheet, roster_entries(club, names))
    return sheet


def counted(club: Club, sheet: Sheet, entries: list[ClubPlayer]) -> ClubSession:
    """Count ``sheet`` in the club, seat ``i`` being ``entries[i]``, with its results: in one
    transaction (the club's row is locked while its ratings move)."""
    with transaction.atomic():
        session = ClubSession.objects.create(
            club=club, sheet=sheet, players=[p.pk for p in entries]
        )
        club_results.store_session(session, sheet)
    return session


def attach(club: Club, sheet: Sheet, names) -> ClubSession:
    """Count an existing session in the club, seat ``i`` being roster player ``names[i]``
    (a new name joins the roster). A session belongs to one club at most."""
    names = [clean_player_name(name) for name in names]
    if len(names) != sheet.seats.count():
        raise ClubError(_("Give a player for every seat of the session."))
    keys = [player_names.key(name) for name in names]
    if len(set(keys)) != len(keys):
        raise ClubError(_("Each seat needs a different player."))
    with transaction.atomic():
        # The sheet first, then the club, as the write path locks them: its totals cannot
        # change between reading them and counting them.
        sheet = Sheet.objects.select_for_update().get(pk=sheet.pk)
        Club.objects.select_for_update().filter(pk=club.pk).first()
        if ClubSession.objects.filter(sheet=sheet).exists():
            raise ClubError(_("This session already belongs to a club."))
        return counted(club, sheet, roster_entries(club, names))


def detach(club: Club, session_id: int) -> Sheet | None:
    """Stop counting a session in the club; the session itself is left as it is."""
    with transaction.atomic():
        session = club.sessions.select_related("sheet").filter(pk=session_id).first()
        if session is None:
            return None
        club_results.remove_session(session)
    return session.sheet


# A club's backup


# What an import writes of a club's result: every column but the id, the club, the session and
# the player (known once those rows are in).
RESULT_COLUMNS = ("seat", "played", *club_results.FIGURES, *club_results.RATING)


def restore(checked: ClubBackup) -> Club:
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
        counted = ClubSession.objects.bulk_create(
            ClubSession(club=club, sheet=sheet, players=[players[seat].pk for seat in seats])
            for sheet, seats in zip(new.write(), seated, strict=True)
        )
        bulk.insert(
            ClubResult,
            ("club", "session", "player", *RESULT_COLUMNS),
            [
                (club.pk, counted[row["session_id"]].pk, players[row["player_id"]].pk, *values)
                for row, values in zip(fresh, results, strict=True)
            ],
        )
    return club
