"""The club's derived data: each player's result in each session the club counts, and their
rating after it (``models.ClubResult``), stored by the write path so that the standings of any
period are a few aggregate queries whatever the club's size, and a player's page one query
over their rows (their ``record``: best and worst hand, partners, streak, contracts).

- A change to a session of a club (``writes``: add, correct, delete, undo, change of rules,
  rescore) stores that session's rows again, in the same transaction (``sheet_changed``).
- The rating is openskill's Plackett–Luce model over the sessions in date order (then in the
  order the club counted them), each session with at least one hand ranking its players by
  their places. A session's rating depends on every earlier one, so when a session's places
  move, or a session is attached, detached or two players merged, that session and every later
  one are rated again (``rerate``); the earlier ones never change. Adding a hand to the club's
  latest session, the usual write, re-rates that session alone.
- ``recount`` computes everything afresh from the sessions' stored totals, statistics'
  counters and hands (the migration, ``manage.py rescore``, the tests).

The club is locked (``select_for_update``) before its rows are written, after the sheet: two
tables playing at once wait for each other only the time of this bookkeeping.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import groupby
from types import SimpleNamespace

from django.db import transaction
from django.db.models import OuterRef, Q, Subquery
from openskill.models import PlackettLuce

from scoresheet import bulk, scoring, stats
from scoresheet.models import Club, ClubPlayer, ClubResult, ClubSheet, Hand, Sheet

RATING_MODEL = PlackettLuce()
# What a row holds besides its place in the club (club, session, player, seat, played).
FIGURES = ("points", "hands", "taken", "made", "contracts", "rank", "won", "record")
RATING = ("mu", "sigma")
ORDER = ("played", "club_sheet_id", "seat")


def figures(seats: int, totals: list[int], hand_count: int, statistics: dict) -> list[dict]:
    """Each seat's figures in a session, from its stored totals and statistics' counters.

    Hands are those the player took part in (a dealer sitting out did not, docs/rules.md §6.4);
    the place is 1 + the number of strictly higher totals; the best total wins, ties
    included, once the session has a hand."""
    totals = list(totals) or [0] * seats
    counters = stats.Counters.from_data(statistics, seats)
    best = max(totals)
    found = []
    for seat, total in enumerate(totals):
        counts = counters.seats[seat]
        taken = sum(counts.taken.values())
        found.append(
            {
                "points": total,
                "hands": taken + counts.called + counts.defended,
                "taken": taken,
                "made": sum(counts.made.values()),
                "contracts": sum(
                    scoring.MULTIPLIERS[contract] * count
                    for contract, count in counts.taken.items()
                ),
                "rank": 1 + sum(other > total for other in totals) if hand_count else None,
                "won": bool(hand_count) and total == best,
                # What the player's page shows beyond the standings (with the hand records).
                "record": {
                    "streak": counts.best.length,
                    "contracts": {
                        str(contract): [count, counts.made[contract]]
                        for contract, count in counts.taken.items()
                        if count
                    },
                },
            }
        )
    return found


def no_records(seats: int) -> list[dict]:
    return [{"best": None, "worst": None, "partners": {}} for _seat in range(seats)]


def fold(records: list[dict], hand: tuple, rules: scoring.Rules) -> None:
    """Fold a hand (in play order) into each seat's records: the best and worst hand the
    player played ([score, number], the earliest on a tie), and at 5 players how often each
    other seat was their partner. A passed deal, or a hand the dealer sat out (docs/rules.md §6.4),
    is no hand of theirs."""
    number, dealer, taker, partner, passed, scores = hand
    if passed:
        return
    five = rules.players(len(scores)) == 5 and partner is not None and partner != taker
    for seat, (record, score) in enumerate(zip(records, scores, strict=True)):
        if rules.dealer_sits_out and dealer == seat:
            continue
        if record["best"] is None or score > record["best"][0]:
            record["best"] = [score, number]
        if record["worst"] is None or score < record["worst"][0]:
            record["worst"] = [score, number]
        other = partner if seat == taker else taker if seat == partner else None
        if five and other is not None:
            key = str(other)
            record["partners"][key] = record["partners"].get(key, 0) + 1


def records_of(seats: int, hands: Iterable[tuple], rules: scoring.Rules) -> list[dict]:
    """Each seat's records over a session's hands, in play order."""
    records = no_records(seats)
    for hand in hands:
        fold(records, hand, rules)
    return records


def lines_of(sheet: Sheet, seats: int, records: list[dict]) -> list[dict]:
    """Each seat's row fields (``FIGURES``) for a session, its hand records given."""
    found = figures(seats, sheet.totals, sheet.hand_count, sheet.statistics)
    for line, record in zip(found, records, strict=True):
        line["record"].update(record)
    return found


def _hands(sheet: Sheet) -> list[tuple]:
    return list(sheet.hands.order_by("number").values_list(*Hand.RECORDED))


def rated(priors: dict, players: list[int], ranks: list[int | None]) -> list[tuple]:
    """The (mu, sigma) of each player after a session where they took these places, from
    their ratings before it (``priors``: player → (mu, sigma); a newcomer starts at the
    model's default); (None, None) each for a session without a hand."""
    if not players or ranks[0] is None:
        return [(None, None)] * len(players)
    teams = [
        [RATING_MODEL.rating(*priors[player]) if player in priors else RATING_MODEL.rating()]
        for player in players
    ]
    after = RATING_MODEL.rate(teams, ranks=list(ranks))
    return [(rating.mu, rating.sigma) for (rating,) in after]


def _rate_rows(rows: Iterable, priors: dict, key) -> list:
    """Give rows (in ``ORDER``; attributes player_id, rank, mu, sigma) their ratings in turn;
    returns those whose rating changed. ``priors`` is updated as the sessions go by."""
    changed = []
    for _club_sheet, group in groupby(rows, key=key):
        group = list(group)
        after = rated(priors, [row.player_id for row in group], [row.rank for row in group])
        for row, rating in zip(group, after, strict=True):
            if (row.mu, row.sigma) != rating:
                row.mu, row.sigma = rating
                changed.append(row)
            if rating[0] is not None:
                priors[row.player_id] = rating
    return changed


def _lock(club_id: int) -> None:
    list(Club.objects.select_for_update().filter(pk=club_id).order_by().values_list("pk"))


def _before(played, club_sheet_id: int) -> Q:
    """The rows of the sessions that come before (played, club_sheet_id) in the rating's order."""
    return Q(played__lt=played) | Q(played=played, club_sheet_id__lt=club_sheet_id)


def rerate(club_id: int, played=None, club_sheet_id: int | None = None) -> int:
    """Rate again every session of the club from (played, club_sheet_id) on (from the first when
    not given), each from the ratings its players had before it; returns the rows changed.
    The club is locked by the caller."""
    results = ClubResult.objects.filter(club_id=club_id)
    priors = {}
    if played is not None:
        before = _before(played, club_sheet_id)
        last = results.filter(before, player=OuterRef("pk"), mu__isnull=False).order_by(
            "-played", "-club_sheet_id"
        )
        found = (
            ClubPlayer.objects.filter(club_id=club_id)
            .annotate(
                last_mu=Subquery(last.values("mu")[:1]),
                last_sigma=Subquery(last.values("sigma")[:1]),
            )
            .values_list("pk", "last_mu", "last_sigma")
        )
        priors = {pk: (mu, sigma) for pk, mu, sigma in found if mu is not None}
        results = results.exclude(before)
    rows = results.order_by(*ORDER).only("club_sheet_id", "player_id", "rank", "mu", "sigma")
    changed = _rate_rows(rows, priors, key=lambda row: row.club_sheet_id)
    return bulk.update(ClubResult, RATING, [(row.pk, row.mu, row.sigma) for row in changed])


def store(club_sheet: ClubSheet, sheet: Sheet) -> None:
    """Write the rows of a session the club has just started counting, and rate from it."""
    _lock(club_sheet.club_id)
    seats = len(club_sheet.players)
    lines = lines_of(sheet, seats, records_of(seats, _hands(sheet), sheet.game_rules))
    rows = [
        ClubResult(
            club_id=club_sheet.club_id,
            club_sheet=club_sheet,
            player_id=player,
            seat=seat,
            played=sheet.created,
            **line,
        )
        for seat, (player, line) in enumerate(zip(club_sheet.players, lines, strict=True))
    ]
    ClubResult.objects.bulk_create(rows)
    rerate(club_sheet.club_id, sheet.created, club_sheet.pk)


def remove(club_sheet: ClubSheet) -> None:
    """Stop counting a session (its rows go with it) and rate again what follows it."""
    # The club before the rows, as every write here locks them.
    _lock(club_sheet.club_id)
    played = club_sheet.sheet.created
    club_sheet_id = club_sheet.pk
    club_sheet.delete()
    rerate(club_sheet.club_id, played, club_sheet_id)


def sheet_changed(sheet: Sheet, appended=None) -> None:
    """Store again the rows of the club session ``sheet`` is (if it is one) after the write
    path changed it, and re-rate from it when its places moved. Called inside the write's
    transaction, the sheet locked and its derived data up to date; ``appended`` is the hand
    just added, if that was the change (its records are folded in without reading the
    others, which any other change re-reads, as it re-scores them)."""
    try:
        club_sheet = sheet.club_sheet
    except ClubSheet.DoesNotExist:
        return
    _lock(club_sheet.club_id)
    # Read after the lock: a merge may have changed who sat there.
    stored = list(ClubResult.objects.filter(club_sheet_id=club_sheet.pk).order_by("seat"))
    if not stored:
        # Detached meanwhile: nothing left to count.
        return
    if appended is not None:
        records = [
            {name: row.record.get(name) for name in ("best", "worst", "partners")}
            for row in stored
        ]
        fold(records, tuple(getattr(appended, name) for name in Hand.RECORDED), sheet.game_rules)
    else:
        records = records_of(len(stored), _hands(sheet), sheet.game_rules)
    fresh = lines_of(sheet, len(stored), records)
    moved = [row.rank for row in stored] != [line["rank"] for line in fresh]
    changed = []
    for row, line in zip(stored, fresh, strict=True):
        if any(getattr(row, name) != value for name, value in line.items()):
            for name, value in line.items():
                setattr(row, name, value)
            changed.append(row)
    bulk.update(
        ClubResult,
        FIGURES,
        [(row.pk, *(getattr(row, name) for name in FIGURES)) for row in changed],
    )
    if moved:
        rerate(club_sheet.club_id, stored[0].played, club_sheet.pk)


def merged(club_id: int, keep_id: int, drop_id: int) -> None:
    """Count every row of ``drop`` for ``keep`` and rate again from the first of them. The
    club is locked by the caller."""
    first = (
        ClubResult.objects.filter(player_id=drop_id)
        .order_by(*ORDER)
        .values_list("played", "club_sheet_id")
        .first()
    )
    ClubResult.objects.filter(player_id=drop_id).update(player_id=keep_id)
    if first is not None:
        rerate(club_id, *first)


def fresh_rows(club_sheets: Iterable[tuple]) -> list[dict]:
    """Every row of a club, computed afresh, rated in order: ``club_sheets`` are (club sheet id,
    players, sheet, hands) in the rating's order, ``hands`` as ``Hand.RECORDED`` in play order."""
    rows = []
    for club_sheet_id, players, sheet, hands in club_sheets:
        seats = len(players)
        lines = lines_of(
            sheet, seats, records_of(seats, hands, scoring.Rules.from_data(sheet.rules))
        )
        played = sheet.created
        for seat, (player, line) in enumerate(zip(players, lines, strict=True)):
            rows.append(
                SimpleNamespace(
                    club_sheet_id=club_sheet_id,
                    player_id=player,
                    seat=seat,
                    played=played,
                    **line,
                    mu=None,
                    sigma=None,
                )
            )
    _rate_rows(rows, {}, key=lambda row: row.club_sheet_id)
    return [vars(row) for row in rows]


FIELDS = ("club_sheet_id", "player_id", "seat", "played", *FIGURES, *RATING)


def recount(club: Club) -> bool:
    """Compute the club's rows afresh from its sessions and store them; True when the stored
    ones differed."""
    with transaction.atomic():
        return _recounted(club)


def _recounted(club: Club) -> bool:
    _lock(club.pk)
    club_sheets = ClubSheet.objects.filter(club=club).select_related("sheet")
    hands = defaultdict(list)
    found = Hand.objects.filter(sheet__club_sheet__club=club).order_by("sheet_id", "number")
    for sheet_id, *hand in found.values_list("sheet_id", *Hand.RECORDED):
        hands[sheet_id].append(tuple(hand))
    fresh = fresh_rows(
        (s.pk, s.players, s.sheet, hands[s.sheet_id])
        for s in club_sheets.order_by("sheet__created", "id")
    )
    stored = list(ClubResult.objects.filter(club=club).order_by(*ORDER).values(*FIELDS))
    if stored == [{name: row[name] for name in FIELDS} for row in fresh]:
        return False
    ClubResult.objects.filter(club=club).delete()
    rows = bulk.Columns(ClubResult, FIELDS).prepared(
        [row[name] for name in FIELDS] for row in fresh
    )
    bulk.insert(ClubResult, ("club", *FIELDS), [(club.pk, *row) for row in rows])
    return True
