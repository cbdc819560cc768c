"""A form's key, from the form that carries it to the write that spends it: the same form sent
twice (a double tap, a resubmitted page, the offline queue whose first answer was lost) makes
one session, club, night or hand, and a key once spent stays spent (``SpentKey``).

- A form that makes something carries a fresh key (``KeyedForm``, its hidden ``FormKeyField``);
  when the write answers ``KeyTaken`` (a key spent on something else: a tampered form), the
  view offers the form again with a new one (``renewed``).
- A write spends the key in its own transaction (``spend``): a key spent before fails there,
  undoing the whole transaction.
- ``once`` is the whole protocol of a form that makes a session, a club or a night: what the
  key made before, or what it makes now, even when the same form arrives twice at once.

The write modules call ``spend`` and ``once``; a hand's key, spent by ``sheets.writes``, has its
own answer when it comes again (the hand it stored).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import TypeVar

from django import forms
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from scoresheet.models import Club, Night, Sheet, SpentKey

Made = TypeVar("Made", Sheet, Club, Night)


class KeyTaken(Exception):
    """The form's key was spent on something else, or in another club: a tampered form."""


def spend(key: uuid.UUID, made: str, *, sheet: Sheet | None = None, club: Club | None = None):
    """Spend ``key`` on what it ``made`` (a ``SpentKey.Made``), in the caller's transaction: a
    key spent before raises ``IntegrityError`` here (unique), which undoes it all."""
    SpentKey.objects.create(key=key, made=made, sheet=sheet, club=club)


def made_by(key: uuid.UUID, made: str, club: Club | None = None) -> Sheet | Club | Night | None:
    """What a new-session, new-club or new-night ``key`` made, or None if it is not spent;
    ``KeyTaken`` when it was spent on something else (or in another club than ``club``)."""
    spent = SpentKey.objects.filter(key=key).select_related("sheet", "club").first()
    if spent is None:
        return None
    if spent.made != made or (club is not None and spent.club_id != club.pk):
        raise KeyTaken
    if made == SpentKey.Made.NIGHT:
        found = Night.objects.filter(key=key).first()
    else:
        found = spent.club if made == SpentKey.Made.CLUB else spent.sheet
    if found is None:
        raise KeyTaken
    return found


def once(
    key: uuid.UUID, made: str, make: Callable[[], Made], club: Club | None = None
) -> tuple[Made, bool]:
    """What the form with this ``key`` makes: ``(make(), True)``, ``make`` spending the key in
    its transaction; or, when the key made something before (the same form sent again, even
    twice at once: the second's ``spend`` fails), ``(what it made then, False)``. Raises
    ``KeyTaken`` for a key spent on something else."""
    found = made_by(key, made, club)
    if found is not None:
        return found, False
    try:
        return make(), True
    except IntegrityError:
        # Sent twice at once: the other one made it (its key is the one that failed here).
        found = made_by(key, made, club)
        if found is None:
            raise KeyTaken from None
        return found, False


class FormKeyField(forms.UUIDField):
    """A form's key (hidden): each new form gets a fresh one, and the write path spends it, so
    that the same form sent twice makes one session, club or hand. A missing or broken key is
    no key (None): nothing a person can fix."""

    def __init__(self, **kwargs):
        super().__init__(required=False, widget=forms.HiddenInput, **kwargs)

    def to_python(self, value):
        try:
            return super().to_python(value)
        except ValidationError:
            return None


class KeyedForm(forms.Form):
    """A form that makes something once (a session, a club, a night): it carries a key."""

    key = FormKeyField()

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not self.is_bound:
            self.initial.setdefault("key", uuid.uuid4())


def renewed(data):
    """A form's data with a fresh key, for a form whose key was spent elsewhere."""
    data = data.copy()
    data["key"] = str(uuid.uuid4())
    return data
