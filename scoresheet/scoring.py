"""French Tarot scoring: the FFT official rules (docs/rules.md §1–3) and a session's house rules
(docs/rules.md §6), as pure Python.

The public API is ``Rules`` (``FFT`` by default), ``check_rules``, ``Hand``, ``score``,
``breakdown``, ``validate``, ``warnings``, ``next_dealer``, ``InvalidHand`` and
``InvalidRules``. Nothing here imports Django or does I/O: the app, the backup format and
outside scripts all use it.

Messages are English source strings marked with ``_`` for extraction; callers translate them
(``Problem.translated`` takes the translation function) so that this module stays pure.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from types import MappingProxyType
from typing import NamedTuple

from scoresheet import numbers

__all__ = [
    "FFT",
    "PLAYERS",
    "SEATS",
    "Breakdown",
    "Camp",
    "Chelem",
    "Contract",
    "Hand",
    "InvalidHand",
    "InvalidRules",
    "Poignee",
    "Problem",
    "Rules",
    "breakdown",
    "check_rules",
    "next_dealer",
    "read_card_points",
    "result",
    "round_diff",
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


# The FFT constants (docs/rules.md §2–3); no house rule changes them.
BASE = 25
MULTIPLIERS: Mapping[str, int] = _frozen(
    {Contract.PRISE: 1, Contract.GARDE: 2, Contract.GARDE_SANS: 4, Contract.GARDE_CONTRE: 6}
)
# Card points the attack needs, by the number of bouts it holds.
TARGETS: Mapping[int, int] = _frozen({0: 56, 1: 51, 2: 41, 3: 36})
PETIT_AU_BOUT = 10
# Trumps a poignée shows, by the number of players in the hand: simple, double, triple.
POIGNEE_TRUMPS: Mapping[int, Mapping[str, int]] = _frozen(
    {
        players: _frozen(dict(zip(Poignee, counts, strict=True)))
        for players, counts in {3: (13, 15, 18), 4: (10, 13, 15), 5: (8, 10, 13)}.items()
    }
)
CHELEM_BONUSES: Mapping[str, int] = _frozen(
    {Chelem.ANNOUNCED_MADE: 400, Chelem.UNANNOUNCED_MADE: 200, Chelem.ANNOUNCED_FAILED: -200}
)
DEFENCE_CHELEM = 200
# 21 trumps and the excuse.
TRUMPS = 22
TOTAL_POINTS = 91
# A bout counts 4.5, or 4 for the excuse kept by the defence in a chelem (FFT): each bout the
# attack holds, or leaves the defence, is at least 4 of its card points.
BOUT_MIN_POINTS = 4

# The house rules' choices (docs/rules.md §6.1), the FFT's first.
POIGNEE_VALUES: Mapping[str, Mapping[str, int]] = _frozen(
    {
        scale: _frozen(dict(zip(Poignee, values, strict=True)))
        for scale, values in {"20-30-40": (20, 30, 40), "20-40-60": (20, 40, 60)}.items()
    }
)
ROUNDINGS = (1, 5, 10)
MISERES = (0, 10, 20)
# One player may announce both misères (no trump, no face card).
MISERE_COUNTS = (1, 2)

# Players in one hand, and seats in a session (5 or 6 when the dealer sits out).
PLAYERS = (3, 4, 5)
SEATS = (3, 4, 5, 6)
HALF = Decimal("0.5")


@dataclass(frozen=True)
class Problem:
    """One thing wrong (or unusual) with a hand or rules: the field it concerns and why."""

    field: str
    message: str
    params: Mapping[str, object] = field(default_factory=dict)
    # For poignées and misères: the seat whose announcement is concerned.
    seat: int | None = None

    def translated(
        self, gettext: Callable[[str], str] = str, number: Callable[[Decimal], str] = str
    ) -> str:
        """The message in the language ``gettext`` gives, its card points written by
        ``number`` (the locale's decimal comma: "40,5" in French)."""
        params = {
            name: number(value) if isinstance(value, Decimal) else value
            for name, value in self.params.items()
        }
        return gettext(self.message) % params

    def __str__(self) -> str:
        return self.translated()


class InvalidHand(ValueError):
    """A hand the rules reject; ``problems`` lists every reason, each naming its field."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__(" ".join(str(p) for p in self.problems))


class InvalidRules(ValueError):
    """House rules that are not in docs/rules.md §6.1's table; ``problems`` names each field."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__(" ".join(str(p) for p in self.problems))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Each rule: whether a value is one of its choices, and the message when it is not.
_RULE_CHOICES: Mapping[str, tuple[Callable[[object], bool], str]] = _frozen(
    {
        "poignees": (
            lambda value: isinstance(value, str) and value in POIGNEE_VALUES,
            _("Poignées: choose 20-30-40 or 20-40-60."),
        ),
        "rounding": (
            lambda value: _is_int(value) and value in ROUNDINGS,
            _("Rounding: choose 1 (no rounding), 5 or 10."),
        ),
        "misere": (
            lambda value: _is_int(value) and value in MISERES,
            _("Misère: choose 0 (no misère), 10 or 20."),
        ),
        "dealer_sits_out": (
            lambda value: isinstance(value, bool),
            _("Dealer sits out: answer yes or no."),
        ),
    }
)


def _rule_problems(data: Mapping[str, object]) -> list[Problem]:
    problems = []
    for name, value in data.items():
        if name not in _RULE_CHOICES:
            problems.append(
                Problem("rules", _("Rules: there is no rule “%(value)s”."), {"value": name})
            )
            continue
        accepts, message = _RULE_CHOICES[name]
        if not accepts(value):
            problems.append(Problem(name, message, {"value": value}))
    return problems


@dataclass(frozen=True)
class Rules:
    """A session's house rules (docs/rules.md §6.1), one hashable value; ``Rules()`` is the
    FFT's."""

    poignees: str = "20-30-40"
    rounding: int = 1
    misere: int = 0
    dealer_sits_out: bool = False

    def __post_init__(self):
        problems = _rule_problems(self.to_data())
        if problems:
            raise InvalidRules(problems)

    def to_data(self) -> dict:
        """Every rule by name, as JSON can hold it; ``from_data`` reads it back."""
        return {
            "poignees": self.poignees,
            "rounding": self.rounding,
            "misere": self.misere,
            "dealer_sits_out": self.dealer_sits_out,
        }

    @classmethod
    def from_data(cls, data: object) -> Rules:
        """Rules from ``to_data``'s form, a missing rule being the FFT's; raises
        ``InvalidRules`` naming each unknown rule and each value not in docs/rules.md §6.1."""
        if not isinstance(data, Mapping):
            raise InvalidRules(
                [Problem("rules", _("Rules: give each rule by name, like {“rounding”: 10}."))]
            )
        problems = _rule_problems(data)
        if problems:
            raise InvalidRules(problems)
        return cls(**data)

    @property
    def is_fft(self) -> bool:
        """True on the FFT's rules, which a sheet marks "FFT" (docs/rules.md §6.1)."""
        return self == Rules()

    @property
    def poignee_values(self) -> Mapping[str, int]:
        """The value of a simple, double and triple poignée."""
        return POIGNEE_VALUES[self.poignees]

    def players(self, seats: int) -> int:
        """How many play each hand with ``seats`` seats: one fewer when the dealer sits out."""
        return seats - 1 if self.dealer_sits_out else seats

    def describe(self) -> list[str]:
        """Each house rule in words (English msgids for the caller to translate); [] for FFT."""
        words = []
        if self.poignees == "20-40-60":
            words.append(_("Poignées 20/40/60"))
        words += {
            1: [],
            5: [_("Differences rounded to 5")],
            10: [_("Differences rounded to 10")],
        }[self.rounding]
        words += {0: [], 10: [_("Misère 10")], 20: [_("Misère 20")]}[self.misere]
        if self.dealer_sits_out:
            words.append(_("Dealer sits out"))
        return words

    def in_words(self, gettext: Callable[[str], str] = str) -> str:
        """ "FFT", or the house rules in words (``describe``) in the language ``gettext``
        gives, as a sheet shows them."""
        if self.is_fft:
            return "FFT"
        # A no-break space before each "·": a line may end with one, never begin with one.
        return "\u00a0· ".join(gettext(words) for words in self.describe())


FFT = Rules()


def check_rules(rules: Rules, seats: int) -> list[Problem]:
    """Why these rules cannot play at ``seats`` seats (docs/rules.md §6.4); empty when they can."""
    number = _as_int(seats)
    if number not in SEATS:
        return [
            Problem(
                "seats", _("Seats: a session has 3 to 6 seats, not %(value)s."), {"value": seats}
            )
        ]
    if number == 6 and not rules.dealer_sits_out:
        return [
            Problem(
                "dealer_sits_out",
                _("Dealer sits out: at 6 seats the dealer always sits out, so it must be on."),
            )
        ]
    if number < 5 and rules.dealer_sits_out:
        return [
            Problem(
                "dealer_sits_out",
                _(
                    "Dealer sits out: only at 5 or 6 seats; at %(value)s seats everyone plays "
                    "every hand."
                ),
                {"value": number},
            )
        ]
    return []


def next_dealer(dealer: int, seats: int) -> int:
    """Who deals after ``dealer``: the next seat, passed deal or not (docs/rules.md §4, §6.4)."""
    return (dealer + 1) % seats


@dataclass(frozen=True)
class Hand:
    """The inputs of one hand, as the players give them (docs/rules.md §1, §6)."""

    # Seats in the session; one fewer play when the dealer sits out (``Rules.players``).
    seats: int
    taker: int
    contract: str
    bouts: int
    points: int | float | Decimal | str
    partner: int | None = None
    petit_au_bout: str | None = None
    poignees: Mapping[int, str] = field(default_factory=dict)
    chelem: str | None = None
    defence_chelem: bool = False
    # Who dealt: needed only when the dealer sits out, to know who does not play.
    dealer: int | None = None
    # Seat -> 1 or 2 misères announced; only when the session plays misère.
    miseres: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Breakdown:
    """How a hand's row is computed, step by step (docs/rules.md §2, §6)."""

    # Players in the hand (the seats but the one sitting out).
    players: int
    made: bool
    points: Decimal
    target: int
    # The difference after the half-point step; ``rounded_diff`` after the house rounding.
    diff: int
    base: int
    multiplier: int
    contract: int
    petit_au_bout: int
    poignees: int
    chelem: int
    defence_chelem: int
    per_defender: int
    # Each seat's score, misères included.
    scores: tuple[int, ...]
    seats: int
    rounded_diff: int
    # The seat sitting out the hand (it scores 0), or None when everyone plays.
    sitting_out: int | None
    # The session's value of one misère, each seat's misères, and what they add to its score.
    misere: int
    misere_counts: tuple[int, ...]
    miseres: tuple[int, ...]

    def expression(self) -> str:
        """The sum that gives ``per_defender``, e.g. ``(25 + 8) × 2 + 20 petit au bout``."""
        sign = "" if self.made else "−"
        diff = str(self.diff)
        if self.rounded_diff != self.diff:
            diff += f" → {self.rounded_diff}"
        text = f"{sign}({self.base} + {diff}) × {self.multiplier}"
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

    def misere_expression(self, names: Sequence[str] | None = None) -> str:
        """The misères, outside ``per_defender``: what each announcer receives from each other
        player in the hand, e.g. ``10 misère × 3 (Chloé)``; empty when nobody announced one."""
        terms = []
        for seat, count in enumerate(self.misere_counts):
            if count:
                name = names[seat] if names is not None else str(seat)
                terms.append(f"{count * self.misere} misère × {self.players - 1} ({name})")
        return ", ".join(terms)


def _as_int(value: object) -> int | None:
    """An int from an int (not a bool) or a string of digits (``numbers.read``: "²", "+1",
    " 1" are none), else None."""
    if type(value) is int:  # the usual case, first: a stored hand's seats and bouts
        return value
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return numbers.read(value)
    return None


def read_card_points(value: object) -> Decimal | None:
    """Card points as a Decimal (49, 40.5), or None when ``value`` is not a number of card
    points. The one parser of the form, the preview and the import.

    Text is read strictly: digits, then at most one decimal after a point or a comma ("40.5",
    "40,5"), so no exponent ("1e-999999999", "0e-20000") ever reaches Decimal arithmetic or a
    database. A number (int, float, Decimal: a backup's JSON) is taken by value when it is below
    a million with at most six decimals; a whole value comes back whole, and one decimal at most
    stays one (40.50 is 40.5)."""
    points = _as_decimal(value)
    if points is None:
        return None
    if points.is_zero():
        return Decimal(0)
    # adjusted() is the exponent of the leading digit: no arithmetic yet, so nothing overflows.
    if points.adjusted() > 5:
        return None
    for step in _STEPS:
        exact = points.quantize(step)
        if exact == points:
            return exact.normalize() if step == _STEPS[-1] else exact
    return None


def _as_decimal(value: object) -> Decimal | None:
    """read_card_points' first step: a finite Decimal from a number or strictly read text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        value = _points_text(value)
        if value is None:
            return None
    elif isinstance(value, float):
        value = repr(value)
    elif not isinstance(value, int | Decimal):
        return None
    try:
        points = Decimal(value)
    except (InvalidOperation, TypeError, ValueError):
        return None
    return points if points.is_finite() else None


def _points_text(text: str) -> str | None:
    """Digits, then at most one decimal after a point or a comma, as "whole.decimal"."""
    whole, _point, decimals = text.strip().replace(",", ".", 1).partition(".")
    digits = whole + decimals
    if not (digits.isascii() and digits.isdigit()):
        return None
    if len(whole) > 6 or len(decimals) > 1:
        return None
    return f"{whole or 0}.{decimals or 0}"


# read_card_points' steps: a whole number, one decimal, six at most.
_STEPS = (Decimal(1), Decimal("0.1"), Decimal("0.000001"))


class _Checked(NamedTuple):
    """A hand's inputs once normalised; only built from a hand with no problem (a tuple: a
    long sheet checks one per hand)."""

    players: int
    seats: int
    sitting_out: int | None
    taker: int
    contract: Contract
    bouts: int
    points: Decimal
    partner: int | None
    petit_au_bout: Camp | None
    poignees: Mapping[int, Poignee]
    chelem: Chelem | None
    defence_chelem: bool
    miseres: Mapping[int, int]


def _choice(enum: type[StrEnum], value: object) -> StrEnum | None:
    # The members by value, looked up directly: a long sheet is checked hand by hand, and
    # calling the enum costs more than the rest of a lookup (benchmarks/ re-scoring 10,000 hands).
    try:
        return _MEMBERS[enum].get(value)
    except TypeError:  # an unhashable value is no member's
        return None


_MEMBERS = {
    enum: {member.value: member for member in enum} for enum in (Contract, Camp, Poignee, Chelem)
}


def _check(hand: Hand, rules: Rules) -> tuple[_Checked | None, list[Problem]]:
    """The hand normalised, or None and every problem; each rule family is one step below."""
    table_problems = check_rules(rules, hand.seats)
    if table_problems:
        return None, table_problems
    problems: list[Problem] = []

    def bad(field_name: str, message: str, seat: int | None = None, **params):
        problems.append(Problem(field_name, message, params, seat))

    seat_count = _as_int(hand.seats)
    players = rules.players(seat_count)
    seats = range(seat_count)
    sitting_out = _check_dealer(hand.dealer, rules, seats, bad)
    taker = _check_taker(hand.taker, seats, sitting_out, bad)
    partner = _check_partner(hand.partner, players, seats, sitting_out, taker, bad)
    contract = _check_contract(hand.contract, bad)
    bouts = _check_bouts(hand.bouts, bad)
    points = _check_points(hand.points, bouts, players, bad)
    petit = _check_petit_au_bout(hand.petit_au_bout, bad)
    poignees = _check_poignees(hand.poignees, players, seats, sitting_out, bad)
    miseres = _check_miseres(hand.miseres, rules, seats, sitting_out, bad)
    chelem = _check_chelem(hand.chelem, bad)
    defence_chelem = _check_defence_chelem(hand.defence_chelem, chelem, bad)

    if problems:
        return None, problems
    return (
        _Checked(
            players=players,
            seats=seat_count,
            sitting_out=sitting_out,
            taker=taker,
            contract=contract,
            bouts=bouts,
            points=points,
            partner=partner,
            petit_au_bout=petit,
            poignees=poignees,
            chelem=chelem,
            defence_chelem=defence_chelem,
            miseres=miseres,
        ),
        [],
    )


def _check_dealer(given: object, rules: Rules, seats: range, bad: Callable) -> int | None:
    """The seat sitting the hand out, or None when everyone plays."""
    # docs/rules.md §6.4: the dealer sits out (scores 0, takes no role) when the rules say so.
    if not rules.dealer_sits_out:
        return None
    sitting_out = _as_int(given)
    if sitting_out not in seats:
        bad("dealer", _("Dealer: choose who dealt this hand; they sit it out."))
        return None
    return sitting_out


def _check_taker(given: object, seats: range, sitting_out: int | None, bad: Callable):
    """The taker's seat: one of the players in the hand."""
    taker = _as_int(given)
    if taker not in seats:
        bad("taker", _("Taker: choose one of the players at the table."))
    elif taker == sitting_out:
        bad("taker", _("Taker: the dealer sits out this hand, so cannot take."))
    return taker


def _check_partner(
    given: object,
    players: int,
    seats: range,
    sitting_out: int | None,
    taker: int | None,
    bad: Callable,
) -> int | None:
    """The called partner (docs/rules.md §1: only at 5 players), None when the taker is alone."""
    if given is None or given == "":
        return None
    partner = _as_int(given)
    if players != 5:
        bad("partner", _("Partner: there is a partner only at 5 players."))
    elif partner not in seats:
        bad("partner", _("Partner: choose one of the players at the table."))
    elif partner == sitting_out:
        bad("partner", _("Partner: the dealer sits out this hand, so cannot be called."))
    elif partner == taker:
        bad(
            "partner",
            _(
                "Partner: the taker cannot be their own partner; "
                "choose “alone” when the taker called themselves."
            ),
        )
    return partner


def _check_contract(given: object, bad: Callable) -> Contract | None:
    contract = _choice(Contract, given)
    if contract is None:
        bad("contract", _("Contract: choose prise, garde, garde sans or garde contre."))
    return contract


def _check_bouts(given: object, bad: Callable) -> int | None:
    bouts = _as_int(given)
    if bouts not in TARGETS:
        bad("bouts", _("Bouts: the attack holds 0, 1, 2 or 3 bouts."))
        return None
    return bouts


def _check_points(given: object, bouts: int | None, players: int, bad: Callable):
    """The attack's card points: 0 to 91, in half points but at 4 players, and within what
    its bouts allow (a bout counts at least 4); None when they are not."""
    points = read_card_points(given)
    if points is None:
        bad("points", _("Points: enter a number of card points."))
    elif not 0 <= points <= TOTAL_POINTS:
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
        _check_points_for_bouts(points, bouts, bad)
    return points


def _check_points_for_bouts(points: Decimal, bouts: int, bad: Callable) -> None:
    low = BOUT_MIN_POINTS * bouts
    high = TOTAL_POINTS - BOUT_MIN_POINTS * (3 - bouts)
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


def _check_petit_au_bout(given: object, bad: Callable) -> Camp | None:
    if given in (None, ""):
        return None
    petit = _choice(Camp, given)
    if petit is None:
        bad("petit_au_bout", _("Petit au bout: choose none, attack or defence."))
    return petit


def _check_poignees(
    given: object, players: int, seats: range, sitting_out: int | None, bad: Callable
) -> dict[int, Poignee]:
    """Seat -> poignée shown, each seat at most once, no more trumps than the game has."""
    if not (type(given) is dict or isinstance(given, Mapping)):
        bad("poignees", _("Poignées: give each player's poignée at most once."))
        return {}
    poignees: dict[int, Poignee] = {}
    seen = set()
    for key, size in given.items():
        seat = _as_int(key)
        if seat not in seats:
            bad("poignees", _("Poignée: seat %(value)s is not at the table."), value=key)
            continue
        if seat in seen:
            bad("poignees", _("Poignée: a player shows at most one poignée."), seat=seat)
            continue
        seen.add(seat)
        kind = _check_poignee(size, seat, sitting_out, bad)
        if kind is not None:
            poignees[seat] = kind
    if poignees:
        _check_trumps_shown(poignees, players, bad)
    return poignees


def _check_poignee(size: object, seat: int, sitting_out: int | None, bad: Callable):
    """One seat's poignée, or None for none (an empty entry) or a problem."""
    if size in (None, ""):
        return None
    if seat == sitting_out:
        bad(
            "poignees",
            _("Poignée: the dealer sits out this hand, so shows no poignée."),
            seat=seat,
        )
        return None
    kind = _choice(Poignee, size)
    if kind is None:
        bad("poignees", _("Poignée: choose simple, double or triple."), seat=seat)
    return kind


def _check_trumps_shown(poignees: Mapping[int, Poignee], players: int, bad: Callable) -> None:
    # The thresholds are those of the players in the hand (docs/rules.md §6.4).
    trumps = POIGNEE_TRUMPS[players]
    shown = sum(trumps[kind] for kind in poignees.values())
    if shown > TRUMPS:
        bad(
            "poignees",
            _(
                "Poignées: these poignées show %(shown)s trumps, but the game has "
                "only %(trumps)s (the excuse included)."
            ),
            shown=shown,
            trumps=TRUMPS,
        )


def _check_chelem(given: object, bad: Callable) -> Chelem | None:
    if given in (None, ""):
        return None
    chelem = _choice(Chelem, given)
    if chelem is None:
        bad(
            "chelem",
            _(
                "Chelem: choose none, announced and made, made unannounced, "
                "or announced and failed."
            ),
        )
    return chelem


def _check_defence_chelem(given: object, chelem: Chelem | None, bad: Callable):
    if not isinstance(given, bool):
        bad("defence_chelem", _("Defence chelem: answer yes or no."))
    elif given and chelem in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE):
        bad(
            "defence_chelem",
            _("Defence chelem: the attack made a chelem, so the defence cannot have made one."),
        )
    return given


def _check_miseres(
    given: object, rules: Rules, seats: range, sitting_out: int | None, bad: Callable
) -> dict[int, int]:
    """Seat -> misères announced (docs/rules.md §6.3), reporting each problem through ``bad``."""
    miseres: dict[int, int] = {}
    seen = set()
    for key, count in _announced_miseres(given, rules, bad).items():
        seat = _as_int(key)
        if seat not in seats:
            bad("miseres", _("Misère: seat %(value)s is not at the table."), value=key)
            continue
        if seat in seen:
            bad("miseres", _("Misère: give each player's misères at most once."), seat=seat)
            continue
        seen.add(seat)
        number = _check_misere(count, seat, sitting_out, bad)
        if number is not None:
            miseres[seat] = number
    return miseres


def _announced_miseres(given: object, rules: Rules, bad: Callable) -> Mapping:
    """The entries that announce a misère, or none after a problem with them all."""
    if type(given) is dict and not given:
        # Nobody announced one: the usual hand, checked hand by hand on a long sheet.
        return given
    if not isinstance(given, Mapping):
        bad("miseres", _("Misère: give each player's misères at most once."))
        return {}
    # As for poignées, an empty entry is no announcement.
    announced = {key: count for key, count in given.items() if count not in (None, "")}
    if announced and not rules.misere:
        bad("miseres", _("Misère: this session plays without misère."))
        return {}
    return announced


def _check_misere(count: object, seat: int, sitting_out: int | None, bad: Callable):
    """One seat's number of misères, or None after a problem."""
    if seat == sitting_out:
        bad(
            "miseres",
            _("Misère: the dealer sits out this hand, so announces no misère."),
            seat=seat,
        )
        return None
    number = _as_int(count)
    if number not in MISERE_COUNTS:
        bad(
            "miseres",
            _("Misère: a player announces 1 or 2 misères, not %(value)s."),
            seat=seat,
            value=count,
        )
        return None
    return number


def validate(hand: Hand, rules: Rules = FFT) -> list[Problem]:
    """Every reason the rules reject this hand (docs/rules.md §3.1, §6.6); empty when it is
    valid."""
    return _check(hand, rules)[1]


def warnings(hand: Hand, rules: Rules = FFT) -> list[Problem]:
    """Inputs that are legal but unusual (docs/rules.md §3.2), worth a second look; never
    blocking."""
    checked, problems = _check(hand, rules)
    if problems:
        return []
    found = []
    chelem_made = checked.chelem in (Chelem.ANNOUNCED_MADE, Chelem.UNANNOUNCED_MADE)
    if checked.points == TOTAL_POINTS and checked.chelem is None:
        found.append(
            Problem("chelem", _("Chelem: the attack has all 91 points but no chelem is recorded."))
        )
    if chelem_made and checked.points < TOTAL_POINTS - BOUT_MIN_POINTS:
        found.append(
            Problem(
                "chelem",
                _("Chelem: a chelem made with only %(value)s points is unusual."),
                {"value": checked.points},
            )
        )
    if checked.defence_chelem and checked.points > BOUT_MIN_POINTS + HALF:
        found.append(
            Problem(
                "defence_chelem",
                _("Defence chelem: the attack still has %(value)s points."),
                {"value": checked.points},
            )
        )
    return found


def round_diff(diff: int, rounding: int) -> int:
    """``diff`` to the nearest multiple of ``rounding``, halves up (docs/rules.md §6.2)."""
    return (2 * diff + rounding) // (2 * rounding) * rounding


def result(bouts: int, points: int | float | Decimal | str) -> tuple[bool, int]:
    """(made, by how much) of a valid hand from its bouts and the attack's card points: the
    "made by N" / "lost by N" of a stored hand, without its whole ``breakdown`` (docs/rules.md
    §2.1: exactly the target is made; the half point goes to the winning camp). The difference is
    before any house rounding, as ``Breakdown.diff``."""
    target = TARGETS[bouts]
    points = read_card_points(points)
    return points >= target, math.ceil(abs(points - target))


def breakdown(hand: Hand, rules: Rules = FFT) -> Breakdown:
    """The row of a hand with every step of its computation; raises ``InvalidHand``."""
    checked, problems = _check(hand, rules)
    if problems:
        raise InvalidHand(problems)

    target = TARGETS[checked.bouts]
    made = checked.points >= target  # FFT: exactly the target ("juste fait") is made.
    # FFT: the half point always goes to the winning camp, so round the difference up.
    diff = math.ceil(abs(checked.points - target))
    # House rounding comes after the half-point step and never changes who won (docs/rules.md
    # §6.2).
    rounded_diff = round_diff(diff, rules.rounding)
    sign = 1 if made else -1
    multiplier = MULTIPLIERS[checked.contract]

    contract = sign * (BASE + rounded_diff) * multiplier
    petit = _petit_au_bout(checked.petit_au_bout, multiplier)
    # Poignées are not multiplied and go to the camp that wins the contract.
    poignees = sign * _poignees_value(checked.poignees, rules)
    chelem = CHELEM_BONUSES.get(checked.chelem, 0)
    defence_chelem = -DEFENCE_CHELEM if checked.defence_chelem else 0
    u = contract + petit + poignees + chelem + defence_chelem

    playing = [seat for seat in range(checked.seats) if seat != checked.sitting_out]
    scores, miseres, misere_counts = _with_miseres(
        checked, playing, _camp_scores(checked, playing, u), rules.misere
    )

    return Breakdown(
        players=checked.players,
        made=made,
        points=checked.points,
        target=target,
        diff=diff,
        base=BASE,
        multiplier=multiplier,
        contract=contract,
        petit_au_bout=petit,
        poignees=poignees,
        chelem=chelem,
        defence_chelem=defence_chelem,
        per_defender=u,
        scores=tuple(scores),
        seats=checked.seats,
        rounded_diff=rounded_diff,
        sitting_out=checked.sitting_out,
        misere=rules.misere,
        misere_counts=misere_counts,
        miseres=tuple(miseres),
    )


def _petit_au_bout(camp: Camp | None, multiplier: int) -> int:
    """Petit au bout goes to the camp that took it, multiplied, whatever the contract's
    result."""
    if camp is None:
        return 0
    return -PETIT_AU_BOUT * multiplier if camp == Camp.DEFENCE else PETIT_AU_BOUT * multiplier


def _poignees_value(poignees: Mapping[int, Poignee], rules: Rules) -> int:
    """What the poignées shown are worth together (most hands show none)."""
    return sum(rules.poignee_values[kind] for kind in poignees.values()) if poignees else 0


def _with_miseres(
    checked: _Checked, playing: list[int], scores: list[int], value: int
) -> tuple[Sequence[int], tuple[int, ...], tuple[int, ...]]:
    """The seats' scores with the misères announced, what the misères add to each seat, and
    how many each seat announced (all 0 in most hands)."""
    if not checked.miseres:
        nothing = (0,) * checked.seats
        return scores, nothing, nothing
    miseres = _misere_scores(checked, playing, value)
    scores = [score + misere for score, misere in zip(scores, miseres, strict=True)]
    counts = tuple(checked.miseres.get(seat, 0) for seat in range(checked.seats))
    return scores, tuple(miseres), counts


def _camp_scores(checked: _Checked, playing: list[int], u: int) -> list[int]:
    """Each seat's share of ``u``: every defender pays it, the attack receives it all
    (the taker twice and the partner once at 5 players with a partner)."""
    scores = [0] * checked.seats
    for seat in playing:
        scores[seat] = -u
    if checked.partner is not None:
        scores[checked.taker] = 2 * u
        scores[checked.partner] = u
    else:
        scores[checked.taker] = (checked.players - 1) * u
    return scores


def _misere_scores(checked: _Checked, playing: list[int], value: int) -> list[int]:
    """What the misères add to each seat's score."""
    # docs/rules.md §6.3: each misère is worth the value from every other player in the hand,
    # outside u, not multiplied, whatever the contract's result.
    miseres = [0] * checked.seats
    for seat, count in checked.miseres.items():
        for other in playing:
            if other != seat:
                miseres[other] -= count * value
                miseres[seat] += count * value
    return miseres


def score(hand: Hand, rules: Rules = FFT) -> tuple[int, ...]:
    """One signed score per seat, in seat order, summing to zero; raises ``InvalidHand``."""
    return breakdown(hand, rules).scores
