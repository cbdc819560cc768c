"""A hand's row on the sheet, with its words and links: what the row partial of sheet.html
shows, so that templates stop re-reading the hand's raw fields; and the hand form's preview
(``Preview``, the preview partial of hand_form.html).

Each partial, rendered once more with ``SLOTS`` (``PREVIEW_SLOTS``) instead of a row (a preview),
is the ``<template>`` the offline script fills for a hand the server has not stored (scored) yet
(static/scoresheet/offline/rows.js, offline/preview.js): each word the script supplies is a
``data-slot``, each optional or repeated piece a ``data-part`` (the ``part`` tag), and the
markup exists once, here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.utils import formats
from django.utils.formats import localize
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoresheet import numbers, player_names, scoring, tally
from scoresheet.models import Camp, Chelem, Contract


@dataclass(frozen=True)
class Cell:
    """A seat's score in the row; ``out`` when the seat sits the hand out; ``short``: the seat's
    name as the table's narrow places show it (at large text, above its score)."""

    name: str
    score: int
    out: bool
    short: str = ""

    @property
    def sign(self) -> str:
        return numbers.sign_class(self.score)

    @property
    def signed(self) -> str:
        return numbers.signed(self.score)

    @property
    def plays(self) -> bool:
        return not self.out

    @property
    def out_label(self) -> str:
        return _("%(name)s sits out") % {"name": self.name}


@dataclass(frozen=True)
class Announcement:
    """A poignée or a misère badge: the poignée's size, or two misères, and who announced it."""

    name: str
    size: str = ""
    twice: bool = False


@dataclass(frozen=True)
class MisereTerm:
    """What a misère announcer receives from each other player: ``10 misère × 3 (Chloé)``,
    after ``sep`` (", " between terms)."""

    sep: str
    amount: int
    others: int
    name: str


@dataclass(frozen=True)
class Row:
    """One hand's line, as the sheet shows it: numbers, words and links."""

    number: int
    dealt: str
    passed: bool
    taker: str = ""
    partner: str = ""
    alone: bool = False
    contract: str = ""
    bouts: str = ""
    points: str = ""
    outcome: str = ""
    result: str = ""
    petit_au_bout: str = ""
    camp: str = ""
    poignees: tuple[Announcement, ...] = ()
    chelem: str = ""
    defence_chelem: bool = False
    miseres: tuple[Announcement, ...] = ()
    cells: tuple[Cell, ...] = ()
    scores: tuple[int, ...] = ()
    total: int = 0
    balanced: bool = True
    expression: str = ""
    per_defender: str = ""
    misere_terms: tuple[MisereTerm, ...] = ()
    edit_url: str = ""
    delete_url: str = ""
    # Each player's total after this hand, as a paper sheet writes it (the "Running totals"
    # switch): written (+318, −106) and the app.css class that fits the widest.
    running: tuple[str, ...] = ()
    running_width: str = ""

    @property
    def played(self) -> bool:
        return not self.passed


def build(
    line: tally.Row, names: Sequence[str], sheet_url: str, running: Sequence[int] = ()
) -> Row:
    """The row of a checked hand (``Hand.row``: its breakdown and its stored scores), and
    ``running``: the running totals after it (added up on read: ``tally``)."""
    names = list(names)
    common = _every_row(line, names, sheet_url, running)
    if line.hand is None:
        return Row(**common)
    return Row(**common, **_played(line.hand, line.breakdown, names))


def _every_row(line: tally.Row, names: list[str], sheet_url: str, running: Sequence[int]) -> dict:
    """What every row shows, a deal everyone passed's too: who dealt, the seats' scores, the
    row's links and the running totals after it."""
    detail = line.breakdown
    out = detail.sitting_out if detail is not None else None
    if out is not None:
        dealt = _("%(name)s deals and sits out") % {"name": _name(names, line.dealer)}
    else:
        dealt = _("%(name)s deals") % {"name": _name(names, line.dealer)}
    shorts = player_names.short(names)
    cells = tuple(
        Cell(_name(names, seat), score, seat == out, _name(shorts, seat))
        for seat, score in enumerate(line.scores)
    )
    return {
        "number": line.number,
        "dealt": dealt,
        "passed": line.passed,
        "cells": cells,
        "scores": tuple(line.scores),
        "total": sum(line.scores),
        "balanced": line.balanced,
        "edit_url": f"{sheet_url}hands/{line.number}/edit/",
        "delete_url": f"{sheet_url}hands/{line.number}/delete/",
        "running": tuple(numbers.signed(total) for total in running),
        "running_width": numbers.width_class(running) if running else "",
    }


def _played(hand: scoring.Hand, detail: scoring.Breakdown, names: list[str]) -> dict:
    """What the row of a hand played adds, in words: who took, the contract, the outcome, the
    announcements and how the score was reckoned."""
    return {
        "taker": _name(names, hand.taker),
        "partner": _name(names, hand.partner) if hand.partner is not None else "",
        "alone": hand.partner is None and detail.players == 5,
        "contract": str(Contract(hand.contract).label),
        "bouts": ngettext("%(bouts)s bout", "%(bouts)s bouts", hand.bouts) % {"bouts": hand.bouts},
        "points": _("%(points)s pts") % {"points": card_points(detail.points)},
        "outcome": "made" if detail.made else "lost",
        "result": _result(detail),
        "petit_au_bout": str(hand.petit_au_bout or ""),
        "camp": str(Camp(hand.petit_au_bout).label) if hand.petit_au_bout else "",
        "poignees": tuple(
            Announcement(_name(names, seat), str(size)) for seat, size in hand.poignees.items()
        ),
        "chelem": str(Chelem(hand.chelem).label) if hand.chelem else "",
        "defence_chelem": hand.defence_chelem,
        "miseres": tuple(
            Announcement(_name(names, seat), twice=count == 2)
            for seat, count in hand.miseres.items()
        ),
        "expression": detail.expression(),
        "per_defender": numbers.minus(detail.per_defender),
        "misere_terms": _misere_terms(detail, names),
    }


def _result(detail: scoring.Breakdown) -> str:
    """The hand's outcome in words: made by, or lost by, how many points."""
    words = _("made by %(diff)s") if detail.made else _("lost by %(diff)s")
    return words % {"diff": detail.diff}


@dataclass(frozen=True)
class Preview:
    """The hand form's preview: what a valid hand would score, with what needs a second look
    (``warnings``), or what is wrong with it (``errors``)."""

    errors: tuple[str, ...] = ()
    ready: bool = False
    # The points were typed as the defence's: the attack's are said first.
    converted: bool = False
    attack: str = ""
    made: bool = False
    diff: int = 0
    warnings: tuple[str, ...] = ()
    cells: tuple[Cell, ...] = ()
    expression: str = ""
    per_defender: str = ""
    misere_terms: tuple[MisereTerm, ...] = ()

    @property
    def problems(self) -> bool:
        return bool(self.errors)

    @property
    def lost(self) -> bool:
        return self.ready and not self.made


def preview(
    hand: scoring.Hand, rules: scoring.Rules, names: Sequence[str], converted: bool = False
) -> Preview:
    """The preview of a valid ``hand`` under ``rules``, its seats named by ``names``."""
    names = list(names)
    detail = scoring.breakdown(hand, rules)
    return Preview(
        ready=True,
        converted=bool(converted),
        attack=card_points(detail.points),
        made=detail.made,
        diff=detail.diff,
        warnings=tuple(w.translated(_, number=localize) for w in scoring.warnings(hand, rules)),
        cells=tuple(
            Cell(_name(names, seat), score, seat == detail.sitting_out)
            for seat, score in enumerate(detail.scores)
        ),
        expression=detail.expression(),
        per_defender=numbers.minus(detail.per_defender),
        misere_terms=_misere_terms(detail, names),
    )


def _misere_terms(detail, names: list[str]) -> tuple[MisereTerm, ...]:
    """As ``scoring.Breakdown.misere_expression``, term by term."""
    announced = [(seat, count) for seat, count in enumerate(detail.misere_counts) if count]
    return tuple(
        MisereTerm(", " if index else "", count * detail.misere, detail.players - 1, names[seat])
        for index, (seat, count) in enumerate(announced)
    )


def _name(names: list[str], seat: int | None) -> str:
    try:
        return names[int(seat)]
    except (IndexError, TypeError, ValueError):
        return ""


def card_points(points) -> str:
    """Card points in the page's language: 40.5, or 40,5 in French."""
    return numbers.card_points_text(points, formats.get_format("DECIMAL_SEPARATOR"))


def slot(name: str) -> str:
    """Where the offline script puts a word of its own (rows.js replaces it by its text)."""
    return format_html('<span data-slot="{}"></span>', name)


class _SlotCell(Cell):
    """Both kinds of cell, for the <template>: the script keeps one and sets its attributes."""

    plays = True
    sign = ""
    signed = slot("signed")


class _Slots(Row):
    @property
    def played(self) -> bool:
        return True


class _PreviewSlots(Preview):
    problems = True
    lost = True


# The preview the <template id="preview-template"> is rendered from: both outcomes, every piece.
PREVIEW_SLOTS = _PreviewSlots(
    errors=(slot("error"),),
    ready=True,
    converted=True,
    attack=slot("attack"),
    made=True,
    diff=slot("diff"),
    warnings=(slot("warning"),),
    cells=(_SlotCell(slot("name"), 0, True),),
    expression=slot("expression"),
    per_defender=slot("per_defender"),
    misere_terms=(MisereTerm(slot("sep"), slot("amount"), slot("others"), slot("name")),),
)

# The row the <template> is rendered from: every word a slot, every optional piece present once.
SLOTS = _Slots(
    number=slot("number"),
    dealt=slot("dealt"),
    passed=True,
    taker=slot("taker"),
    partner=slot("partner"),
    alone=True,
    contract=slot("contract"),
    bouts=slot("bouts"),
    points=slot("points"),
    result=slot("result"),
    camp=slot("camp"),
    poignees=(Announcement(slot("name"), slot("size")),),
    chelem=slot("chelem"),
    defence_chelem=True,
    miseres=(Announcement(slot("name"), twice=True),),
    cells=(_SlotCell("", 0, True),),
    expression=slot("expression"),
    per_defender=slot("per_defender"),
    misere_terms=(MisereTerm(slot("sep"), slot("amount"), slot("others"), slot("name")),),
    total=slot("total"),
    running=(slot("signed"),),
    running_width="chars-5",
)
