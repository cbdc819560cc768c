"""What importing a file writes, beyond a session's own write path: a club's backup restored
as a new club (new links), with its roster, its sessions, their results and ratings, and its
nights, in one short transaction. A session's backup is restored by the sheets' write path
(``sheets.writes.create_sheet``, from ``session_backup.restore``)."""

from __future__ import annotations

from django.db import transaction

from scoresheet import bulk, player_names
from scoresheet.clubs import results
from scoresheet.models import Club, ClubPlayer, ClubResult, ClubSheet, Night, NightTable
from scoresheet.sheets import writes

# What an import writes of a club's result: every column but the id, the club, the club's
# sheet and the player (known once those rows are in).
RESULT_COLUMNS = ("seat", "played", *results.FIGURES, *results.RATING)


def restore_club(checked) -> Club:
    """A new club holding a checked club backup (``club_backup.read``).

    Every session is scored, and every result and rating of the club computed, in memory
    first, outside any transaction (``results.fresh_rows``: the rating chain once, not once
    per session); then one short transaction writes it all with a few bulk inserts, so that a
    big file holds the database only the time of those."""
    # The rating's order: by date, then as the file lists them (a stable sort); the sessions
    # are written in that order, so their ids follow it too (results.ORDER).
    order = sorted(range(len(checked.sessions)), key=lambda index: checked.sessions[index].created)
    sessions = [checked.sessions[index] for index in order]
    new = _scored(sessions)
    seated = _seated(checked.players, sessions)
    # Sessions and players by their place in these lists until they have ids.
    fresh = results.fresh_rows(
        (number, seated[number], each.sheet, each.played) for number, each in enumerate(new.new)
    )
    rows = bulk.Columns(ClubResult, RESULT_COLUMNS).prepared(
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
        counted = _write_club_sheets(club, new.write(), seated, players)
        _write_results(club, counted, players, fresh, rows)
        # The nights name the sessions by their place in the file.
        in_file = _in_file_order(counted, order)
        _restore_nights(club, checked.nights, in_file, {p.key: p.pk for p in players})
    return club


def _seated(names: list[str], sessions) -> list[list[int]]:
    """Each session's players, seat by seat, as their places in the backup's roster
    (``names``), found by their name's key."""
    roster = {player_names.key(name): place for place, name in enumerate(names)}
    return [[roster[player_names.key(name)] for name in session.players] for session in sessions]


def _write_club_sheets(club: Club, sheets, seated, players: list[ClubPlayer]) -> list[ClubSheet]:
    """The club's sessions, just written (``sheets``), counted by the club with the roster
    player at each seat (``seated``: places in ``players``)."""
    return ClubSheet.objects.bulk_create(
        ClubSheet(club=club, sheet=sheet, players=[players[seat].pk for seat in seats])
        for sheet, seats in zip(sheets, seated, strict=True)
    )


def _write_results(club: Club, counted: list[ClubSheet], players: list[ClubPlayer], fresh, rows):
    """The club's results and ratings computed before the transaction (``fresh``, their values
    prepared as ``rows``), written with the ids of its sheets and players."""
    bulk.insert(
        ClubResult,
        ("club", "club_sheet", "player", *RESULT_COLUMNS),
        [
            (club.pk, counted[row["club_sheet_id"]].pk, players[row["player_id"]].pk, *values)
            for row, values in zip(fresh, rows, strict=True)
        ],
    )


def _scored(sessions) -> writes.NewSheets:
    """The backup's sessions (``club_backup.read``'s), in this order, scored in memory and
    ready to write."""
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
    return new


def _in_file_order(counted: list[ClubSheet], order: list[int]) -> list[ClubSheet]:
    """The club's sheets as the file lists their sessions: ``counted`` are in the order they
    were written, ``order`` the place in the file of each."""
    in_file = [None] * len(counted)
    for place, index in enumerate(order):
        in_file[index] = counted[place]
    return in_file


def _restore_nights(club: Club, nights, club_sheets: list[ClubSheet], roster: dict) -> None:
    """The nights of a restored club backup (``night_files.NightBackup``): ``club_sheets`` are
    the restored club's sheets in the file's order, ``roster`` its players' ids by name key."""
    for number, each in enumerate(nights, start=1):
        night = Night.objects.create(
            club=club,
            number=number,
            name=each.name,
            date=each.date,
            seed=each.seed,
            rounds=each.rounds,
            deals=each.deals,
            minutes=each.minutes,
            passed_counts=each.passed_counts,
            rules=each.rules.to_data(),
            players=[roster[key] for key in each.players],
            gone=[roster[key] for key in each.gone],
            drawn=len(each.tables),
        )
        NightTable.objects.bulk_create(
            NightTable(
                night=night,
                round=round_number,
                table=table_number,
                players=[roster[key] for key in table.players],
                club_sheet=None if table.session is None else club_sheets[table.session],
            )
            for round_number, tables in enumerate(each.tables, start=1)
            for table_number, table in enumerate(tables, start=1)
        )
