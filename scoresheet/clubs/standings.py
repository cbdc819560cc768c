"""The club, read: the periods, the standings and a player's page. Every change to a club goes
through ``clubs.writes``.

The standings read only what the write path stores beside each session: one row per player
and session (``ClubResult``, kept by ``results`` in the same transaction as every change
to a session of the club or to the club's sessions), added up by the database for the period;
nothing is re-scored, no hand and no session's counters are read, so the club page and the
standings cost the same few queries, and about the same time, at any size. Definitions:

- **Hands**: the scored hands a player took part in. A passed deal is nobody's hand, and a
  dealer who sits out (docs/rules.md §6.4) did not play that hand.
- **Points**: the sum of the player's session totals; **per hand**: points over hands.
- **Sessions won**: sessions (with at least one hand) where the player's total was the best,
  ties included.
- **Hands taken**, and the **share made** of them; the **average contract** is the mean
  multiplier of the contracts taken (prise 1, garde 2, garde sans 4, garde contre 6).
- **Rating**: Weng–Lin's Plackett–Luce model (``openskill``), updated after each session in
  date order with the players ranked by their totals; shown as ``mu − 3·sigma``. A period shows
  the rating each player had at its end (every earlier session of the club counts: a rating
  is a running estimate, not restarted each month).
"""

from __future__ import annotations

import calendar
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db import connection
from django.db.models import Count, IntegerField, Max, Q, Sum
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.utils import timezone

from scoresheet import chart, numbers, player_names, scoring, stats
from scoresheet.clubs import ClubError, results
from scoresheet.models import Club, ClubPlayer, ClubResult, ClubSheet


def _(message: str) -> str:
    """Mark a message for translation; the caller translates it (gettext_noop)."""
    return message


# Periods


@dataclass(frozen=True)
class Period:
    """The sessions created from ``start`` to ``end`` (dates, both included; None: open)."""

    kind: str
    start: date | None = None
    end: date | None = None

    def bounds(self) -> tuple[datetime | None, datetime | None]:
        """The period as instants in the server's time zone: [from, until)."""
        zone = timezone.get_current_timezone()
        start = datetime.combine(self.start, time.min, zone) if self.start else None
        end = None
        if self.end:
            end = datetime.combine(self.end + timedelta(days=1), time.min, zone)
        return start, end

    def query(self) -> dict:
        """The period as the club page's query string parameters."""
        if self.kind == "range":
            return {
                "period": "range",
                "from": self.start.isoformat() if self.start else "",
                "to": self.end.isoformat() if self.end else "",
            }
        return {"period": self.kind}


def period_of(params, today: date | None = None) -> Period:
    """The period a club page asks for: "month", "year", "all" (the default) or "range" with
    "from" and "to" (ISO dates, either may be left out); raises ``ClubError`` on a bad date."""
    today = today or timezone.localdate()
    kind = params.get("period") or "all"
    if kind == "month":
        last = calendar.monthrange(today.year, today.month)[1]
        return Period("month", today.replace(day=1), today.replace(day=last))
    if kind == "year":
        return Period("year", date(today.year, 1, 1), date(today.year, 12, 31))
    if kind == "range":
        return _range_of(params)
    return Period("all")


def _range_of(params) -> Period:
    """The period from the "from" day to the "to" day, either left out; ``ClubError`` when it
    starts after it ends."""
    start = _day_of(params, "from", _("From"))
    end = _day_of(params, "to", _("To"))
    if start and end and start > end:
        raise ClubError(_("From: the period starts after it ends."))
    return Period("range", start, end)


def _day_of(params, name: str, label: str) -> date | None:
    """The day a range's end ``name`` gives (None: left out); ``ClubError`` naming the field
    (``label``) when it is not an ISO date from 2000 to 2100."""
    value = (params.get(name) or "").strip()
    if not value:
        return None
    try:
        day = date.fromisoformat(value)
    except ValueError:
        raise ClubError(_("%(field)s: give a date like 2026-09-30."), field=label) from None
    if not date(2000, 1, 1) <= day <= date(2100, 12, 31):
        raise ClubError(_("%(field)s: give a date from 2000 to 2100."), field=label)
    return day


# Standings


@dataclass
class Standing:
    """One player's line of the standings."""

    player: ClubPlayer
    sessions: int = 0
    hands: int = 0
    points: int = 0
    wins: int = 0
    taken: int = 0
    made: int = 0
    multipliers: int = 0
    rating: float = 0.0
    mu: float = 0.0
    sigma: float = 0.0
    leads: set = field(default_factory=set)

    # Rounded as every figure the app shows is (numbers.ratio: half up), so that the same hands
    # give the same figure here and on a session's summary and statistics.
    @property
    def per_hand(self) -> float | None:
        return numbers.ratio(self.points, self.hands, 1)

    @property
    def share_made(self) -> int | None:
        """Hands made, in percent of hands taken."""
        return numbers.percent(self.made, self.taken)

    @property
    def average_contract(self) -> float | None:
        """The mean multiplier of the contracts taken."""
        return numbers.ratio(self.multipliers, self.taken, 1)


# The standings' columns: (key, attribute); the page and the CSV label them.
COLUMNS = (
    ("sessions", "sessions"),
    ("hands", "hands"),
    ("points", "points"),
    ("per_hand", "per_hand"),
    ("wins", "wins"),
    ("taken", "taken"),
    ("made", "share_made"),
    ("contract", "average_contract"),
    ("rating", "rating"),
)
SORTS = {key for key, _attribute in COLUMNS} | {"name"}


@dataclass
class Standings:
    club: Club
    period: Period
    rows: list[Standing]
    # How many sessions of the club the period holds.
    session_count: int
    sort: str = "points"

    def played(self) -> list[Standing]:
        """The lines of the players who played in the period, in the standings' order."""
        return [row for row in self.rows if row.sessions]

    def absent(self) -> list[Standing]:
        """The lines of the roster players who did not play in the period, in that order."""
        return [row for row in self.rows if not row.sessions]

    def chart_points(self) -> tuple[dict[int, tuple[int, ...]], list[str], list[int]]:
        """The chart of each player's cumulative points after each session of the period
        (at most chart.POINTS of them, as the sheet's chart): points, names and ends. One
        query over the period's stored results."""
        names = {row.player.pk: row.player.name for row in self.rows if row.sessions}
        players = sorted(names)
        found = (
            _results(self.club, self.period)
            .order_by(*results.ORDER)
            .values_list("club_sheet_id", "player_id", "points")
        )
        points = _cumulative(found, players, set(chart.sampled(self.session_count)))
        if not players:
            return {}, [], []
        return points, [names[pk] for pk in players], list(points[max(points)])


def _cumulative(found, players: list[int], wanted: set[int]) -> dict[int, tuple[int, ...]]:
    """Each player's points (in the order of ``players``) before the first session and after
    each ``wanted`` one and the last, from their results (club sheet, player, points) in the
    rating's order; the sessions numbered from 1."""
    running = dict.fromkeys(players, 0)
    points = {0: tuple(running.values())}
    number, current = 0, None
    for club_sheet_id, player, score in found:
        if club_sheet_id != current:
            if number in wanted and number:
                points[number] = tuple(running.values())
            number, current = number + 1, club_sheet_id
        running[player] += score
    if number:
        points[number] = tuple(running.values())
    return points


RATING_MODEL = results.RATING_MODEL


def _club_sheets(club: Club, period: Period):
    """The club's sessions in the period, oldest first (the rating's order)."""
    start, end = period.bounds()
    found = club.club_sheets.all()
    if start:
        found = found.filter(sheet__created__gte=start)
    if end:
        found = found.filter(sheet__created__lt=end)
    return found.order_by("sheet__created", "id")


def _results(club: Club, period: Period):
    """The stored results (one per player and session) of the period's sessions."""
    start, end = period.bounds()
    found = ClubResult.objects.filter(club=club)
    if start:
        found = found.filter(played__gte=start)
    if end:
        found = found.filter(played__lt=end)
    return found


def latest_club_sheets(club: Club, period: Period, count: int) -> list[ClubSheet]:
    """The period's latest ``count`` sessions, newest first, for the club page's list."""
    found = _club_sheets(club, period).select_related("sheet").defer("sheet__statistics")
    return list(found.reverse()[:count])


def standings(club: Club, period: Period = Period("all"), sort: str = "points") -> Standings:
    """Every roster player's line for the period (those who played first), added up by the
    database from the stored results: three queries whatever the club's size, and a fourth
    while ratings of the period wait to be rated again (``results.waiting_ratings``)."""
    start, end = period.bounds()
    session_count, *waiting = (
        Club.objects.filter(pk=club.pk)
        .annotate(sessions=Count("club_sheets", filter=_created_within(start, end)))
        .values_list("sessions", *results.WAITING)
        .get()
    )
    waiting = results.Waiting(*waiting)
    roster = list(club.players.annotate(**results.last_rating(_rated_before(waiting, end))))
    ratings = results.waiting_ratings(
        club.pk,
        waiting,
        {
            player.pk: (player.last_mu, player.last_sigma)
            for player in roster
            if player.last_mu is not None
        },
        end,
    )
    totals = _totals(club, period)
    rows = [_line(player, totals.get(player.pk), ratings) for player in roster]
    mark_leaders([row for row in rows if row.sessions])
    result = Standings(club, period, rows, session_count)
    sort_rows(result, sort)
    return result


def _created_within(start: datetime | None, end: datetime | None) -> Q:
    """A club's sessions created from ``start`` until ``end`` (None: open), as a filter on
    the club."""
    within = Q()
    if start:
        within &= Q(club_sheets__sheet__created__gte=start)
    if end:
        within &= Q(club_sheets__sheet__created__lt=end)
    return within


def _rated_before(waiting: results.Waiting, end: datetime | None) -> Q:
    """The results whose stored ratings give each player's rating at the period's end (None:
    open): before the first session whose rating waits, when it starts before that end (the
    standings rate on from there); otherwise those before the end."""
    if waiting.session is not None and (end is None or waiting.played < end):
        return results.before(*waiting.session)
    return Q(played__lt=end) if end else Q()


# What a player's line adds up from the period's stored results.
SUMMED = ("sessions", "hands", "points", "wins", "taken", "made", "multipliers")


def _totals(club: Club, period: Period) -> dict[int, dict]:
    """Each player's figures (``SUMMED``) over the period, added up by the database; a player
    without a session in it is left out."""
    return {
        line["player"]: line
        for line in _results(club, period)
        .order_by()
        .values("player")
        .annotate(
            sessions=Count("id"),
            hands=Sum("hands"),
            points=Sum("points"),
            wins=Count("id", filter=Q(won=True)),
            taken=Sum("taken"),
            made=Sum("made"),
            multipliers=Sum("contracts"),
        )
    }


def _line(player: ClubPlayer, figures: dict | None, ratings: dict) -> Standing:
    """A player's line from their figures for the period (None: no session in it) and their
    rating at its end (``ratings``: player → (mu, sigma); a player not in it has the model's
    default)."""
    line = Standing(player, mu=RATING_MODEL.mu, sigma=RATING_MODEL.sigma)
    if not figures:
        return line
    for name in SUMMED:
        setattr(line, name, figures[name])
    if player.pk in ratings:
        line.mu, line.sigma = ratings[player.pk]
    line.rating = numbers.rounded(line.mu - 3 * line.sigma, 1)
    return line


def mark_leaders(rows: list[Standing]) -> None:
    """Mark, in each column, the players with the best value (the highest)."""
    for key, attribute in COLUMNS:
        values = [getattr(row, attribute) for row in rows]
        known = [v for v in values if v is not None]
        if not known:
            continue
        best = max(known)
        for row, value in zip(rows, values, strict=True):
            if value == best:
                row.leads.add(key)


def sort_rows(result: Standings, sort: str) -> None:
    """Order the lines by a column, best first (by name for "name"), or the other way round
    when ``sort`` starts with "-" (``-points``); ties by name, and those who played in the
    period before those who did not, either way."""
    reverse = sort.startswith("-")
    sort = sort.removeprefix("-")
    if sort not in SORTS:
        sort, reverse = "points", False
    result.sort = "-" + sort if reverse else sort
    attribute = dict(COLUMNS).get(sort)
    rows = result.rows
    rows.sort(
        key=lambda row: player_names.collation(row.player.name), reverse=reverse and not attribute
    )
    if attribute is not None:
        # Stable sorts: equal values keep the names' order; a missing value comes last.
        rows.sort(key=lambda row: getattr(row, attribute) or 0, reverse=not reverse)
        rows.sort(key=lambda row: getattr(row, attribute) is None)
    rows.sort(key=lambda row: not row.sessions)


# A player's page

# The sessions a player's page lists at once, the latest first; earlier ones a link away.
PLAYER_PAGE = 20


@dataclass
class PlayerRecord:
    player: ClubPlayer
    # One page of the player's sessions, newest first (``PLAYER_PAGE`` at most); the figures
    # below are over all of them.
    sessions: list[dict]
    best: dict | None
    worst: dict | None
    contracts: list[stats.ContractRecord]
    partners: list[tuple[str, int]]
    best_streak: int
    session_streak: int
    session_count: int = 0
    # The paging: sessions not shown before and after this page, and the ``before`` of the
    # page of earlier ones (of later ones: None when that is the latest page).
    hidden: int = 0
    later: int = 0
    earlier_page: int = 1
    later_page: int | None = None


def _score(path: str):
    return Cast(KT(path), IntegerField())


def _extreme(played, path: str, highest: bool) -> dict | None:
    """The player's best (or worst) hand, the earliest session's on a tie, as the earliest
    hand's within a session (each row stores its own)."""
    score = _score(f"record__{path}__0")
    found = (
        played.annotate(score=score, number=_score(f"record__{path}__1"))
        .filter(score__isnull=False)
        .select_related("club_sheet__sheet")
        .only("club_sheet__sheet__name", "club_sheet__sheet__token")
        .order_by(score.desc() if highest else score.asc(), *results.ORDER)
        .first()
    )
    if found is None:
        return None
    return {"sheet": found.club_sheet.sheet, "score": found.score, "number": found.number}


def _session_streak(player: ClubPlayer) -> int:
    """The longest run of sessions won in a row (in the rating's order), counted by the
    database: each run of won rows is an island of equal (row's place − place among won)."""
    quote = connection.ops.quote_name
    order = ", ".join(quote(name) for name in results.ORDER)
    sql = (
        "SELECT MAX(n) FROM (SELECT COUNT(*) AS n FROM ("
        f"SELECT {quote('won')}, ROW_NUMBER() OVER (ORDER BY {order})"
        f" - ROW_NUMBER() OVER (PARTITION BY {quote('won')} ORDER BY {order}) AS island"
        f" FROM {quote(ClubResult._meta.db_table)} WHERE {quote('player_id')} = %s"
        f") AS rows_ WHERE {quote('won')} GROUP BY island) AS runs"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [player.pk])
        return cursor.fetchone()[0] or 0


def _partners(player: ClubPlayer) -> dict[int, int]:
    """How often each roster player was this one's partner at 5 players, added up by the
    database: each row's ``record["partners"]`` is by seat, the session's ``players`` say who
    sat there."""
    quote = connection.ops.quote_name
    club_results = quote(ClubResult._meta.db_table)
    club_sheets = quote(ClubSheet._meta.db_table)
    if connection.vendor == "postgresql":
        partner = "(s.players ->> (p.key)::int)::int"
        times = "SUM((p.value)::int)"
        each = "CROSS JOIN LATERAL jsonb_each_text(r.record -> 'partners') AS p"
    else:
        partner = "json_extract(s.players, '$[' || p.key || ']')"
        times = "SUM(p.value)"
        each = ", json_each(r.record, '$.partners') AS p"
    sql = (
        f"SELECT {partner}, {times} FROM {club_results} AS r"
        f" JOIN {club_sheets} AS s ON s.id = r.club_sheet_id {each}"
        " WHERE r.player_id = %s GROUP BY 1"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [player.pk])
        return {int(pk): int(count) for pk, count in cursor.fetchall()}


def player_record(club: Club, player: ClubPlayer, before: int | None = None) -> PlayerRecord:
    """A player's figures over all their sessions (best and worst hand, contracts taken,
    favourite partners at 5 players, streaks), added up by the database from the stored
    results, and one page of those sessions: the latest ``PLAYER_PAGE``, or those before the
    ``before``-th (counted from the first, 1). The same few queries at any club size."""
    played = ClubResult.objects.filter(player=player)
    totals = played.aggregate(
        count=Count("pk"), best_streak=Max(_score("record__streak")), **_contract_sums()
    )
    count = totals["count"]
    latest = before is None or not 1 < before <= count
    end = count + 1 if latest else before
    start = max(1, end - PLAYER_PAGE)
    sessions = _page(played, count + 1 - end, count + 1 - start)
    partners = _favourite_partners(club, player)
    return PlayerRecord(
        player=player,
        sessions=sessions,
        best=_extreme(played, "best", highest=True),
        worst=_extreme(played, "worst", highest=False),
        contracts=_contracts(totals),
        partners=partners,
        best_streak=totals["best_streak"] or 0,
        session_streak=_session_streak(player),
        session_count=count,
        hidden=start - 1,
        later=count - end + 1,
        earlier_page=start,
        later_page=_later_page(end, count, latest),
    )


def _contract_sums() -> dict:
    """The sums, over a player's rows, of the hands they took and made of each contract
    (``taken_garde``, ``made_garde``, …), for ``aggregate``."""
    return {
        key: Sum(_score(f"record__contracts__{contract}__{index}"))
        for contract in scoring.Contract
        for key, index in ((f"taken_{contract}", 0), (f"made_{contract}", 1))
    }


def _contracts(totals: dict) -> list[stats.ContractRecord]:
    """Each contract the player took, with how often, and how often they made it."""
    return [
        stats.ContractRecord(
            contract, totals[f"taken_{contract}"], totals[f"made_{contract}"] or 0
        )
        for contract in scoring.Contract
        if totals[f"taken_{contract}"]
    ]


def _page(played, first: int, stop: int) -> list[dict]:
    """The player's sessions from the ``first``-th newest up to the ``stop``-th (excluded),
    as the player's page lists them."""
    newest_first = [f"-{name}" for name in results.ORDER]
    page = (
        played.select_related("club_sheet__sheet")
        .only(
            "seat",
            "points",
            "hands",
            "rank",
            "won",
            "club_sheet__players",
            "club_sheet__sheet__name",
            "club_sheet__sheet__created",
            "club_sheet__sheet__token",
            "club_sheet__sheet__view_token",
        )
        .order_by(*newest_first)[first:stop]
    )
    return [_session(result) for result in page]


def _session(result: ClubResult) -> dict:
    """A line of the player's page: one of their sessions and how they did in it."""
    return {
        "sheet": result.club_sheet.sheet,
        "total": result.points,
        # A session without a hand yet: everyone shares the first place.
        "rank": result.rank or 1,
        "seats": len(result.club_sheet.players),
        "won": result.won,
        "hands": result.hands,
    }


def _favourite_partners(club: Club, player: ClubPlayer) -> list[tuple[str, int]]:
    """The three roster players most often this one's partner at 5 players (name, times),
    the most often first, then by name."""
    names = dict(club.players.values_list("pk", "name"))
    partners = [(names[pk], times) for pk, times in _partners(player).items() if pk in names]
    partners.sort(key=lambda item: (-item[1], player_names.collation(item[0])))
    return partners[:3]


def _later_page(end: int, count: int, latest: bool) -> int | None:
    """The ``before`` of the page of later sessions than a page that ends before the
    ``end``-th of ``count``: None when that is the latest page."""
    if latest or end + PLAYER_PAGE > count:
        return None
    return end + PLAYER_PAGE
