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

from collections import Counter
from dataclasses import dataclass

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


def _seat(value: object) -> int | None:
    """A seat from a hand's input (an int, or digits as the forms may give); None for none."""
    if value is None or value == "":
        return None
    return int(value)


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

    def count_role(self, role: str, contract: Contract, made: bool, score: int) -> None:
        """A played hand in this player's role: "taker", "partner" or "defender"."""
        if role == "taker":
            self.taken[contract] += 1
            self.made[contract] += made
            self.taker_total += score
        elif role == "partner":
            self.called += 1
        else:
            self.defended += 1
            self.defender_total += score

    def count_announcements(
        self, attack: bool, petit: Camp | None, chelem: Chelem | None, defence_chelem: bool
    ) -> None:
        """The petit au bout won or lost, and the chelems, as this player's camp saw them."""
        if petit is not None:
            camp = Camp.ATTACK if attack else Camp.DEFENCE
            self.petits_won += petit == camp
            self.petits_lost += petit != camp
        if attack:
            self.chelems_made += chelem in MADE_CHELEMS
            self.chelems_failed += chelem == Chelem.ANNOUNCED_FAILED
        else:
            self.defence_chelems += defence_chelem

    def count_run(self, number: int, score: int) -> None:
        """The current run of positive scores after hand ``number``, and the longest."""
        if score <= 0:
            self.run = 0
            return
        if not self.run:
            self.run_first = number
        self.run += 1
        if self.run > self.best.length:
            self.best = Streak(self.best.seat, self.run, self.run_first, number)

    def to_data(self) -> dict:
        data = dict(vars(self))
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
        self.biggest: BiggestHand | None = None

    def add(self, row: Row) -> None:
        """Count hand ``row`` (the next one in play order)."""
        self.hands += 1
        if row.passed:
            self.passed += 1
            return
        seats = self.seats
        hand, detail = row.hand, row.breakdown
        taker, partner = _seat(hand.taker), _seat(hand.partner)
        contract = Contract(hand.contract)
        petit = Camp(hand.petit_au_bout) if hand.petit_au_bout else None
        chelem = Chelem(hand.chelem) if hand.chelem else None
        self.contracts[contract] += 1
        self.count_biggest(row, taker, partner, contract)
        for seat, size in hand.poignees.items():
            if size:
                seats[_seat(seat)].poignees[Poignee(size)] += 1

        for seat, (counts, score) in enumerate(zip(seats, row.scores, strict=True)):
            if seat == detail.sitting_out:
                # docs/rules.md §6.4: the dealer sat this hand out; it counts for nothing, as a
                # passed deal does.
                continue
            role = "taker" if seat == taker else "partner" if seat == partner else "defender"
            counts.count_role(role, contract, detail.made, score)
            counts.count_announcements(role != "defender", petit, chelem, hand.defence_chelem)
            counts.count_run(row.number, score)

    def count_biggest(self, row: Row, taker: int, partner: int | None, contract) -> None:
        """Hand ``row`` is the biggest so far when its value per defender is (the first on a
        tie)."""
        detail = row.breakdown
        if self.biggest is None or abs(detail.per_defender) > abs(self.biggest.per_defender):
            self.biggest = BiggestHand(
                number=row.number,
                taker=taker,
                partner=partner,
                contract=contract,
                made=detail.made,
                per_defender=detail.per_defender,
                scores=tuple(row.scores),
            )

    def to_data(self) -> dict:
        biggest = None
        if self.biggest is not None:
            biggest = dict(vars(self.biggest))
            biggest["scores"] = list(self.biggest.scores)
        return {
            "players": [counts.to_data() for counts in self.seats],
            "contracts": dict(self.contracts),
            "hands": self.hands,
            "passed": self.passed,
            "biggest": biggest,
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
