"""The one write path: every change to a sheet goes through here, in one transaction.

Each function locks the sheet (its changes happen one at a time, in order), checks the
idempotency key, the version or the revision it was given, writes the facts, moves the
sheet's revision on, and updates the derived data stored beside the facts: each hand's row of
scores, and the sheet's hand count, totals, next dealer, checkpoints and statistics' counters.
A hand's running totals are not stored (a page adds them up, ``tally``): adding, correcting,
deleting or undoing a hand writes that hand and the sheet, nothing of the hands after it, at
the same cost at any length of session; the statistics follow from the hand's old and new row,
and only what they cannot follow so (a streak, the biggest swing or hand) is counted again
from the hands' stored scores. A change of rules scores every hand again, in one pass, and
writes the rows that changed in one statement.

What else a change updates in the same transaction (a club's results) is registered from
above when the app is ready (``after_change``): this module knows nothing of clubs.

Views parse a request, call one of these and render what it returns.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import F
from django.shortcuts import get_object_or_404
from django.utils import timezone

from scoresheet import bulk, json_rows, keys, models, player_names, scoring, stats, tally
from scoresheet.models import Hand, Seat, Sheet, SpentKey
from scoresheet.sheets import around

# What else a change of a sheet updates, in its transaction, once the sheet's own derived data
# is written: ``update(sheet, appended)`` functions registered by the layers above when the app
# is ready (``after_change``), and the relations of the sheet they read, fetched with its lock.
_AFTER_CHANGE: list[Callable[[Sheet, Hand | None], None]] = []
_READS: list[str] = []


def after_change(update: Callable[[Sheet, Hand | None], None], reads: Sequence[str] = ()) -> None:
    """Have every change of a sheet call ``update(sheet, appended)`` in its transaction, the
    sheet locked and its derived data up to date (``appended``: the hand just added, when that
    was the change, else None); ``reads``: the relations of the sheet it reads, fetched with
    the sheet (``select_related``) so that reading them costs no query."""
    if update not in _AFTER_CHANGE:
        _AFTER_CHANGE.append(update)
    _READS.extend(name for name in reads if name not in _READS)


class HandRefused(ValueError):
    """A stored hand the rules refuse (after a change of rules or of who dealt): nothing was
    written. ``number`` is the hand's, ``problems`` the rules' reasons."""

    def __init__(self, number: int, problems: list[scoring.Problem]):
        self.number = number
        self.problems = problems
        super().__init__(f"Hand {number}: " + " ".join(str(p) for p in problems))

    def messages(self, gettext) -> list[str]:
        """Each reason, translated and prefixed by the hand's number."""
        return [
            gettext("Hand %(number)s: %(problem)s")
            % {"number": self.number, "problem": problem.translated(gettext)}
            for problem in self.problems
        ]


class BeyondPlan(Exception):
    """A new deal past the sheet's plan (a club night's table that has played its deals),
    not confirmed: nothing was written. ``planned`` is the plan's deals, ``number`` the deal
    it would have been."""

    def __init__(self, planned: int, number: int):
        self.planned = planned
        self.number = number
        super().__init__(f"the table has played its {planned} deals; deal {number} unconfirmed")


@dataclass(frozen=True)
class Change:
    """What a write did: the sheet after it, the hand concerned and its number.

    ``done`` is False when nothing was written: the same form sent again (``already``:
    ``hand`` is the one its key stored, or None once that hand was deleted or undone), a hand
    already deleted (``hand`` None), a correction that started from an older version
    (``conflict``; ``hand`` is the current one), or a change of rules confirmed from an older
    revision of the sheet (``conflict``).
    """

    sheet: Sheet
    hand: Hand | None
    number: int | None
    done: bool = True
    conflict: bool = False
    already: bool = False


def _locked(token: str) -> Sheet:
    """The sheet with this full-access token, locked until the transaction ends, or 404;
    with what ``after_change``'s updates read of it, in the same query."""
    return get_object_or_404(
        _with_reads(Sheet.objects.select_for_update(of=("self",))), token=token
    )


def _with_reads(sheets):
    return around.related(sheets.select_related(*_READS) if _READS else sheets)


def _moved(sheet: Sheet, *fields: str, appended: Hand | None = None) -> None:
    """Move the revision on and save it with the derived ``fields`` that changed; then what
    else follows the sheet (``after_change``: a club's results), ``appended`` being the hand
    just added, when that was the change."""
    sheet.revision += 1
    sheet.save(update_fields=["revision", *fields])
    for update in _AFTER_CHANGE:
        update(sheet, appended)


def _seats(sheet: Sheet) -> int:
    # The totals have one entry per seat; a sheet without a hand yet reads its seats.
    return len(sheet.totals) or sheet.seats.count()


def _appended(sheet: Sheet, hand: Hand, seats: int, rules: scoring.Rules) -> None:
    """Give a new last hand its number and row, and fold it into the sheet's derived data."""
    number = sheet.hand_count + 1
    if hand.dealer is None:
        hand.dealer = sheet.next_dealer
    row = tally.row(seats, number, hand.dealer, hand.to_scoring(seats), rules)
    totals = tally.add(tuple(sheet.totals) or (0,) * seats, row.scores)
    hand.position = sheet.position(number)
    hand.number = number
    hand.scores = list(row.scores)
    counters = stats.Counters.from_data(sheet.statistics, seats)
    counters.add(row)
    checkpoints = tally.Checkpoints.from_data(sheet.checkpoints)
    checkpoints.added(number, totals)
    sheet.hand_count = number
    sheet.totals = list(totals)
    sheet.next_dealer = tally.dealer(hand.dealer, 2, seats)
    sheet.checkpoints = checkpoints.to_data()
    sheet.statistics = counters.to_data()


# A stored hand as re-scoring reads it: values, not model instances (a long sheet has
# thousands), its stored row first (where it is stored: ``Hand.position``), then what scoring
# reads.
STORED = ("id", "position", "scores", *Hand.SCORING)
# Where ``Hand.SCORING``'s values (the dealer first) start in a ``STORED`` row.
SCORING_AT = STORED.index("dealer")


def _stored(sheet: Sheet) -> list[tuple]:
    """The sheet's hands in play order, as ``STORED`` values."""
    return list(json_rows.read(sheet.hands.order_by("position", "id"), STORED))


def _rescored(sheet: Sheet, hands: Sequence[tuple], seats: int, rules: scoring.Rules) -> Rewrite:
    """Number and score ``hands`` (the sheet's, in play order, as ``STORED`` values) and set
    the sheet's derived data from them; returns the stored rows whose scores changed, or
    whose position is not the sheet's offset plus their number (``rescore`` repairs it)."""
    counters = stats.Counters(seats)
    dealt = ((hand[SCORING_AT], models.scoring_hand(seats, *hand[SCORING_AT:])) for hand in hands)
    changed, renumbered = [], False
    totals = (0,) * seats
    checkpoints = tally.Checkpoints()
    replayed = tally.replay(seats, dealt, rules)
    for number, hand in enumerate(hands, 1):
        pk, position, scores = hand[:SCORING_AT]
        try:
            row, totals = next(replayed)
        except scoring.InvalidHand as error:
            raise HandRefused(number, error.problems) from None
        counters.add(row)
        checkpoints.added(number, totals)
        fresh = list(row.scores)
        if position != sheet.position(number):
            renumbered = True
            changed.append((pk, sheet.position(number), fresh))
        elif scores != fresh:
            changed.append((pk, position, fresh))
    sheet.hand_count = len(hands)
    sheet.totals = list(totals)
    last = hands[-1][SCORING_AT] if hands else None
    sheet.next_dealer = sheet.first_dealer if last is None else tally.dealer(last, 2, seats)
    sheet.checkpoints = checkpoints.to_data()
    sheet.statistics = counters.to_data()
    if renumbered:
        return Rewrite(("position", "scores"), changed)
    # The usual case (a change of rules): only scores to write.
    return Rewrite(("scores",), [(pk, fresh) for pk, _position, fresh in changed])


class Rewrite(NamedTuple):
    """What a re-scoring writes: the hands' ``columns``, and each changed hand's ``rows``
    (its id, then the values of those columns)."""

    columns: tuple[str, ...]
    rows: list[tuple]


DERIVED = ("hand_count", "totals", "next_dealer", "checkpoints", "statistics")


def _store(rewrite: Rewrite) -> None:
    """Write the rows a re-scoring changed: one statement (``bulk``)."""
    bulk.update(Hand, rewrite.columns, rewrite.rows)


# How many hands on either side of a change the streaks are repaired from: a run of positive
# scores longer than this (counting passed deals) has every hand counted again.
AROUND = 48


def _counted_again(
    sheet: Sheet,
    counters: stats.Counters,
    stale: set[str],
    streaks: tuple[list[int], int, int],
    rules: scoring.Rules,
) -> stats.Counters:
    """The counters once what they could not follow is counted again from the stored hands:
    the streaks of the players ``streaks`` names (seats, and the hands on either side of the
    change) from the hands around it, else, like the swing (``stale``), from every hand's
    scores in one read; the biggest hand (the one that shrank or went) from every hand scored
    again."""
    if "biggest" in stale:
        fresh = stats.Counters(len(counters.seats))
        dealt = (
            (hand[0], models.scoring_hand(len(counters.seats), *hand)) for hand in _inputs(sheet)
        )
        for row, _totals in tally.replay(len(counters.seats), dealt, rules):
            fresh.add(row)
        return fresh
    seats, below, above = streaks
    if seats and not stale:
        near = sheet.numbered_hands().filter(
            position__gte=sheet.position(below - AROUND),
            position__lte=sheet.position(above + AROUND),
        )
        around = [
            (number, stats.marks(scores, passed, dealer if rules.dealer_sits_out else None))
            for number, passed, dealer, scores in near.values_list(
                "number", "passed", "dealer", "scores"
            )
        ]
        if counters.repair(seats, around, below, above, sheet.hand_count):
            return counters
    if seats or stale:
        counters.recount(_played(sheet, rules))
    return counters


def _inputs(sheet: Sheet):
    return sheet.hands.order_by("position", "id").values_list(*Hand.SCORING)


def _played(sheet: Sheet, rules: scoring.Rules) -> list[tuple[int, list[int], int | None]]:
    """Each scored hand in play order as the streaks and the swing read it: (number, scores,
    the seat sitting it out or None). The scores come as text, parsed a chunk at a time
    (``json_rows.read``): a long sheet's are read in a few milliseconds."""
    found = json_rows.read(
        sheet.numbered_hands().filter(passed=False), ("number", "dealer", "scores")
    )
    out = rules.dealer_sits_out
    return [(number, scores, dealer if out else None) for number, dealer, scores in found]


def _rescore(sheet: Sheet) -> None:
    """Re-score every stored hand of a locked sheet and store the rows that changed."""
    _store(_rescored(sheet, _stored(sheet), _seats(sheet), sheet.game_rules))


# What an import writes of a new seat and a new hand: every column but the id and the sheet.
SEAT_COLUMNS = ("position", "name", "key")
HAND_COLUMNS = tuple(
    field.name for field in Hand._meta.concrete_fields if field.name not in ("id", "sheet")
)


@dataclass
class NewSheet:
    """A session ready to be written: its sheet, numbered and scored, its derived data set,
    and the database values of its seats and hands; ``played`` holds each hand as a club's
    records read it (``Hand.RECORDED``). Nothing saved yet."""

    sheet: Sheet
    seats: list[tuple]
    hands: list[tuple]
    played: list[tuple]


class NewSheets:
    """New sessions written at once (a restored backup, a club's): each is scored and its
    rows prepared by ``add``, in memory, before any transaction; ``write`` then inserts them
    all, in the caller's transaction, with a few statements whatever their number of hands."""

    def __init__(self):
        self.new: list[NewSheet] = []
        self.seats = bulk.Columns(Seat, SEAT_COLUMNS)
        self.hands = bulk.Columns(Hand, HAND_COLUMNS)
        self.now = timezone.now()

    def add(
        self,
        name: str,
        names: Sequence[str],
        first_dealer: int,
        *,
        rules: scoring.Rules = scoring.FFT,
        created: datetime | None = None,
        hands: Iterable[tuple[int | None, scoring.Hand | None]] = (),
    ) -> NewSheet:
        """Score and prepare a session as ``create_sheet`` takes it; raises like it."""
        seats = len(names)
        problems = scoring.check_rules(rules, seats)
        if problems:
            raise scoring.InvalidRules(problems)
        sheet = Sheet(name=name, first_dealer=first_dealer, rules=rules_data(rules))
        if created is not None:
            # A restored session keeps the time it was created; it is a copy, restored now
            # (which the home page says).
            sheet.created, sheet.restored = created, self.now
        counters = stats.Counters(seats)
        checkpoints = tally.Checkpoints()
        totals = (0,) * seats
        dealer = first_dealer
        rows, played = [], []
        hands = list(hands)
        # Each hand's form key, as uuid4() makes them, from one read of the system's source.
        random = os.urandom(16 * len(hands))
        for number, (dealt_by, hand) in enumerate(hands, start=1):
            # A hand of a backup without its dealer is dealt in turn.
            dealer = dealer if dealt_by is None else dealt_by
            # A new session's hands are stored at their numbers (its offset is 0).
            stored = {**Hand.inputs_of(hand), "position": number, "number": number}
            stored["dealer"] = dealer
            # Scored as it is stored: a re-scoring of the stored hand gives the same row.
            scored = models.scoring_hand(seats, *(stored[name] for name in Hand.SCORING))
            try:
                row = tally.row(seats, number, dealer, scored, rules)
            except scoring.InvalidHand as error:
                raise HandRefused(number, error.problems) from None
            counters.add(row)
            totals = tally.add(totals, row.scores)
            checkpoints.added(number, totals)
            stored |= {
                "key": uuid.UUID(bytes=random[16 * number - 16 : 16 * number], version=4),
                "created": self.now,
                "version": 1,
                "scores": list(row.scores),
            }
            rows.append([stored[column] for column in HAND_COLUMNS])
            played.append(tuple(stored[field] for field in Hand.RECORDED))
            dealer = tally.dealer(dealer, 2, seats)
        sheet.hand_count = len(rows)
        sheet.totals = list(totals)
        sheet.next_dealer = dealer
        sheet.checkpoints = checkpoints.to_data()
        sheet.statistics = counters.to_data()
        placed = [Seat(position=position, name=name) for position, name in enumerate(names)]
        new = NewSheet(sheet, self.seats.values(placed), self.hands.prepared(rows), played)
        self.new.append(new)
        return new

    def write(self) -> list[Sheet]:
        """Write the sessions added, in the caller's transaction; their sheets, saved."""
        stored = [each.sheet for each in self.new]
        restored = [(sheet, sheet.created) for sheet in stored if sheet.restored is not None]
        Sheet.objects.bulk_create(stored)
        # auto_now_add stamped every ``created`` with now: a restored session keeps its own.
        for sheet, created in restored:
            sheet.created = created
        bulk.update(Sheet, ("created",), [(sheet.pk, created) for sheet, created in restored])
        rows = [(each.sheet.pk, *seat) for each in self.new for seat in each.seats]
        bulk.insert(Seat, ("sheet", *SEAT_COLUMNS), rows)
        rows = [(each.sheet.pk, *hand) for each in self.new for hand in each.hands]
        bulk.insert(Hand, ("sheet", *HAND_COLUMNS), rows)
        return stored


def create_sheet(
    name: str,
    names: Sequence[str],
    first_dealer: int,
    *,
    rules: scoring.Rules = scoring.FFT,
    created: datetime | None = None,
    hands: Iterable[tuple[int | None, scoring.Hand | None]] = (),
    key: uuid.UUID | None = None,
) -> Sheet:
    """A new session with these players and, for a restored backup, its hands in play order:
    (dealer or None for the rotation, hand or None for a passed deal). Raises
    ``scoring.InvalidHand`` (writing nothing) if a hand breaks the rules.

    ``key``: the new-session form's, spent in the same transaction (``start_sheet`` answers
    the same form sent again); a key spent before raises ``IntegrityError``, writing nothing.

    The hands are scored first, outside any transaction; then one short transaction writes
    the sheet, its seats and its hands in bulk."""
    new = NewSheets()
    sheet = new.add(name, names, first_dealer, rules=rules, created=created, hands=hands).sheet
    with transaction.atomic():
        new.write()
        if key is not None:
            keys.spend(key, SpentKey.Made.SHEET, sheet=sheet)
    return sheet


def start_sheet(
    name: str,
    names: Sequence[str],
    first_dealer: int,
    rules: scoring.Rules,
    key: uuid.UUID,
) -> Change:
    """The new-session form: a new session under the form's ``key``. The same form sent again
    (a double tap, twice at once) opens the session it made the first time (``already``);
    ``keys.KeyTaken`` when the key was spent on something else."""
    sheet, made = keys.once(
        key,
        SpentKey.Made.SHEET,
        lambda: create_sheet(name, names, first_dealer, rules=rules, key=key),
    )
    return Change(sheet, None, None, done=made, already=not made)


def rules_data(rules: scoring.Rules) -> dict:
    """The rules as the session stores them: every rule, by name."""
    return rules.to_data()


def add_hand(
    token: str,
    hand: scoring.Hand | None,
    key: uuid.UUID,
    dealer: int | None = None,
    *,
    beyond_plan: bool = False,
) -> Change:
    """Store a new last hand (None: a deal everyone passed) under the form's ``key``, dealt by
    ``dealer`` (by default whoever's turn it is when it is stored).

    A sheet with a plan of deals (``around.Plan``: a club night's table) that has played them
    all takes one more only when ``beyond_plan`` confirms it: else ``BeyondPlan``, writing
    nothing (its key stays unspent, for the confirmation).

    A key is spent for good: sent again, even after its hand was deleted or undone, it stores
    nothing and answers ``already`` (with the hand it stored, if it is still there), before
    the hand is checked (the deal has moved on since). Raises ``keys.KeyTaken`` for a key spent on
    another sheet, and ``scoring.InvalidHand`` when the hand breaks the session's rules (both
    write nothing).
    """
    stored = Hand(key=key, passed=True) if hand is None else Hand.from_scoring(hand, key=key)
    stored.dealer = dealer
    try:
        with transaction.atomic():
            sheet = _locked(token)
            keys.spend(key, SpentKey.Made.HAND, sheet=sheet)
            plan = around.plan_of(sheet)
            if plan is not None and not beyond_plan:
                played = plan.played_on(sheet)
                if played >= plan.deals:
                    raise BeyondPlan(plan.deals, played + 1)
            stored.sheet = sheet
            _appended(sheet, stored, _seats(sheet), sheet.game_rules)
            stored.save(force_insert=True)
            _moved(sheet, *DERIVED, appended=stored)
    except IntegrityError:
        return _resent(token, key)
    return Change(sheet, stored, stored.number)


def _resent(token: str, key: uuid.UUID) -> Change:
    """The answer to a hand's key already spent: the sheet as it is, and the hand the key
    stored if it is still there; ``keys.KeyTaken`` for a key spent elsewhere."""
    spent = SpentKey.objects.filter(key=key).values_list("made", "sheet_id").first()
    # A hand restored from a backup has a key that was never a form's, nor spent.
    first = Hand.objects.filter(key=key).values_list("sheet_id", flat=True).first()
    owner = spent[1] if spent and spent[0] == SpentKey.Made.HAND else first
    sheet = Sheet.objects.filter(token=token).first()
    if owner is None or sheet is None or owner != sheet.pk:
        raise keys.KeyTaken
    hand = sheet.numbered_hands().filter(key=key).first()
    # The same form sent again (a double tap, a resubmitted page, the offline queue): one hand.
    return Change(sheet, hand, hand.number if hand else None, done=False, already=True)


def correct_hand(
    token: str,
    key: uuid.UUID,
    version: int | None,
    hand: scoring.Hand | None,
    dealer: int | None = None,
) -> Change:
    """Replace the inputs of the hand with this ``key`` (and who dealt it, when ``dealer`` is
    given), if it is still at ``version``. Raises ``HandRefused`` (writing nothing) when the
    hand breaks the session's rules.

    Writes that hand and the sheet: its totals and checkpoints move by the hand's change of
    scores, its statistics by its old and new row."""
    with transaction.atomic():
        sheet = _locked(token)
        target = sheet.numbered_hands().filter(key=key).first()
        if target is None:
            return Change(sheet, None, None, done=False)
        if version != target.version:
            # Someone saved this hand since this form was opened: keep theirs.
            return Change(sheet, target, target.number, done=False, conflict=True)
        seats, rules = _seats(sheet), sheet.game_rules
        old = target.row(seats, rules)
        edited = Hand(passed=True) if hand is None else Hand.from_scoring(hand)
        for name in Hand.INPUTS:
            setattr(target, name, getattr(edited, name))
        if dealer is not None:
            target.dealer = dealer
        try:
            new = tally.row(seats, target.number, target.dealer, target.to_scoring(seats), rules)
        except scoring.InvalidHand as error:
            raise HandRefused(target.number, error.problems) from None
        target.scores = list(new.scores)
        target.version += 1
        target.save(update_fields=[*Hand.INPUTS, "dealer", "version", "scores"])
        change = [n - o for n, o in zip(new.scores, old.scores, strict=True)]
        sheet.totals = list(tally.add(sheet.totals, change))
        checkpoints = tally.Checkpoints.from_data(sheet.checkpoints)
        checkpoints.corrected(target.number, change)
        sheet.checkpoints = checkpoints.to_data()
        if target.number == sheet.hand_count:
            sheet.next_dealer = tally.dealer(target.dealer, 2, seats)
        counters = stats.Counters.from_data(sheet.statistics, seats)
        stale = counters.replaced(old, new)
        changed = [
            seat
            for seat, (was, now) in enumerate(
                zip(stats.row_marks(old), stats.row_marks(new), strict=True)
            )
            if was != now
        ]
        streaks = (changed, target.number - 1, target.number + 1)
        sheet.statistics = _counted_again(sheet, counters, stale, streaks, rules).to_data()
        _moved(sheet, *DERIVED)
    return Change(sheet, target, target.number)


def _deleted(sheet: Sheet, hand: Hand, before: Hand | None = None) -> None:
    """Delete ``hand`` (read with its number) from the locked sheet: the hands on its shorter
    side move one place in one statement (the earlier ones move on, and the numbers start one
    place later: ``Sheet.hand_offset``), and the sheet's derived data follow without reading
    them (but the hands just after its checkpoints, and the scores when a streak must be
    counted again). ``before``: the hand before it, when the caller read it (an undo)."""
    seats, rules = _seats(sheet), sheet.game_rules
    count, number = sheet.hand_count, hand.number
    row = hand.row(seats, rules)
    checkpoints = tally.Checkpoints.from_data(sheet.checkpoints)
    wanted = checkpoints.after_deleted(number, count)
    after = dict(
        sheet.numbered_hands()
        .filter(position__in=[sheet.position(wanted_number) for wanted_number in wanted])
        .values_list("number", "scores")
    )
    hand.delete()
    # No unique constraint on (sheet, position) for the rows to pass through: one statement.
    if number - 1 < count - number:
        # Deleting the first hand moves none.
        if number > 1:
            sheet.hands.filter(position__lt=hand.position).update(position=F("position") + 1)
        sheet.hand_offset += 1
    elif number < count:
        sheet.hands.filter(position__gt=hand.position).update(position=F("position") - 1)
    elif before is None and number > 1:
        before = sheet.hands.filter(position=hand.position - 1).only("dealer").first()
    if number == count:
        # The deal goes on from the hand now last.
        last = before.dealer if before is not None else None
        sheet.next_dealer = sheet.first_dealer if last is None else tally.dealer(last, 2, seats)
    checkpoints.deleted(number, count, row.scores, after)
    sheet.hand_count = count - 1
    sheet.totals = [t - s for t, s in zip(sheet.totals, row.scores, strict=True)]
    counters = stats.Counters.from_data(sheet.statistics, seats)
    stale = counters.removed(row)
    played = [seat for seat, mark in enumerate(stats.row_marks(row)) if mark is not None]
    streaks = (played, number - 1, number)
    sheet.statistics = _counted_again(sheet, counters, stale, streaks, rules).to_data()
    if checkpoints.sparse:
        checkpoints = tally.Checkpoints.of(
            sheet.hands.order_by("position").values_list("scores", flat=True), seats
        )
    sheet.checkpoints = checkpoints.to_data()


def delete_hand(token: str, key: uuid.UUID | None) -> Change:
    """Delete the hand with this ``key``; the later hands renumber, their dealers stay."""
    with transaction.atomic():
        sheet = _locked(token)
        hand = sheet.numbered_hands().filter(key=key).first() if key else None
        if hand is None:
            return Change(sheet, None, None, done=False)
        _deleted(sheet, hand)
        _moved(sheet, "hand_offset", *DERIVED)
    return Change(sheet, hand, hand.number)


def undo(token: str, key: uuid.UUID | None) -> Change:
    """Take back the last hand, if it is still the one with this ``key``."""
    with transaction.atomic():
        sheet = _locked(token)
        # The last hand, and the one before it, whose dealer the deal goes on from.
        latest = list(sheet.numbered_hands().order_by("-position")[:2])
        last = latest[0] if latest else None
        if last is None or last.key != key:
            return Change(sheet, None, None, done=False)
        before = latest[1] if len(latest) > 1 else None
        _deleted(sheet, last, before)
        _moved(sheet, *DERIVED)
    return Change(sheet, last, last.number)


def change_rules(token: str, rules: scoring.Rules, revision: int | None = None) -> Change:
    """Play the session under other rules: every hand is re-scored at once, if the sheet is
    still at ``revision`` (the one whose totals the players were shown; None: a script's
    change, whatever the sheet holds). Answers ``conflict`` (nothing written) when the sheet
    moved on meanwhile. Raises ``scoring.InvalidRules`` for rules the table's seats cannot
    play, and ``HandRefused`` for a stored hand the new rules refuse; either way nothing
    changes."""
    with transaction.atomic():
        sheet = _locked(token)
        if revision is not None and revision != sheet.revision:
            # Hands were entered or corrected since those totals were shown.
            return Change(sheet, None, None, done=False, conflict=True)
        problems = scoring.check_rules(rules, _seats(sheet))
        if problems:
            raise scoring.InvalidRules(problems)
        sheet.rules = rules_data(rules)
        _rescore(sheet)
        _moved(sheet, "rules", *DERIVED)
    return Change(sheet, None, None)


def rename(token: str, name: str, players: Sequence[str]) -> Change:
    """Give the session and its seats (in seat order) these names; ``done`` is False when
    they were the names already. The hands keep their seats: only names change. Raises
    ``ValueError`` (writing nothing) for names the new-session form would refuse."""
    name, players = _checked_names(name, players)
    with transaction.atomic():
        sheet = _locked(token)
        seats = list(sheet.seats.all())
        if len(players) != len(seats):
            raise ValueError(f"the session has {len(seats)} players, not {len(players)}")
        renamed = [
            seat.position for seat, new in zip(seats, players, strict=True) if seat.name != new
        ]
        if not renamed and sheet.name == name:
            return Change(sheet, None, None, done=False)
        if renamed:
            # Two seats may swap names: the seats renamed are written anew, so that no
            # moment holds one name twice (Seat's unique key).
            sheet.seats.filter(position__in=renamed).delete()
            Seat.objects.bulk_create(
                Seat(sheet=sheet, position=position, name=players[position])
                for position in renamed
            )
        sheet.name = name
        _moved(sheet, "name")
    return Change(sheet, None, None)


def _checked_names(name: str, players: Sequence[str]) -> tuple[str, list[str]]:
    """The session's and the players' names as the new-session form cleans them, no two
    players with the same key; a ``ValueError`` (``InvalidName`` is one) says why not."""
    name = player_names.checked(name, player_names.TITLE_LENGTH)
    players = [player_names.checked(player) for player in players]
    name_keys = [player_names.key(player) for player in players]
    if len(set(name_keys)) != len(name_keys):
        raise ValueError("two players have the same name")
    return name, players


def rescored_under(sheet: Sheet, rules: scoring.Rules) -> tuple[int, ...]:
    """The totals the sheet would have under ``rules``, writing nothing (a preview of
    ``change_rules``); raises like it."""
    seats = _seats(sheet)
    problems = scoring.check_rules(rules, seats)
    if problems:
        raise scoring.InvalidRules(problems)
    # Only what scoring reads, and only the totals computed: no model instance, no counter.
    hands = sheet.hands.order_by("position", "id").values_list(*Hand.SCORING)
    dealt = ((hand[0], models.scoring_hand(seats, *hand)) for hand in hands)
    totals, number = (0,) * seats, 0
    try:
        for number, (_row, totals) in enumerate(tally.replay(seats, dealt, rules), 1):  # noqa: B007
            pass
    except scoring.InvalidHand as error:
        # The hand after the last one replayed is the one refused.
        raise HandRefused(number + 1, error.problems) from None
    return totals


def rescore(sheet: Sheet) -> bool:
    """Recompute a sheet's stored rows and totals from its hands; True when any differed."""
    with transaction.atomic():
        sheet = _with_reads(Sheet.objects.select_for_update(of=("self",))).get(pk=sheet.pk)
        before = [getattr(sheet, name) for name in DERIVED]
        changed = _rescored(sheet, _stored(sheet), _seats(sheet), sheet.game_rules)
        if not changed.rows and before == [getattr(sheet, name) for name in DERIVED]:
            return False
        _store(changed)
        _moved(sheet, *DERIVED)
    return True
