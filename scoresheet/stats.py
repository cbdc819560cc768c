"""A session's statistics, per player and for the table, from its scored sheet in one pass.

Pure Python like ``scoring`` and ``tally``: no Django import, no I/O. The definitions:

- **Attack** is the taker and, at 5 players, the called partner; every other player in the
  hand is a **defender**. A dealer who sits out the hand (docs/rules.md §6.4) is neither, and the
  hand counts for nothing in their statistics, streak included. A taker who called
  themselves ("alone") has no partner.
- **Made / lost** and the **success rate by contract** count the hands a player *took*.
- **Average as taker / as defender**: the mean of the player's own row score over the hands they
  took / defended, rounded to the point (half away from zero). Passed deals are in neither.
- **Petit au bout won / lost**: the player's camp took it / the other camp did.
- **Chelems**: made or announced and failed while in attack (taker or partner); defence chelems
  are those the player's defence made.
- **Biggest hand**: the scored hand with the largest value per defender, ``|per_defender|``:
  what each defender paid or received, the size of the hand whatever the table or the partner.
  Ties go to the earliest hand.
- **Winning streak**: consecutive scored hands in which the player's score was positive. A
  passed deal neither breaks nor extends it (nobody played); a zero or negative score ends it.
  The session's longest streak lists every player who reached that length, each with their
  earliest such run.
"""

from __future__ import annotations

from bisect import insort
from collections import Counter
from collections.abc import Iterable, Sequence
from copy import copy
from dataclasses import dataclass, replace
from typing import NamedTuple

from scoresheet import numbers
from scoresheet.scoring import Camp, Chelem, Contract, Poignee
from scoresheet.tally import Row

__all__ = [
    "BiggestHand",
    "ContractCount",
    "ContractRecord",
    "Counters",
    "PlayerStats",
    "PoigneeCount",
    "SeatCounts",
    "Statistics",
    "Streak",
    "Swing",
    "passed_in",
]

# Game terms stay French in every language (the same labels as models.Contract).
CONTRACT_LABELS = {
    Contract.PRISE: "Prise",
    Contract.GARDE: "Garde",
    Contract.GARDE_SANS: "Garde sans",
    Contract.GARDE_CONTRE: "Garde contre",
}
MADE_CHELEMS = (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE)


@dataclass(frozen=True)
class ContractRecord:
    """How often a player took one contract and made it."""

    contract: Contract
    taken: int
    made: int

    @property
    def label(self) -> str:
        return CONTRACT_LABELS[self.contract]

    @property
    def lost(self) -> int:
        return self.taken - self.made

    @property
    def rate(self) -> float | None:
        """Made over taken, from 0 to 1; None when never taken."""
        return self.made / self.taken if self.taken else None

    @property
    def percent(self) -> int | None:
        return numbers.percent(self.made, self.taken)


@dataclass(frozen=True)
class PoigneeCount:
    size: Poignee
    count: int


@dataclass(frozen=True)
class PlayerStats:
    """One player's session, by seat."""

    seat: int
    total: int
    taken: int
    made: int
    by_contract: tuple[ContractRecord, ...]
    taker_total: int
    defended: int
    defender_total: int
    called: int
    petits_won: int
    petits_lost: int
    poignees: tuple[PoigneeCount, ...]
    chelems_made: int
    chelems_failed: int
    defence_chelems: int
    best_streak: int

    @property
    def lost(self) -> int:
        return self.taken - self.made

    @property
    def percent(self) -> int | None:
        """Contracts made, in percent of those taken; None when the player never took."""
        return numbers.percent(self.made, self.taken)

    @property
    def taker_average(self) -> int | None:
        return numbers.ratio(self.taker_total, self.taken)

    @property
    def defender_average(self) -> int | None:
        return numbers.ratio(self.defender_total, self.defended)

    @property
    def poignees_shown(self) -> int:
        return sum(p.count for p in self.poignees)

    @property
    def poignee_sizes(self) -> tuple[PoigneeCount, ...]:
        """The sizes of poignée this player showed at least once."""
        return tuple(p for p in self.poignees if p.count)

    @property
    def contracts_taken(self) -> tuple[ContractRecord, ...]:
        """The contracts this player took at least once."""
        return tuple(record for record in self.by_contract if record.taken)


@dataclass(frozen=True)
class ContractCount:
    contract: Contract
    count: int

    @property
    def label(self) -> str:
        return CONTRACT_LABELS[self.contract]


@dataclass(frozen=True)
class BiggestHand:
    """The scored hand with the largest value per defender."""

    number: int
    taker: int
    partner: int | None
    contract: Contract
    made: bool
    per_defender: int
    scores: tuple[int, ...]

    @property
    def label(self) -> str:
        return CONTRACT_LABELS[self.contract]

    @property
    def value(self) -> int:
        """What each defender paid or received."""
        return abs(self.per_defender)


@dataclass(frozen=True)
class Streak:
    """A run of hands, ``first`` to ``last`` (hand numbers), a player scored positive in."""

    seat: int
    length: int
    first: int
    last: int


@dataclass(frozen=True)
class Swing:
    """The scored hand with the widest gap between its best and worst score, ``max − min``
    (the summary's biggest swing): its number, scores, and the seat that sat it out (None)."""

    number: int
    scores: tuple[int, ...]
    out: int | None

    @property
    def gap(self) -> int:
        return max(self.scores) - min(self.scores)

    @classmethod
    def of(cls, row: Row) -> Swing:
        return cls(row.number, tuple(row.scores), row.breakdown.sitting_out)

    def to_data(self) -> list:
        return [self.number, list(self.scores), self.out]

    @classmethod
    def from_data(cls, data: list | None) -> Swing | None:
        if data is None:
            return None
        number, scores, out = data
        return cls(number, tuple(scores), out)


def _gap(row: Row) -> int:
    # The seat sitting out scores 0, which never widens it: the others sum to zero.
    return max(row.scores) - min(row.scores)


def _beats(row: Row, biggest: BiggestHand | None) -> bool:
    """Whether scored hand ``row`` is bigger than ``biggest`` (ties go to the earliest)."""
    if biggest is None:
        return True
    value = abs(row.breakdown.per_defender)
    return value > biggest.value or (value == biggest.value and row.number < biggest.number)


def _swing_beats(row: Row, swing: Swing | None) -> bool:
    if swing is None:
        return True
    gap = _gap(row)
    return gap > swing.gap or (gap == swing.gap and row.number < swing.number)


def _biggest(row: Row) -> BiggestHand:
    hand, detail = row.hand, row.breakdown
    return BiggestHand(
        number=row.number,
        taker=_seat(hand.taker),
        partner=_seat(hand.partner),
        contract=Contract(hand.contract),
        made=detail.made,
        per_defender=detail.per_defender,
        scores=tuple(row.scores),
    )


def marks(scores: Sequence[int], passed: bool, out: int | None) -> tuple[bool | None, ...]:
    """What a hand means for each player's streak: a positive score (True), a score that ends
    a run (False), or nothing (None: a passed deal, or the seat ``out`` that sat it out)."""
    if passed:
        return (None,) * len(scores)
    return tuple(None if seat == out else score > 0 for seat, score in enumerate(scores))


def row_marks(row: Row) -> tuple[bool | None, ...]:
    """``marks`` of a scored row."""
    out = None if row.passed else row.breakdown.sitting_out
    return marks(row.scores, row.passed, out)


def _runs(seat: int, marks: Sequence[tuple[int, bool | None]]) -> tuple[list[Streak], tuple]:
    """The runs of positive scores among (number, mark) in play order, and the last one still
    going at the end (its length and first hand; 0, 0 after a score that ended it)."""
    runs, run, first, last = [], 0, 0, 0
    for number, mark in marks:
        if mark is True:
            if not run:
                first = number
            run, last = run + 1, number
        elif mark is False:
            if run:
                runs.append(Streak(seat, run, first, last))
            run, first = 0, 0
    if run:
        runs.append(Streak(seat, run, first, last))
    return runs, (run, first)


def _rank(run: Streak) -> tuple[int, int]:
    """Which of a player's runs is the longest: the longer, then the earlier."""
    return run.length, -run.first


def _run_start(marks: dict, seat: int, below: int, first_read: int) -> int | None:
    """The first hand of the runs of ``seat`` to count again, for a change just after hand
    ``below``: the hand after the nearest one at or before it whose score ended a run, or the
    first hand; None when the hands read (from ``first_read``) stop short of either."""
    for number in range(below, first_read - 1, -1):
        if marks[number][seat] is False:
            return number + 1
    if first_read > 1 and below >= 1:
        return None
    return 1


def _run_end(marks: dict, seat: int, above: int, last_read: int, count: int) -> int | None:
    """The last hand of the runs of ``seat`` to count again, for a change just before hand
    ``above``: the hand before the nearest one from it whose score ended a run, or the last
    hand (``count``); None when the hands read (to ``last_read``) stop short of either."""
    for number in range(above, last_read + 1):
        if marks[number][seat] is False:
            return number - 1
    if last_read < count:
        return None
    return count


@dataclass(frozen=True)
class Statistics:
    """A session's statistics: ``players`` in seat order, then the table's."""

    players: tuple[PlayerStats, ...]
    hands: int
    passed: int
    contracts: tuple[ContractCount, ...]
    biggest: BiggestHand | None
    streaks: tuple[Streak, ...]

    @property
    def scored(self) -> int:
        return self.hands - self.passed

    @property
    def streak_length(self) -> int:
        return self.streaks[0].length if self.streaks else 0


def _counted(counter: Counter) -> dict:
    """A counter as stored: what was counted at least once, so that a hand counted then taken
    back (a correction) leaves the counters as if it never was."""
    return {key: count for key, count in counter.items() if count}


def _seat(value: object) -> int | None:
    """A seat from a hand's input (an int, or digits as the forms may give); None for none."""
    if value is None or value == "":
        return None
    return int(value)


# Each enum's members by value: calling an enum costs more than the rest of counting a hand
# (a change of rules counts every hand of the session again).
_CONTRACTS = {member.value: member for member in Contract}
_CAMPS = {member.value: member for member in Camp}
_CHELEMS = {member.value: member for member in Chelem}


class _Played(NamedTuple):
    """What a scored hand says about each seat that played it, read once from its row (a
    tuple: a long sheet makes one per hand)."""

    taker: int | None
    partner: int | None
    contract: Contract
    made: bool
    petit: Camp | None
    chelem: Chelem | None
    defence_chelem: bool
    sitting_out: int | None

    @classmethod
    def of(cls, row: Row) -> _Played:
        hand, detail = row.hand, row.breakdown
        return cls(
            taker=_seat(hand.taker),
            partner=_seat(hand.partner),
            contract=_CONTRACTS[hand.contract],
            made=detail.made,
            petit=_CAMPS[hand.petit_au_bout] if hand.petit_au_bout else None,
            chelem=_CHELEMS[hand.chelem] if hand.chelem else None,
            defence_chelem=hand.defence_chelem,
            sitting_out=detail.sitting_out,
        )

    @property
    def chelem_made(self) -> bool:
        """A chelem made, by the attack or the defence (the summary's chelems)."""
        return self.chelem in MADE_CHELEMS or bool(self.defence_chelem)

    def attacks(self, seat: int) -> bool:
        """Whether ``seat`` played in attack (the taker or the partner), else in defence."""
        return seat == self.taker or seat == self.partner


class SeatCounts:
    """One player's counters while the rows go by."""

    def __init__(self, seat: int) -> None:
        self.taken = Counter()
        self.made = Counter()
        self.taker_total = 0
        self.defended = 0
        self.defender_total = 0
        self.called = 0
        self.petits_won = 0
        self.petits_lost = 0
        self.poignees = Counter()
        self.chelems_made = 0
        self.chelems_failed = 0
        self.defence_chelems = 0
        # The current run of positive scores, and the player's earliest longest one.
        self.run = 0
        self.run_first = 0
        self.best = Streak(seat=seat, length=0, first=0, last=0)

    def follow(self, seat: int, score: int, number: int) -> None:
        """Hand ``number``, which this player played and scored ``score`` in, extends their
        run (positive) or ends it."""
        if score > 0:
            if not self.run:
                self.run_first = number
            self.run += 1
            if self.run > self.best.length:
                self.best = Streak(seat, self.run, self.run_first, number)
        else:
            self.run, self.run_first = 0, 0

    def count(self, seat: int, score: int, played: _Played, sign: int) -> None:
        """Count (``sign`` 1) or take back (-1) a scored hand ``played`` that this player, at
        ``seat``, played and scored ``score`` in."""
        if seat == played.taker:
            self.taken[played.contract] += sign
            self.made[played.contract] += sign * played.made
            self.taker_total += sign * score
        elif seat == played.partner:
            self.called += sign
        else:
            self.defended += sign
            self.defender_total += sign * score
        attack = played.attacks(seat)
        if played.petit is not None:
            # Won when it went to the camp this player was in.
            won = (played.petit == Camp.ATTACK) == attack
            self.petits_won += sign * won
            self.petits_lost += sign * (not won)
        if attack:
            if played.chelem is not None:
                self.chelems_made += sign * (played.chelem in MADE_CHELEMS)
                self.chelems_failed += sign * (played.chelem == Chelem.ANNOUNCED_FAILED)
        else:
            self.defence_chelems += sign * played.defence_chelem

    def best_among(self, runs: Sequence[Streak], low: int, high: int) -> bool:
        """This player's longest run once their runs from hand ``low`` to ``high`` are counted
        again (``runs``); False when the longest was among them and is now shorter: the next
        longest is unknown without every hand."""
        top = max(runs, key=_rank, default=None)
        best = self.best
        # A run lies between two hands that ended a run, so it was among those counted again
        # when it starts in the range (or just after it: a deleted hand's own run, still
        # numbered as it was).
        if best.length and low <= best.first <= high + 1:
            if top is None or top.length < best.length:
                return False
            self.best = top
        elif top is not None and _rank(top) > _rank(best):
            self.best = top
        return True

    def renumbered(self, deleted: int) -> None:
        """Hand ``deleted`` was deleted: the hand numbers after it move down (a run through it
        is the caller's to repair: ``Counters.repair``)."""

        def moved(number: int) -> int:
            return number - 1 if number > deleted else number

        self.run_first = moved(self.run_first)
        best = self.best
        self.best = Streak(best.seat, best.length, moved(best.first), moved(best.last))

    def restarted(self) -> SeatCounts:
        """The same counts with no run yet: the streaks are to be followed again."""
        counts = copy(self)
        counts.run, counts.run_first = 0, 0
        counts.best = Streak(seat=self.best.seat, length=0, first=0, last=0)
        return counts

    def to_data(self) -> dict:
        data = {
            name: _counted(value) if isinstance(value, Counter) else value
            for name, value in vars(self).items()
        }
        data["best"] = [self.best.length, self.best.first, self.best.last]
        return data

    @classmethod
    def from_data(cls, seat: int, data: dict) -> SeatCounts:
        counts = cls(seat)
        for name, value in data.items():
            if name == "best":
                counts.best = Streak(seat, *value)
            elif isinstance(value, dict):
                setattr(counts, name, Counter(value))
            else:
                setattr(counts, name, value)
        return counts


def passed_in(data: dict) -> int:
    """The deals everyone passed that stored counters (``Counters.to_data``) hold, without
    reading the rest: 0 for empty ones."""
    return data.get("passed", 0) if data else 0


class Counters:
    """The statistics' running counters: ``add`` folds in one more row, so a new hand updates
    them without reading the others. ``to_data`` and ``from_data`` store them as JSON."""

    def __init__(self, seats: int) -> None:
        self.seats = [SeatCounts(seat) for seat in range(seats)]
        self.contracts = Counter()
        self.hands = 0
        self.passed = 0
        self.chelems = 0
        # The numbers of those hands, in play order: the summary reads them by number.
        self.chelem_hands: list[int] = []
        self.failed = 0
        self.biggest: BiggestHand | None = None
        self.swing: Swing | None = None

    def add(self, row: Row) -> None:
        """Count hand ``row`` (the next one in play order)."""
        # The streaks follow it as each player's sums count it (one pass over the seats).
        self._count(row, 1, follow=True)
        if row.passed:
            return
        if _beats(row, self.biggest):
            self.biggest = _biggest(row)
        if _swing_beats(row, self.swing):
            self.swing = Swing.of(row)

    def _count(self, row: Row, sign: int, follow: bool = False) -> None:
        """Count (``sign`` 1) or take back (-1) what hand ``row`` adds to the sums, whatever
        its place: everything but the biggest hand, the swing and, unless ``follow`` (a hand
        added last), the streaks."""
        self.hands += sign
        if row.passed:
            self.passed += sign
            return
        played = _Played.of(row)
        number = row.number
        self.contracts[played.contract] += sign
        self._count_chelem(number, played.chelem_made, sign)
        self.failed += sign * (played.chelem == Chelem.ANNOUNCED_FAILED)
        for seat, size in row.hand.poignees.items():
            if size:
                self.seats[_seat(seat)].poignees[Poignee(size)] += sign
        for seat, (counts, score) in enumerate(zip(self.seats, row.scores, strict=True)):
            # docs/rules.md §6.4: a dealer who sat this hand out counts it for nothing, as a
            # passed deal does.
            if seat != played.sitting_out:
                counts.count(seat, score, played, sign)
                if follow:
                    counts.follow(seat, score, number)

    def _count_chelem(self, number: int, made: bool, sign: int) -> None:
        """The summary's chelems: hand ``number`` counted (``sign`` 1) or taken back (-1) among
        the hands with a chelem made (``made``), by the attack or the defence."""
        if not made:
            return
        self.chelems += sign
        if sign > 0:
            insort(self.chelem_hands, number)
        else:
            self.chelem_hands.remove(number)

    def replaced(self, old: Row, new: Row) -> set[str]:
        """Hand ``old.number`` now reads ``new`` (a correction): the sums follow at once; what
        this cannot know from the counters alone is returned, to be counted again from every
        hand: ``"biggest"`` (the biggest hand was this one and shrank), ``"swing"`` (the same
        for the swing). The streaks of the players whose mark changed (``marks``) are the
        caller's to ``repair``."""
        self._count(old, -1)
        self._count(new, 1)
        stale = set()
        if not self._biggest_follows(old, new):
            stale.add("biggest")
        if not self._swing_follows(old, new):
            stale.add("swing")
        return stale

    def _biggest_follows(self, old: Row, new: Row) -> bool:
        """The biggest hand after hand ``old.number`` now reads ``new``; False when it was that
        hand and shrank: the next biggest is unknown without every hand."""
        biggest = self.biggest
        if biggest is not None and biggest.number == old.number:
            if new.passed or abs(new.breakdown.per_defender) < biggest.value:
                return False
            self.biggest = _biggest(new)
        elif not new.passed and _beats(new, biggest):
            self.biggest = _biggest(new)
        return True

    def _swing_follows(self, old: Row, new: Row) -> bool:
        """The swing after hand ``old.number`` now reads ``new``; False when it was that hand
        and narrowed, as ``_biggest_follows``."""
        swing = self.swing
        if swing is not None and swing.number == old.number:
            if new.passed or _gap(new) < swing.gap:
                return False
            self.swing = Swing.of(new)
        elif not new.passed and _swing_beats(new, swing):
            self.swing = Swing.of(new)
        return True

    def removed(self, row: Row) -> set[str]:
        """Hand ``row`` was deleted and the later ones renumbered: the sums follow, the hand
        numbers kept move down; returns what must be counted again, as ``replaced``. The
        streaks of the players who played it are the caller's to ``repair``."""
        self._count(row, -1)
        stale = set()
        number = row.number
        self.chelem_hands = [n - 1 if n > number else n for n in self.chelem_hands]
        for counts in self.seats:
            counts.renumbered(number)
        if self.biggest is not None:
            if self.biggest.number == number:
                stale.add("biggest")
            elif self.biggest.number > number:
                self.biggest = replace(self.biggest, number=self.biggest.number - 1)
        if self.swing is not None:
            if self.swing.number == number:
                stale.add("swing")
            elif self.swing.number > number:
                self.swing = replace(self.swing, number=self.swing.number - 1)
        return stale

    def repair(
        self,
        seats: Iterable[int],
        around: Sequence[tuple[int, Sequence[bool | None]]],
        below: int,
        above: int,
        count: int,
    ) -> bool:
        """The streaks of ``seats`` after a change between hands ``below`` and ``above`` (a
        corrected hand's two neighbours; a deleted hand's, as now numbered), from ``around``:
        (number, ``marks``) of consecutive hands near it, numbered as now, of ``count``.

        A change only moves the runs between the nearest hands on either side where the
        player's score ended a run: those are counted again; a longer run elsewhere stays the
        longest, an equal one stays the earliest unless a new run starts before it. Returns
        False when that is not enough to know (a run reaching past what was read, or the
        longest run shortened, the next longest being unknown): the caller counts every hand
        again (``recount``)."""
        marks = dict(around)
        first_read = around[0][0] if around else below + 1
        last_read = around[-1][0] if around else above - 1
        for seat in seats:
            low = _run_start(marks, seat, below, first_read)
            if low is None:
                return False
            high = _run_end(marks, seat, above, last_read, count)
            if high is None:
                return False
            counts = self.seats[seat]
            runs, trailing = _runs(seat, [(n, marks[n][seat]) for n in range(low, high + 1)])
            if not counts.best_among(runs, low, high):
                return False
            if high == count:
                counts.run, counts.run_first = trailing
        return True

    def recount(self, played: Iterable[tuple[int, Sequence[int], int | None]]) -> None:
        """The streaks and the swing counted again from every scored hand in play order:
        (number, scores, the seat sitting it out or None). Passed deals are left out: they
        neither break nor extend a run."""
        self.seats = [counts.restarted() for counts in self.seats]
        self.swing = None
        seats = list(enumerate(self.seats))
        for number, scores, out in played:
            for seat, counts in seats:
                if seat != out:
                    counts.follow(seat, scores[seat], number)
            gap = max(scores) - min(scores)
            if self.swing is None or gap > self.swing.gap:
                self.swing = Swing(number, tuple(scores), out)

    def to_data(self) -> dict:
        biggest = None
        if self.biggest is not None:
            biggest = dict(vars(self.biggest))
            biggest["scores"] = list(self.biggest.scores)
        return {
            "players": [counts.to_data() for counts in self.seats],
            "contracts": _counted(self.contracts),
            "hands": self.hands,
            "passed": self.passed,
            "chelems": self.chelems,
            "chelem_hands": list(self.chelem_hands),
            "failed": self.failed,
            "biggest": biggest,
            "swing": self.swing.to_data() if self.swing else None,
        }

    @classmethod
    def from_data(cls, data: dict, seats: int) -> Counters:
        """The counters ``to_data`` stored; empty ones for an empty ``data``."""
        counters = cls(seats)
        if not data:
            return counters
        counters.seats = [
            SeatCounts.from_data(seat, counts) for seat, counts in enumerate(data["players"])
        ]
        counters.contracts = Counter(data["contracts"])
        counters.hands = data["hands"]
        counters.passed = data["passed"]
        counters.chelems = data["chelems"]
        counters.chelem_hands = list(data.get("chelem_hands", ()))
        counters.failed = data["failed"]
        counters.swing = Swing.from_data(data["swing"])
        if data["biggest"] is not None:
            biggest = dict(data["biggest"])
            biggest["scores"] = tuple(biggest["scores"])
            biggest["contract"] = Contract(biggest["contract"])
            counters.biggest = BiggestHand(**biggest)
        return counters

    def statistics(self, totals: tuple[int, ...]) -> Statistics:
        """The statistics once every row is counted; ``totals`` are the sheet's."""
        seats = self.seats
        players = tuple(
            PlayerStats(
                seat=seat,
                total=totals[seat],
                taken=sum(counts.taken.values()),
                made=sum(counts.made.values()),
                by_contract=tuple(
                    ContractRecord(contract, counts.taken[contract], counts.made[contract])
                    for contract in Contract
                ),
                taker_total=counts.taker_total,
                defended=counts.defended,
                defender_total=counts.defender_total,
                called=counts.called,
                petits_won=counts.petits_won,
                petits_lost=counts.petits_lost,
                poignees=tuple(PoigneeCount(size, counts.poignees[size]) for size in Poignee),
                chelems_made=counts.chelems_made,
                chelems_failed=counts.chelems_failed,
                defence_chelems=counts.defence_chelems,
                best_streak=counts.best.length,
            )
            for seat, counts in enumerate(seats)
        )
        longest = max((counts.best.length for counts in seats), default=0)
        return Statistics(
            players=players,
            hands=self.hands,
            passed=self.passed,
            contracts=tuple(
                ContractCount(contract, self.contracts[contract]) for contract in Contract
            ),
            biggest=self.biggest,
            streaks=tuple(t.best for t in seats if longest and t.best.length == longest),
        )
