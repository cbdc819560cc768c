"""The one write path: every change to a sheet goes through here, in one transaction.

Each function locks the sheet (its changes happen one at a time, in order), checks the
idempotency key, the version or the revision it was given, writes the facts, moves the
sheet's revision on,
and updates the derived data stored beside the facts: each hand's row of scores and the running
totals after it, and the sheet's hand count, totals, next dealer and statistics' counters.
Adding a hand (the usual change) costs the same at any length of session; a correction, a
deletion, an undo or a change of rules re-scores the sheet from its stored hands.

Views parse a request, call one of these and render what it returns.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404
from django.utils import timezone

from scoresheet import club_results, scoring, stats
from scoresheet import names as player_names
from scoresheet import sheet as sheets
from scoresheet.models import Hand, Seat, Sheet, SpentKey


class KeyTaken(Exception):
    """The form's key was spent on another sheet, or on something else: a tampered form."""


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
    with its club session, if it is one, read in the same query."""
    return get_object_or_404(
        _with_club(Sheet.objects.select_for_update(of=("self",))), token=token
    )


def _with_club(sheets):
    # A club's standings read what this write path stores beside the session
    # (club_results.sheet_changed): knowing whether it is a club's costs no query.
    return sheets.select_related("club_session")


def _moved(sheet: Sheet, *fields: str, appended: Hand | None = None) -> None:
    """Move the revision on and save it with the derived ``fields`` that changed; and, for a
    session of a club, the results the club's standings read (``appended``: the hand just
    added, when that was the change)."""
    sheet.revision += 1
    sheet.save(update_fields=["revision", *fields])
    club_results.sheet_changed(sheet, appended)


def _players(sheet: Sheet) -> int:
    # The totals have one entry per seat; a sheet without a hand yet reads its seats.
    return len(sheet.totals) or sheet.seats.count()


def _appended(sheet: Sheet, hand: Hand, players: int, rules: scoring.Rules) -> None:
    """Give a new last hand its number and row, and fold it into the sheet's derived data."""
    number = sheet.hand_count + 1
    if hand.dealer is None:
        hand.dealer = sheet.next_dealer
    row = sheets.row(players, number, hand.dealer, hand.to_scoring(players), rules)
    totals = sheets.add(tuple(sheet.totals) or (0,) * players, row.scores)
    hand.number = number
    hand.scores = list(row.scores)
    hand.totals = list(totals)
    counters = stats.Counters.from_data(sheet.statistics, players)
    counters.add(row)
    sheet.hand_count = number
    sheet.totals = list(totals)
    sheet.next_dealer = sheets.dealer(hand.dealer, 2, players)
    sheet.statistics = counters.to_data()


def _rescored(sheet: Sheet, hands: Sequence[Hand], players: int, rules: scoring.Rules):
    """Number and score ``hands`` (the sheet's, in play order) and set the sheet's derived
    data from them; returns the hands whose stored number or row changed."""
    counters = stats.Counters(players)
    dealt = ((hand.dealer, hand.to_scoring(players)) for hand in hands)
    changed = []
    totals = (0,) * players
    replayed = sheets.replay(players, dealt, rules)
    for number, hand in enumerate(hands, start=1):
        try:
            row, totals = next(replayed)
        except scoring.InvalidHand as error:
            raise HandRefused(number, error.problems) from None
        counters.add(row)
        fresh = (row.number, list(row.scores), list(totals))
        if (hand.number, hand.scores, hand.totals) != fresh:
            hand.number, hand.scores, hand.totals = fresh
            changed.append(hand)
    sheet.hand_count = len(hands)
    sheet.totals = list(totals)
    sheet.next_dealer = (
        sheets.dealer(hands[-1].dealer, 2, players) if hands else sheet.first_dealer
    )
    sheet.statistics = counters.to_data()
    return changed


DERIVED = ("hand_count", "totals", "next_dealer", "statistics")


def _rescore(sheet: Sheet) -> None:
    """Re-score every stored hand of a locked sheet and store what changed."""
    hands = list(sheet.hands.order_by("number", "id"))
    changed = _rescored(sheet, hands, _players(sheet), sheet.game_rules)
    Hand.objects.bulk_update(changed, ["number", "scores", "totals"], batch_size=500)


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
    the same form sent again); a key spent before raises ``IntegrityError``, writing nothing."""
    players = len(names)
    problems = scoring.check_rules(rules, players)
    if problems:
        raise scoring.InvalidRules(problems)
    with transaction.atomic():
        sheet = Sheet.objects.create(
            name=name,
            first_dealer=first_dealer,
            next_dealer=first_dealer,
            totals=[0] * players,
            rules=rules_data(rules),
            statistics=stats.Counters(players).to_data(),
        )
        if key is not None:
            # A key used before fails here (unique): the whole transaction is undone.
            SpentKey.objects.create(key=key, made=SpentKey.Made.SHEET, sheet=sheet)
        if created is not None:
            # auto_now_add stamps today; a restored session keeps the time it was created.
            # It is a copy: restored now, which the home page says.
            restored = timezone.now()
            Sheet.objects.filter(pk=sheet.pk).update(created=created, restored=restored)
            sheet.created, sheet.restored = created, restored
        Seat.objects.bulk_create(
            Seat(sheet=sheet, position=position, name=name) for position, name in enumerate(names)
        )
        stored = []
        for number, (dealt_by, hand) in enumerate(hands, start=1):
            model = Hand(sheet=sheet, passed=True) if hand is None else Hand.from_scoring(hand)
            model.sheet = sheet
            model.dealer = sheet.next_dealer if dealt_by is None else dealt_by
            try:
                _appended(sheet, model, players, rules)
            except scoring.InvalidHand as error:
                raise HandRefused(number, error.problems) from None
            stored.append(model)
        Hand.objects.bulk_create(stored, batch_size=1000)
        sheet.save(update_fields=DERIVED)
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
    ``KeyTaken`` when the key was spent on something else."""
    made = made_by(key, SpentKey.Made.SHEET)
    if made is None:
        try:
            sheet = create_sheet(name, names, first_dealer, rules=rules, key=key)
        except IntegrityError:
            # Sent twice at once: the other one made it (its key is the one that failed).
            made = made_by(key, SpentKey.Made.SHEET)
            if made is None:
                raise KeyTaken from None
        else:
            return Change(sheet, None, None)
    return Change(made, None, None, done=False, already=True)


def made_by(key: uuid.UUID, made: str, club=None):
    """What a new-session or new-club ``key`` made (the sheet, or the club), or None if it is
    not spent; ``KeyTaken`` when it was spent on something else (or in another club)."""
    spent = SpentKey.objects.filter(key=key).select_related("sheet", "club").first()
    if spent is None:
        return None
    found = spent.club if made == SpentKey.Made.CLUB else spent.sheet
    if spent.made != made or found is None or (club is not None and spent.club_id != club.pk):
        raise KeyTaken
    return found


def rules_data(rules: scoring.Rules) -> dict:
    """The rules as the session stores them: every rule, by name."""
    return rules.to_data()


def add_hand(
    token: str, hand: scoring.Hand | None, key: uuid.UUID, dealer: int | None = None
) -> Change:
    """Store a new last hand (None: a deal everyone passed) under the form's ``key``, dealt by
    ``dealer`` (by default whoever's turn it is when it is stored).

    A key is spent for good: sent again, even after its hand was deleted or undone, it stores
    nothing and answers ``already`` (with the hand it stored, if it is still there), before
    the hand is checked (the deal has moved on since). Raises ``KeyTaken`` for a key spent on
    another sheet, and ``scoring.InvalidHand`` when the hand breaks the session's rules (both
    write nothing).
    """
    stored = Hand(key=key, passed=True) if hand is None else Hand.from_scoring(hand, key=key)
    stored.dealer = dealer
    try:
        with transaction.atomic():
            sheet = _locked(token)
            # A key spent before fails here (unique): the whole transaction is undone.
            SpentKey.objects.create(key=key, made=SpentKey.Made.HAND, sheet=sheet)
            stored.sheet = sheet
            _appended(sheet, stored, _players(sheet), sheet.game_rules)
            stored.save(force_insert=True)
            _moved(sheet, *DERIVED, appended=stored)
    except IntegrityError:
        return _resent(token, key)
    return Change(sheet, stored, stored.number)


def _resent(token: str, key: uuid.UUID) -> Change:
    """The answer to a hand's key already spent: the sheet as it is, and the hand the key
    stored if it is still there; ``KeyTaken`` for a key spent elsewhere."""
    spent = SpentKey.objects.filter(key=key).values_list("made", "sheet_id").first()
    # A hand restored from a backup has a key that was never a form's, nor spent.
    first = Hand.objects.filter(key=key).values_list("sheet_id", flat=True).first()
    owner = spent[1] if spent and spent[0] == SpentKey.Made.HAND else first
    sheet = Sheet.objects.filter(token=token).first()
    if owner is None or sheet is None or owner != sheet.pk:
        raise KeyTaken
    hand = sheet.hands.filter(key=key).first()
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
    given), if it is still at ``version``. Raises ``scoring.InvalidHand`` (writing nothing)
    when the hand breaks the session's rules."""
    with transaction.atomic():
        sheet = _locked(token)
        target = sheet.hands.filter(key=key).first()
        if target is None:
            return Change(sheet, None, None, done=False)
        if version != target.version:
            # Someone saved this hand since this form was opened: keep theirs.
            return Change(sheet, target, target.number, done=False, conflict=True)
        edited = Hand(passed=True) if hand is None else Hand.from_scoring(hand)
        for name in Hand.INPUTS:
            setattr(target, name, getattr(edited, name))
        if dealer is not None:
            target.dealer = dealer
        target.version += 1
        target.save(update_fields=[*Hand.INPUTS, "dealer", "version"])
        _rescore(sheet)
        _moved(sheet, *DERIVED)
    target.refresh_from_db()
    return Change(sheet, target, target.number)


def delete_hand(token: str, key: uuid.UUID | None) -> Change:
    """Delete the hand with this ``key``; the later hands renumber, their dealers stay."""
    with transaction.atomic():
        sheet = _locked(token)
        hand = sheet.hands.filter(key=key).first() if key else None
        if hand is None:
            return Change(sheet, None, None, done=False)
        hand.delete()
        _rescore(sheet)
        _moved(sheet, *DERIVED)
    return Change(sheet, hand, hand.number)


def undo(token: str, key: uuid.UUID | None) -> Change:
    """Take back the last hand, if it is still the one with this ``key``."""
    with transaction.atomic():
        sheet = _locked(token)
        last = sheet.hands.order_by("-number").first()
        if last is None or last.key != key:
            return Change(sheet, None, None, done=False)
        last.delete()
        # The statistics' counters cannot take a hand back: they are counted again.
        _rescore(sheet)
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
        problems = scoring.check_rules(rules, _players(sheet))
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
    # InvalidName is a ValueError: blank or too long.
    name = player_names.checked(name, player_names.TITLE_LENGTH)
    players = [player_names.checked(player) for player in players]
    keys = [player_names.key(player) for player in players]
    if len(set(keys)) != len(keys):
        raise ValueError("two players have the same name")
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


def rescored_under(sheet: Sheet, rules: scoring.Rules) -> tuple[int, ...]:
    """The totals the sheet would have under ``rules``, writing nothing (a preview of
    ``change_rules``); raises like it."""
    players = _players(sheet)
    problems = scoring.check_rules(rules, players)
    if problems:
        raise scoring.InvalidRules(problems)
    hands = list(sheet.hands.order_by("number"))
    # An unsaved copy takes the derived data; the hands read are never saved.
    probe = Sheet(first_dealer=sheet.first_dealer, totals=list(sheet.totals))
    _rescored(probe, hands, players, rules)
    return tuple(probe.totals)


def rescore(sheet: Sheet) -> bool:
    """Recompute a sheet's stored rows and totals from its hands; True when any differed."""
    with transaction.atomic():
        sheet = _with_club(Sheet.objects.select_for_update(of=("self",))).get(pk=sheet.pk)
        before = (sheet.hand_count, sheet.totals, sheet.next_dealer, sheet.statistics)
        hands = list(sheet.hands.order_by("number", "id"))
        changed = _rescored(sheet, hands, _players(sheet), sheet.game_rules)
        after = (sheet.hand_count, sheet.totals, sheet.next_dealer, sheet.statistics)
        if not changed and before == after:
            return False
        Hand.objects.bulk_update(changed, ["number", "scores", "totals"], batch_size=500)
        _moved(sheet, *DERIVED)
    return True
