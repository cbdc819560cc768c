"""Shared fixtures: sheets built through the models, and a client that speaks htmx."""

import pytest
from django.test import Client

from scoresheet.models import Seat, Sheet


@pytest.fixture
def make_sheet(db):
    """A sheet with the given player names and first dealer."""

    def make(names=("Ana", "Ben", "Chloé", "Dan"), first_dealer=0, name="Vendredi"):
        sheet = Sheet.objects.create(name=name, first_dealer=first_dealer)
        Seat.objects.bulk_create(
            Seat(sheet=sheet, position=position, name=player)
            for position, player in enumerate(names)
        )
        return sheet

    return make


@pytest.fixture
def sheet4(make_sheet):
    return make_sheet()


@pytest.fixture
def sheet5(make_sheet):
    return make_sheet(("Ana", "Ben", "Chloé", "Dan", "Élise"))


@pytest.fixture
def htmx():
    """A second test client (another browser) that sends what htmx sends."""
    return Client(headers={"HX-Request": "true"})
