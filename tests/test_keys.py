"""A form's key, one protocol (scoresheet/keys.py): what a key made is found again, whatever it
made (a session, a club, a night); a key spent on something else, or in another club, is
``KeyTaken``; ``once`` makes a thing once, and a second ``make`` that finds the key spent is
undone and answered with the first one. The forms sent twice through the pages:
tests/test_spent_keys.py; at once, from threads: tests/test_concurrency.py."""

import uuid
from datetime import date

import pytest
from django.db import IntegrityError, transaction
from django.http import QueryDict

from scoresheet import keys, scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import Club, Night, Sheet, SpentKey
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny", "Gus", "Hugo"]


def test_an_unspent_key_made_nothing():
    assert keys.made_by(uuid.uuid4(), SpentKey.Made.SHEET) is None


def test_what_each_kind_of_key_made_is_found_again():
    sheet_key, club_key, night_key = uuid.uuid4(), uuid.uuid4(), uuid.uuid4()
    sheet = writes.start_sheet("Lundi", NAMES[:4], 0, scoring.FFT, sheet_key).sheet
    club = club_writes.create_club("Jeudi", key=club_key).club
    night = night_writes.create_night(
        club, "Soirée", date(2026, 3, 14), NAMES, 2, 4, key=night_key
    )
    assert keys.made_by(sheet_key, SpentKey.Made.SHEET) == sheet
    assert keys.made_by(club_key, SpentKey.Made.CLUB) == club
    assert keys.made_by(night_key, SpentKey.Made.NIGHT, club) == night.night


@pytest.mark.parametrize("made", [SpentKey.Made.CLUB, SpentKey.Made.NIGHT, SpentKey.Made.HAND])
def test_a_key_spent_on_something_else_is_taken(made):
    key = uuid.uuid4()
    writes.start_sheet("Lundi", NAMES[:4], 0, scoring.FFT, key)
    with pytest.raises(keys.KeyTaken):
        keys.made_by(key, made)


def test_a_key_spent_in_another_club_is_taken():
    one, other = Club.objects.create(name="Un"), Club.objects.create(name="Deux")
    key = uuid.uuid4()
    sheet = club_writes.start_sheet(one, "Lundi", NAMES[:4], 0, key=key).sheet
    assert keys.made_by(key, SpentKey.Made.SHEET, one) == sheet
    with pytest.raises(keys.KeyTaken):
        keys.made_by(key, SpentKey.Made.SHEET, other)
    with pytest.raises(keys.KeyTaken):
        club_writes.start_sheet(other, "Mardi", NAMES[:4], 0, key=key)
    assert Sheet.objects.count() == 1


def make_sheet(key, name="Lundi"):
    """What a new-session write does: the sheet, and its key spent in the same transaction."""

    def make():
        with transaction.atomic():
            sheet = Sheet.objects.create(name=name, first_dealer=0)
            keys.spend(key, SpentKey.Made.SHEET, sheet=sheet)
        return sheet

    return make


def test_once_makes_it_once_and_then_answers_with_it():
    key = uuid.uuid4()
    first, made = keys.once(key, SpentKey.Made.SHEET, make_sheet(key))
    assert made
    again, made = keys.once(key, SpentKey.Made.SHEET, make_sheet(key, "Mardi"))
    assert (again, made) == (first, False)
    assert list(Sheet.objects.values_list("name", flat=True)) == ["Lundi"]


def test_once_undoes_a_second_make_that_finds_the_key_spent(monkeypatch):
    """Two of the same form at once: both find the key unspent, the second's ``spend`` fails,
    its transaction is undone, and it is answered with the first's session."""
    key = uuid.uuid4()
    first = make_sheet(key)()
    looks = []
    real = keys.made_by

    def made_by(*args, **kwargs):
        looks.append(args)
        # The first look finds nothing: the other form had not spent the key yet.
        return None if len(looks) == 1 else real(*args, **kwargs)

    monkeypatch.setattr(keys, "made_by", made_by)
    found, made = keys.once(key, SpentKey.Made.SHEET, make_sheet(key, "Mardi"))
    assert (found, made) == (first, False)
    assert len(looks) == 2
    assert list(Sheet.objects.values_list("name", flat=True)) == ["Lundi"]


def test_once_on_a_key_spent_on_something_else_is_taken_and_makes_nothing():
    key = uuid.uuid4()
    Club.objects.create(name="Jeudi")
    with transaction.atomic():
        keys.spend(key, SpentKey.Made.CLUB, club=Club.objects.get())
    with pytest.raises(keys.KeyTaken):
        keys.once(key, SpentKey.Made.SHEET, make_sheet(key))
    assert not Sheet.objects.exists()


def test_a_key_is_spent_once():
    key = uuid.uuid4()
    keys.spend(key, SpentKey.Made.CLUB, club=Club.objects.create(name="Jeudi"))
    with pytest.raises(IntegrityError), transaction.atomic():
        keys.spend(key, SpentKey.Made.CLUB, club=Club.objects.create(name="Vendredi"))
    assert SpentKey.objects.count() == 1


def test_a_new_form_carries_a_fresh_key_and_a_renewed_one_another():
    first, second = keys.KeyedForm(), keys.KeyedForm()
    assert isinstance(first.initial["key"], uuid.UUID)
    assert first.initial["key"] != second.initial["key"]
    posted = QueryDict(f"key={first.initial['key']}&name=Ana")
    renewed = keys.renewed(posted)
    assert renewed["name"] == "Ana"
    assert renewed["key"] != str(first.initial["key"])
    assert uuid.UUID(renewed["key"])
    # The posted data is left as it was.
    assert posted["key"] == str(first.initial["key"])


@pytest.mark.parametrize("value", ["", "nope", "1" * 40])
def test_a_missing_or_broken_key_is_no_key(value):
    form = keys.KeyedForm({"key": value})
    assert form.is_valid()
    assert form.cleaned_data["key"] is None


def test_a_night_form_sent_twice_opens_one_night():
    club = Club.objects.create(name="Jeudi")
    key = uuid.uuid4()
    args = (club, "Soirée", date(2026, 3, 14), NAMES, 2, 4)
    first = night_writes.create_night(*args, key=key)
    again = night_writes.create_night(*args, key=key)
    assert (first.done, again.done, again.already) == (True, False, True)
    assert again.night == first.night
    assert Night.objects.count() == 1
