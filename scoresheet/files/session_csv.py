"""A session's CSV export for spreadsheets: a row per hand, what was played and each player's
score, then the totals and the rules. The scores are the stored ones (no hand is scored again),
the cells are also the spreadsheet's (``xlsx.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

from django.utils.translation import gettext

from scoresheet import json_rows, scoring, typography
from scoresheet.files import csv_text
from scoresheet.files.json_backup import card_points_as_json
from scoresheet.files.session_backup import by_seat
from scoresheet.models import Camp, Chelem, Contract, Hand, Poignee, Sheet


def csv_header(names: list[str]) -> list[str]:
    """The CSV's first row: the columns of a hand, then one per player."""
    return [
        gettext("Hand"),
        gettext("Dealer"),
        gettext("Taker"),
        gettext("Partner"),
        gettext("Contract"),
        # Game terms stay French in every language.
        "Bouts",
        gettext("Points"),
        gettext("Result"),
        "Petit au bout",
        "Poignées",
        "Chelem",
        "Misère",
        *names,
    ]


# What the CSV writes of a hand, read as stored: its number, who dealt, what the players entered,
# and its stored scores.
CSV_COLUMNS = ("number", "dealer", *Hand.INPUTS, "scores")
CONTRACT_LABELS = dict(Contract.choices)
POIGNEE_LABELS = dict(Poignee.choices)


class CsvWords:
    """The words of the CSV's cells in the active language, translated once per file."""

    def __init__(self):
        self.passed = gettext("Everyone passed")
        self.alone = gettext("alone")
        self.made = gettext("made by %(diff)s")
        self.lost = gettext("lost by %(diff)s")
        self.by_defence = gettext("by the defence")
        self.camps = {value: str(label) for value, label in Camp.choices}
        self.chelems = {value: str(label) for value, label in Chelem.choices}


def csv_line(values: tuple, names: list[str], alone: bool, words: CsvWords) -> list:
    """A hand's CSV cells from its ``CSV_COLUMNS`` (scores aside): what was played and its
    result (``scoring.result``: no breakdown). ``alone``: the hand is played by 5, so a taker
    without a partner called themselves."""
    hand = dict(zip(CSV_COLUMNS, values, strict=True))
    number, dealer = hand["number"], names[hand["dealer"]]
    if hand["passed"]:
        return [number, dealer, "", "", "", "", "", words.passed]
    made, diff = scoring.result(hand["bouts"], hand["points"])
    partner, petit = hand["partner"], hand["petit_au_bout"]
    return [
        number,
        dealer,
        names[hand["taker"]],
        names[partner] if partner is not None else words.alone if alone else "",
        CONTRACT_LABELS[hand["contract"]],
        hand["bouts"],
        card_points_as_json(hand["points"]),
        (words.made if made else words.lost) % {"diff": diff},
        words.camps[petit] if petit else "",
        poignees_text(hand["poignees"], names) if hand["poignees"] else "",
        chelems_text(hand["chelem"], hand["defence_chelem"], words),
        miseres_text(hand["miseres"], names) if hand["miseres"] else "",
    ]


def poignees_text(poignees: dict, names: list[str]) -> str:
    return typography.spaced(
        "; ".join(
            f"{names[int(seat)]}: {POIGNEE_LABELS[size]}"
            for seat, size in by_seat(poignees).items()
        )
    )


def miseres_text(miseres: dict, names: list[str]) -> str:
    return typography.spaced(
        "; ".join(
            f"{names[int(seat)]}: {count}" for seat, count in by_seat(miseres).items() if count
        )
    )


def chelems_text(chelem: str | None, defence_chelem: bool, words: CsvWords) -> str:
    chelems = [words.chelems[chelem]] if chelem else []
    if defence_chelem:
        chelems.append(words.by_defence)
    return ", ".join(chelems)


def csv_rows(sheet: Sheet) -> Iterator[list]:
    """The CSV's rows: a header, one row per hand in play order, then the totals and the
    rules. Numbers are ints (floats for half points), everything else text."""
    names = list(sheet.seats.values_list("name", flat=True))
    seats = len(names)
    rules = sheet.game_rules
    header = csv_header(names)
    yield header
    blank = [""] * (len(header) - seats)
    words = CsvWords()
    alone = rules.players(seats) == 5
    # One query read in chunks, only the columns written: a long session streams without
    # being held in memory. The scores are the stored ones, so the file and the sheet cannot
    # disagree, and no hand is scored again.
    for values in stored_hands(sheet):
        line = csv_line(values, names, alone, words)
        yield [*line, *blank[len(line) :], *values[-1]]
    yield [gettext("Total"), *blank[1:], *sheet.totals]
    # The rules every score above was computed under (docs/rules.md §6.1: "FFT" or the house
    # rules).
    yield [gettext("Rules"), rules_text(rules)]


def stored_hands(sheet: Sheet) -> Iterator[tuple]:
    """The sheet's hands in play order as ``CSV_COLUMNS`` values, read a chunk at a time."""
    return json_rows.read(sheet.numbered_hands(), CSV_COLUMNS)


def rules_text(rules: scoring.Rules) -> str:
    """The CSV's rules line: "FFT", or the house rules in words."""
    words = [gettext(rule) for rule in rules.describe()] or ["FFT"]
    return typography.spaced("; ".join(words))


def csv_lines(sheet: Sheet) -> Iterator[str]:
    """The CSV export, line by line (``csv_text.lines``)."""
    return csv_text.lines(csv_rows(sheet))
