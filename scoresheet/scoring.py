"""French Tarot scoring under the FFT official rules (RULES.md §1–3), as pure Python.

The public API is ``Hand``, ``score``, ``breakdown``, ``validate``, ``warnings`` and
``InvalidHand``. Nothing here imports Django or does I/O: the app, the backup format and
outside scripts all use it.

Messages are English source strings marked with ``_`` for extraction; callers translate them
(``Problem.translated`` takes the translation function) so that this module stays pure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from types import MappingProxyType

__all__ = [
    "FFT",
    "Breakdown",
    "Camp",
    "Chelem",
    "Contract",
    "Hand",
    "InvalidHand",
    "Poignee",
    "Problem",
    "Rules",
    "breakdown",
    "card_points",
    "score",
    "validate",
    "warnings",
]


def _(message: str) -> str:
    """Mark a message for translation; the caller translates it (gettext_noop)."""
    return message


class Contract(StrEnum):
    PRISE = "prise"
    GARDE = "garde"
    GARDE_SANS = "garde_sans"
    GARDE_CONTRE = "garde_contre"


class Camp(StrEnum):
    ATTACK = "attack"
    DEFENCE = "defence"


class Poignee(StrEnum):
    SIMPLE = "simple"
    DOUBLE = "double"
    TRIPLE = "triple"


class Chelem(StrEnum):
    ANNOUNCED_MADE = "announced_made"
    UNANNOUNCED_MADE = "unannounced_made"
    ANNOUNCED_FAILED = "announced_failed"


def _frozen(mapping: dict) -> Mapping:
    return MappingProxyType(mapping)


@dataclass(frozen=True)
class Rules:
    """Every constant of the scoring in one place, so house rules can replace some of them."""

    base: int = 25
    multipliers: Mapping[str, int] = field(
        default_factory=lambda: _frozen(
            {
                Contract.PRISE: 1,
                Contract.GARDE: 2,
                Contract.GARDE_SANS: 4,
                Contract.GARDE_CONTRE: 6,
            }
        )
    )
    # Card points the attack needs, by the number of bouts it holds.
    targets: Mapping[int, int] = field(
        default_factory=lambda: _frozen({0: 56, 1: 51, 2: 41, 3: 36})
    )
    petit_au_bout: int = 10
    poignee_values: Mapping[str, int] = field(
        default_factory=lambda: _frozen(
            {Poignee.SIMPLE: 20, Poignee.DOUBLE: 30, Poignee.TRIPLE: 40}
        )
    )
    # Trumps a poignée shows, by table size: simple, double, triple.
    poignee_trumps: Mapping[int, Mapping[str, int]] = field(
        default_factory=lambda: _frozen(
            {
                players: _frozen(dict(zip(Poignee, counts, strict=True)))
                for players, counts in {
                    3: (13, 15, 18),
                    4: (10, 13, 15),
                    5: (8, 10, 13),
                }.items()
            }
        )
    )
    chelem_bonuses: Mapping[str, int] = field(
        default_factory=lambda: _frozen(
            {
                Chelem.ANNOUNCED_MADE: 400,
                Chelem.UNANNOUNCED_MADE: 200,
                Chelem.ANNOUNCED_FAILED: -200,
            }
        )
    )
    defence_chelem: int = 200
    # 21 trumps and the excuse.
    trumps: int = 22
    total_points: int = 91
    # A bout counts 4.5, or 4 for the excuse kept by the defence in a chelem (FFT).
    bout_min_points: int = 4


FFT = Rules()

PLAYERS = (3, 4, 5)
HALF = Decimal("0.5")


@dataclass(frozen=True)
class Hand:
    """The inputs of one hand, as the players give them (RULES.md §1)."""

    players: int
    taker: int
    contract: str
    bouts: int
    points: int | float | Decimal | str
    partner: int | None = None
    petit_au_bout: str | None = None
    poignees: Mapping[int, str] = field(default_factory=dict)
    chelem: str | None = None
    defence_chelem: bool = False


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or unusual) with a hand: the field it concerns and why."""

    field: str
    message: str
    params: Mapping[str, object] = field(default_factory=dict)
    # For poignées: the seat whose poignée is concerned.
    seat: int | None = None

    def translated(self, gettext: Callable[[str], str] = str) -> str:
        return gettext(self.message) % dict(self.params)

    def __str__(self) -> str:
        return self.translated()


class InvalidHand(ValueError):
    """A hand the rules reject; ``problems`` lists every reason, each naming its field."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__(" ".join(str(p) for p in self.problems))


@dataclass(frozen=True)
class Breakdown:
    """How a hand's row is computed, step by step (RULES.md §2)."""

    players: int
    made: bool
    points: Decimal
    target: int
    diff: int
    base: int
    multiplier: int
    contract: int
    petit_au_bout: int
    poignees: int
    chelem: int
    defence_chelem: int
    per_defender: int
    scores: tuple[int, ...]

    def expression(self) -> str:
        """The sum that gives ``per_defender``, e.g. ``(25 + 8) × 2 + 20 petit au bout``."""
        sign = "" if self.made else "−"
        text = f"{sign}({self.base} + {self.diff}) × {self.multiplier}"
        terms = [
            (self.petit_au_bout, "petit au bout"),
            (self.poignees, "poignée"),
            (self.chelem, "chelem"),
            (self.defence_chelem, "chelem défense"),
        ]
        for value, label in terms:
            if value:
                text += f" {'+' if value > 0 else '−'} {abs(value)} {label}"
        return text


def _as_int(value: object) -> int | None:
    """An int from an int (not a bool) or a string of digits, else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        try:
            return int(value)
        except ValueError:  # "--4", "²": isdigit() but not an int literal.
            return None
    return None


def card_points(value: object) -> Decimal | None:
    """Card points as a Decimal (49, 40.5), or None when ``value`` is not a number of card
    points. The one parser of the form, the preview and the import.

    Text is read strictly: digits, then at most one decimal after a point or a comma ("40.5",
    "40,5"), so no exponent ("1e-999999999", "0e-20000") ever reaches Decimal arithmetic or a
    database. A number (int, float, Decimal: a backup's JSON) is taken by value when it is below
    a million with at most six decimals; a whole value comes back whole, and one decimal at most
    stays one (40.50 is 40.5)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        whole, _point, decimals = value.strip().replace(",", ".", 1).partition(".")
        digits = whole + decimals
        if not (digits.isascii() and digits.isdigit()):
            return None
        if len(whole) > 6 or len(decimals) > 1:
            return None
        value = f"{whole or 0}.{decimals or 0}"
    elif isinstance(value, float):
        value = repr(value)
    elif not isinstance(value, int | Decimal):
        return None
    try:
        points = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return None
    if not points.is_finite():
        return None
    if points.is_zero():
        return Decimal(0)
    # adjusted() is the exponent of the leading digit: no arithmetic yet, so nothing overflows.
    if points.adjusted() > 5:
        return None
    for step in (Decimal(1), Decimal("0.1"), Decimal("0.000001")):
        exact = points.quantize(step)
        if exact == points:
            return exact.normalize() if step == Decimal("0.000001") else exact
    return None


@dataclass(frozen=True)
class _Checked:
    """A hand's inputs once normalised; only built from a hand with no problem."""

    players: int
    taker: int
    contract: Contract
    bouts: int
    points: Decimal
    partner: int | None
    petit_au_bout: Camp | None
    poignees: Mapping[int, Poignee]
    chelem: Chelem | None
    defence_chelem: bool


def _choice(enum: type[StrEnum], value: object) -> StrEnum | None:
    try:
        return enum(value)
    except ValueError:
        return None


def _check(hand: Hand, rules: Rules) -> tuple[_Checked | None, list[Problem]]:
    problems: list[Problem] = []

    def bad(field_name: str, message: str, seat: int | None = None, **params):
        problems.append(Problem(field_name, message, params, seat))

    players = _as_int(hand.players)
    if players not in PLAYERS:
        bad(
            "players",
            _("Players: a table has 3, 4 or 5 players, not %(value)s."),
            value=hand.players,
        )
        return None, problems
    seats = range(players)

    taker = _as_int(hand.taker)
    if taker not in seats:
        bad("taker", _("Taker: choose one of the players at the table."))

    partner = None
    if hand.partner is not None and hand.partner != "":
        partner = _as_int(hand.partner)
        if players != 5:
            bad("partner", _("Partner: there is a partner only at 5 players."))
        elif partner not in seats:
            bad("partner", _("Partner: choose one of the players at the table."))
        elif partner == taker:
            bad(
                "partner",
                _(
                    "Partner: the taker cannot be their own partner; "
                    "choose “alone” when the taker called themselves."
                ),
            )

    contract = _choice(Contract, hand.contract)
    if contract is None:
        bad("contract", _("Contract: choose prise, garde, garde sans or garde contre."))

    bouts = _as_int(hand.bouts)
    if bouts not in rules.targets:
        bad("bouts", _("Bouts: the attack holds 0, 1, 2 or 3 bouts."))
        bouts = None

    points = card_points(hand.points)
    if points is None:
        bad("points", _("Points: enter a number of card points."))
    elif not 0 <= points <= rules.total_points:
        bad("points", _("Points: must be between 0 and 91, not %(value)s."), value=points)
        points = None
    elif points % HALF:
        bad("points", _("Points: count in whole or half points, not %(value)s."), value=points)
        points = None
    elif points % 1 and players == 4:
        bad(
            "points",
            _("Points: there are no half points at 4 players (%(value)s)."),
            value=points,
        )
        points = None
    elif bouts is not None:
        low = rules.bout_min_points * bouts
        high = rules.total_points - rules.bout_min_points * (3 - bouts)
        if not low <= points <= high:
            bad(
                "points",
                _(
                    "Points: with %(bouts)s bouts the attack has between %(low)s "
                    "and %(high)s points, not %(value)s."
                ),
                bouts=bouts,
                low=low,
                high=high,
                value=points,
            )

    petit = None
    if hand.petit_au_bout not in (None, ""):
        petit = _choice(Camp, hand.petit_au_bout)
        if petit is None:
            bad("petit_au_bout", _("Petit au bout: choose none, attack or defence."))

    poignees: dict[int, Poignee] = {}
    trumps = rules.poignee_trumps[players]
    if not isinstance(hand.poignees, Mapping):
        bad("poignees", _("Poignées: give each player's poignée at most once."))
    else:
        for key, size in hand.poignees.items():
            seat = _as_int(key)
            if seat not in seats:
                bad("poignees", _("Poignée: seat %(value)s is not at the table."), value=key)
                continue
            if seat in poignees:
                bad(
                    "poignees",
                    _("Poignée: a player shows at most one poignée."),
                    seat=seat,
                )
                continue
            if size in (None, ""):
                continue
            kind = _choice(Poignee, size)
            if kind is None:
                bad(
                    "poignees",
                    _("Poignée: choose simple, double or triple."),
                    seat=seat,
                )
                continue
            poignees[seat] = kind
        shown = sum(trumps[kind] for kind in poignees.values())
        if shown > rules.trumps:
            bad(
                "poignees",
                _(
                    "Poignées: these poignées show %(shown)s trumps, but the game has "
                    "only %(trumps)s (the excuse included)."
                ),
                shown=shown,
                trumps=rules.trumps,
            )

    chelem = None
    if hand.chelem not in (None, ""):
        chelem = _choice(Chelem, hand.chelem)
        if chelem is None:
            bad(
                "chelem",
                _(
                    "Chelem: choose none, announced and made, made unannounced, "
                    "or announced and failed."
                ),
            )

    defence_chelem = hand.defence_chelem
    if not isinstance(defence_chelem, bool):
        bad("defence_chelem", _("Defence chelem: answer yes or no."))
    elif defence_chelem and chelem in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE):
        bad(
            "defence_chelem",
            _("Defence chelem: the attack made a chelem, so the defence cannot have made one."),
        )

    if problems:
        return None, problems
    return (
        _Checked(
            players=players,
            taker=taker,
            contract=contract,
            bouts=bouts,
            points=points,
            partner=partner,
            petit_au_bout=petit,
            poignees=poignees,
            chelem=chelem,
            defence_chelem=defence_chelem,
        ),
        [],
    )


def validate(hand: Hand, rules: Rules = FFT) -> list[Problem]:
    """Every reason the rules reject this hand (RULES.md §3); empty when it is valid."""
    return _check(hand, rules)[1]


def warnings(hand: Hand, rules: Rules = FFT) -> list[Problem]:
    """Inputs that are legal but unusual (RULES.md §3), worth a second look; never blocking."""
    checked, problems = _check(hand, rules)
    if problems:
        return []
    found = []
    chelem_made = checked.chelem in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE)
    if checked.points == rules.total_points and checked.chelem is None:
        found.append(
            Problem("chelem", _("Chelem: the attack has all 91 points but no chelem is recorded."))
        )
    if chelem_made and checked.points < rules.total_points - rules.bout_min_points:
        found.append(
            Problem(
                "chelem",
                _("Chelem: a chelem made with only %(value)s points is unusual."),
                {"value": checked.points},
            )
        )
    if checked.defence_chelem and checked.points > rules.bout_min_points + HALF:
        found.append(
            Problem(
                "defence_chelem",
                _("Defence chelem: the attack still has %(value)s points."),
                {"value": checked.points},
            )
        )
    return found


def breakdown(hand: Hand, rules: Rules = FFT) -> Breakdown:
    """The row of a hand with every step of its computation; raises ``InvalidHand``."""
    checked, problems = _check(hand, rules)
    if problems:
        raise InvalidHand(problems)

    target = rules.targets[checked.bouts]
    made = checked.points >= target  # FFT: exactly the target ("juste fait") is made.
    # FFT: the half point always goes to the winning camp, so round the difference up.
    diff = math.ceil(abs(checked.points - target))
    sign = 1 if made else -1
    multiplier = rules.multipliers[checked.contract]

    contract = sign * (rules.base + diff) * multiplier
    # Petit au bout goes to the camp that took it, multiplied, whatever the contract's result.
    petit = {
        None: 0,
        Camp.ATTACK: rules.petit_au_bout * multiplier,
        Camp.DEFENCE: -rules.petit_au_bout * multiplier,
    }[checked.petit_au_bout]
    # Poignées are not multiplied and go to the camp that wins the contract.
    poignees = sign * sum(rules.poignee_values[kind] for kind in checked.poignees.values())
    chelem = rules.chelem_bonuses.get(checked.chelem, 0)
    defence_chelem = -rules.defence_chelem if checked.defence_chelem else 0
    u = contract + petit + poignees + chelem + defence_chelem

    scores = [-u] * checked.players
    if checked.partner is not None:
        scores[checked.taker] = 2 * u
        scores[checked.partner] = u
    else:
        scores[checked.taker] = (checked.players - 1) * u

    return Breakdown(
        players=checked.players,
        made=made,
        points=checked.points,
        target=target,
        diff=diff,
        base=rules.base,
        multiplier=multiplier,
        contract=contract,
        petit_au_bout=petit,
        poignees=poignees,
        chelem=chelem,
        defence_chelem=defence_chelem,
        per_defender=u,
        scores=tuple(scores),
    )


def score(hand: Hand, rules: Rules = FFT) -> tuple[int, ...]:
    """One signed score per seat, in seat order, summing to zero; raises ``InvalidHand``."""
    return breakdown(hand, rules).scores
