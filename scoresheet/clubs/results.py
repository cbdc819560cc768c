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
  one must be rated again; the earlier ones never change. When nothing rated follows it (the
  usual write: a hand in the club's latest session), that session is rated again at once.
  Otherwise the write only notes, on the club's row, the first session whose ratings wait
  (``Club.rate_from_*``): a correction costs the same in the club's first session as in its
  latest. The ratings from there on are rated again by ``catch_up``, computed outside the
  club's lock and written under it, after the request that made them wait has been answered
  (``request_finished``; at once outside a request); the standings meanwhile rate the waiting
  sessions on read (``waiting_ratings``), so that what they show is always a full
  computation's.
- ``recount`` computes everything afresh from the sessions' stored totals, statistics'
  counters and hands (the migration, ``manage.py rescore``, the tests).

The club is locked (``select_for_update``) before its rows are written, after the sheet: two
tables playing at once wait for each other only the time of this bookkeeping.
"""

from __future__ import annotations

import logging
import threading
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from itertools import groupby
from types import SimpleNamespace

from django.db import transaction
from django.db.models import F, OuterRef, Q, Subquery
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
        _keep_extremes(record, score, number)
        other = _partner_of(seat, taker, partner)
        if five and other is not None:
            key = str(other)
            record["partners"][key] = record["partners"].get(key, 0) + 1


def _keep_extremes(record: dict, score: int, number: int) -> None:
    """Keep hand ``number`` as the seat's best or worst hand when its score beats the one kept
    (the earlier hand on a tie)."""
    if record["best"] is None or score > record["best"][0]:
        record["best"] = [score, number]
    if record["worst"] is None or score < record["worst"][0]:
        record["worst"] = [score, number]


def _partner_of(seat: int, taker: int, partner: int | None) -> int | None:
    """The seat the ``seat`` played with in a hand: the taker's partner for the taker, the
    taker for the partner, None for a defender."""
    if seat == taker:
        return partner
    if seat == partner:
        return taker
    return None


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
    return list(sheet.numbered_hands().values_list(*Hand.RECORDED))


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


def _rate_rows(rows: Iterable, priors: dict) -> list:
    """Give rows (in ``ORDER``; attributes club_sheet_id, player_id, rank, mu, sigma) their
    ratings in turn; returns those whose rating changed. ``priors`` is updated as the
    sessions go by."""
    changed = []
    for _club_sheet, group in groupby(rows, key=lambda row: row.club_sheet_id):
        group = list(group)
        after = rated(priors, [row.player_id for row in group], [row.rank for row in group])
        for row, rating in zip(group, after, strict=True):
            if (row.mu, row.sigma) != rating:
                row.mu, row.sigma = rating
                changed.append(row)
            if rating[0] is not None:
                priors[row.player_id] = rating
    return changed


def _write_ratings(rows: list) -> int:
    return bulk.update(ClubResult, RATING, [(row.pk, row.mu, row.sigma) for row in rows])


@dataclass(frozen=True)
class Waiting:
    """The club's ratings as its row says them: up to date before session (played,
    club_sheet_id), in the rating's order, waiting from it on (None: none waits); and the
    revision of what they are computed from."""

    played: object = None
    club_sheet_id: int | None = None
    revision: int = 0

    @property
    def session(self) -> tuple | None:
        return None if self.played is None else (self.played, self.club_sheet_id)

    def covers(self, played, club_sheet_id: int) -> bool:
        """Whether the ratings of session (played, club_sheet_id) wait already."""
        return self.session is not None and self.session <= (played, club_sheet_id)


WAITING = ("rate_from_played", "rate_from_club_sheet", "rating_revision")


def _lock(club_id: int) -> Waiting:
    """The club's row locked until the transaction ends; its ratings' state."""
    found = Club.objects.select_for_update().filter(pk=club_id).order_by().values_list(*WAITING)
    return Waiting(*found.get())


def before(played, club_sheet_id: int) -> Q:
    """The rows of the sessions that come before (played, club_sheet_id) in the rating's order."""
    # played <= …: a range of the indexes on played, which the exact order then filters.
    return Q(played__lte=played) & (
        Q(played__lt=played) | Q(played=played, club_sheet_id__lt=club_sheet_id)
    )


def _from(played, club_sheet_id: int) -> Q:
    """The rows of session (played, club_sheet_id) and of those after it, in the rating's order."""
    return Q(played__gte=played) & (
        Q(played__gt=played) | Q(played=played, club_sheet_id__gte=club_sheet_id)
    )


def last_rating(before: Q):
    """The (mu, sigma) of a roster player's last rated row among ``before``, as subqueries
    for ``ClubPlayer.objects.annotate``: one index lookup each, never their whole history."""
    last = (
        ClubResult.objects.filter(before, player=OuterRef("pk"), mu__isnull=False)
        .order_by("-played", "-club_sheet_id")
        .values("mu", "sigma")
    )
    return {
        "last_mu": Subquery(last.values("mu")[:1]),
        "last_sigma": Subquery(last.values("sigma")[:1]),
    }


def ratings_before(players: Iterable[int], played, club_sheet_id: int) -> dict:
    """Each of ``players``' rating (mu, sigma) before session (played, club_sheet_id): their
    last rated row's; a player never rated before it is left out."""
    found = (
        ClubPlayer.objects.filter(pk__in=set(players))
        .annotate(**last_rating(before(played, club_sheet_id)))
        .order_by()
        .values_list("pk", "last_mu", "last_sigma")
    )
    return {pk: (mu, sigma) for pk, mu, sigma in found if mu is not None}


def _rating_rows(found) -> list[SimpleNamespace]:
    names = ("pk", "club_sheet_id", "player_id", "rank", "mu", "sigma")
    return [
        SimpleNamespace(**dict(zip(names, row, strict=True)))
        for row in found.order_by(*ORDER).values_list(*names)
    ]


def _placed(club_id: int, waiting: Waiting, played, club_sheet_id: int, rows=None) -> None:
    """Session (played, club_sheet_id) changed places, came or went: its ratings and every
    later one's change. Rated again now when nothing ranked follows it (``rows``: its rows,
    when the caller has them); otherwise they wait, from it on, for ``catch_up``. Inside a
    write, the club locked (``waiting``: its state then)."""
    if waiting.covers(played, club_sheet_id):
        # They wait already: a catch-up computed before this change must not be written.
        Club.objects.filter(pk=club_id).update(rating_revision=F("rating_revision") + 1)
        _catch_up_later(club_id)
        return
    later = ClubResult.objects.filter(
        _from(played, club_sheet_id), ~Q(club_sheet_id=club_sheet_id), club_id=club_id
    ).filter(rank__isnull=False)
    if later.exists():
        Club.objects.filter(pk=club_id).update(
            rate_from_played=played,
            rate_from_club_sheet=club_sheet_id,
            rating_revision=F("rating_revision") + 1,
        )
        _catch_up_later(club_id)
        return
    if rows is None:
        rows = _rating_rows(ClubResult.objects.filter(club_sheet_id=club_sheet_id))
    if rows:
        priors = ratings_before([row.player_id for row in rows], played, club_sheet_id)
        _write_ratings(_rate_rows(rows, priors))


def catch_up(club_id: int, tries: int = 3) -> int:
    """Rate again the sessions whose ratings wait (``Club.rate_from_*``), each from the
    ratings its players had before it: computed outside the club's lock, then written under
    it unless what they are computed from changed meanwhile (then computed again, ``tries``
    times at most: the write that changed it asked for another catch-up). Returns the rows
    whose rating changed."""
    for _try in range(tries):
        found = Club.objects.filter(pk=club_id).values_list(*WAITING).first()
        waiting = Waiting(*found) if found else Waiting()
        if waiting.session is None:
            return 0
        rows = _rating_rows(ClubResult.objects.filter(_from(*waiting.session), club_id=club_id))
        priors = ratings_before({row.player_id for row in rows}, *waiting.session)
        changed = _rate_rows(rows, priors)
        with transaction.atomic():
            if _lock(club_id) != waiting:
                continue
            _write_ratings(changed)
            Club.objects.filter(pk=club_id).update(
                rate_from_played=None, rate_from_club_sheet=None
            )
            return len(changed)
    return 0


def waiting_ratings(club_id: int, waiting: Waiting, priors: dict, end=None) -> dict:
    """``priors`` (player → (mu, sigma): the ratings before the club's first waiting session,
    ``waiting`` its state) carried through the waiting sessions that start before ``end``
    (None: all), as ``catch_up`` will store them: what the standings show while they wait.
    One query, for those sessions' rows alone."""
    if waiting.session is None or (end is not None and waiting.played >= end):
        return priors
    found = ClubResult.objects.filter(_from(*waiting.session), club_id=club_id)
    if end is not None:
        found = found.filter(played__lt=end)
    _rate_rows(_rating_rows(found), priors)
    return priors


# A catch-up waits for the end of the request whose write asked for it: the phone has its answer
# by then. Outside a request (a command, a thread), it runs as soon as the write is committed.
_requests = threading.local()
log = logging.getLogger(__name__)


def _catch_up_later(club_id: int) -> None:
    transaction.on_commit(partial(_after_commit, club_id))


def _after_commit(club_id: int) -> None:
    later = getattr(_requests, "clubs", None)
    if later is None:
        _caught_up(club_id)
    else:
        later.add(club_id)


def request_started(**kwargs) -> None:
    """Django's ``request_started``: the catch-ups asked for from now wait for its end."""
    _requests.clubs = set()


def request_finished(**kwargs) -> None:
    """Django's ``request_finished`` (the response sent): the catch-ups its writes asked for."""
    clubs, _requests.clubs = getattr(_requests, "clubs", None), None
    for club_id in sorted(clubs or ()):
        _caught_up(club_id)


def _caught_up(club_id: int) -> None:
    try:
        catch_up(club_id)
    except Exception:
        # They wait still, read exactly meanwhile: the next change or a rescore catches up.
        log.exception("The ratings of club %s were not caught up", club_id)


def store(club_sheet: ClubSheet, sheet: Sheet) -> None:
    """Write the rows of a session the club has just started counting, and rate from it."""
    waiting = _lock(club_sheet.club_id)
    seats = len(club_sheet.players)
    hands = _hands(sheet) if sheet.hand_count else ()
    lines = lines_of(sheet, seats, records_of(seats, hands, sheet.game_rules))
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
    if rows and rows[0].rank is not None:
        _placed(club_sheet.club_id, waiting, sheet.created, club_sheet.pk)


def started(club_id: int, club_sheets: Iterable[ClubSheet], sheets: Iterable[Sheet]) -> None:
    """Write the rows of sessions the club has just started, without a hand yet (a night's
    round): nothing to rate. Inside a write, the club locked."""
    names = ("club", "club_sheet", "player", "seat", "played", *FIGURES)
    rows = []
    for club_sheet, sheet in zip(club_sheets, sheets, strict=True):
        seats = len(club_sheet.players)
        lines = lines_of(sheet, seats, no_records(seats))
        for seat, (player, line) in enumerate(zip(club_sheet.players, lines, strict=True)):
            rows.append((club_id, club_sheet.pk, player, seat, sheet.created, *line.values()))
    bulk.insert(ClubResult, names, bulk.Columns(ClubResult, names).prepared(rows))


def remove(club_sheet: ClubSheet) -> None:
    """Stop counting a session (its rows go with it) and rate again what follows it."""
    # The club before the rows, as every write here locks them.
    waiting = _lock(club_sheet.club_id)
    played = club_sheet.sheet.created
    club_sheet_id = club_sheet.pk
    ranked = club_sheet.results.filter(rank__isnull=False).exists()
    club_sheet.delete()
    if ranked:
        _placed(club_sheet.club_id, waiting, played, club_sheet_id, rows=[])


def sheet_changed(sheet: Sheet, appended=None) -> None:
    """Store again the rows of the club session ``sheet`` is (if it is one) after the write
    path changed it, and rate from it when its places moved. Called inside the write's
    transaction, the sheet locked and its derived data up to date; ``appended`` is the hand
    just added, if that was the change (its records are folded in without reading the
    others, which any other change re-reads, as it re-scores them)."""
    try:
        club_sheet = sheet.club_sheet
    except ClubSheet.DoesNotExist:
        return
    waiting = _lock(club_sheet.club_id)
    # Read after the lock: a merge may have changed who sat there.
    stored = list(ClubResult.objects.filter(club_sheet_id=club_sheet.pk).order_by("seat"))
    if not stored:
        # Detached meanwhile: nothing left to count.
        return
    records = _records_after(sheet, stored, appended)
    fresh = lines_of(sheet, len(stored), records)
    moved = [row.rank for row in stored] != [line["rank"] for line in fresh]
    changed = _refreshed(stored, fresh)
    bulk.update(
        ClubResult,
        FIGURES,
        [(row.pk, *(getattr(row, name) for name in FIGURES)) for row in changed],
    )
    if moved:
        _placed(club_sheet.club_id, waiting, stored[0].played, club_sheet.pk, rows=stored)


def _records_after(sheet: Sheet, stored: list[ClubResult], appended) -> list[dict]:
    """Each seat's hand records after a change: the stored ones with the hand just added
    folded in (``appended``), or read again from every hand after any other change."""
    if appended is None:
        return records_of(len(stored), _hands(sheet), sheet.game_rules)
    records = [
        {name: row.record.get(name) for name in ("best", "worst", "partners")} for row in stored
    ]
    fold(records, tuple(getattr(appended, name) for name in Hand.RECORDED), sheet.game_rules)
    return records


def _refreshed(stored: list[ClubResult], fresh: list[dict]) -> list[ClubResult]:
    """The stored rows whose fields differ from their fresh ``lines_of``, each given them."""
    changed = []
    for row, line in zip(stored, fresh, strict=True):
        if any(getattr(row, name) != value for name, value in line.items()):
            for name, value in line.items():
                setattr(row, name, value)
            changed.append(row)
    return changed


def merged(club_id: int, keep_id: int, drop_id: int) -> None:
    """Count every row of ``drop`` for ``keep`` and rate again from the first of them. Inside
    a write, the club locked."""
    waiting = _lock(club_id)
    first = (
        ClubResult.objects.filter(player_id=drop_id)
        .order_by(*ORDER)
        .values_list("played", "club_sheet_id")
        .first()
    )
    ClubResult.objects.filter(player_id=drop_id).update(player_id=keep_id)
    if first is not None:
        _placed(club_id, waiting, *first)


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
    _rate_rows(rows, {})
    return [vars(row) for row in rows]


FIELDS = ("club_sheet_id", "player_id", "seat", "played", *FIGURES, *RATING)


def recount(club: Club) -> bool:
    """Compute the club's rows afresh from its sessions and store them, every rating up to
    date, when the stored ones differed (True) from what they should be: the ratings that
    wait for ``catch_up`` are not compared, the figures beside them are."""
    with transaction.atomic():
        return _recounted(club)


def _recounted(club: Club) -> bool:
    waiting = _lock(club.pk)
    club_sheets = ClubSheet.objects.filter(club=club).select_related("sheet")
    hands = defaultdict(list)
    found = (
        Hand.objects.filter(sheet__club_sheet__club=club)
        .annotate(number=F("position") - F("sheet__hand_offset"))
        .order_by("sheet_id", "position")
    )
    for sheet_id, *hand in found.values_list("sheet_id", *Hand.RECORDED):
        hands[sheet_id].append(tuple(hand))
    fresh = fresh_rows(
        (s.pk, s.players, s.sheet, hands[s.sheet_id])
        for s in club_sheets.order_by("sheet__created", "id")
    )
    stored = list(ClubResult.objects.filter(club=club).order_by(*ORDER).values(*FIELDS))

    def shown(row: dict) -> dict:
        waits = waiting.covers(row["played"], row["club_sheet_id"])
        return {name: row[name] for name in FIELDS if not (waits and name in RATING)}

    if [shown(row) for row in stored] == [shown(row) for row in fresh]:
        return False
    ClubResult.objects.filter(club=club).delete()
    rows = bulk.Columns(ClubResult, FIELDS).prepared(
        [row[name] for name in FIELDS] for row in fresh
    )
    bulk.insert(ClubResult, ("club", *FIELDS), [(club.pk, *row) for row in rows])
    Club.objects.filter(pk=club.pk).update(
        rate_from_played=None, rate_from_club_sheet=None, rating_revision=F("rating_revision") + 1
    )
    return True
