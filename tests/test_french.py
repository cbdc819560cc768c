"""The app in French at the table: agreement, decimal commas, Cancel vs Undo."""

import gettext
import re
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoresheet import scoring
from scoresheet.sheets import writes

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """Requests in French leave French active in this thread: the next module gets English back."""
    with translation.override("en"):
        yield


@pytest.fixture
def french():
    """A browser set to French."""
    return Client(headers={"Accept-Language": "fr-FR,fr;q=0.9"})


def page(response) -> str:
    return response.content.decode()


def test_poignee_and_misere_say_aucune_and_count_atouts(french, make_sheet):
    sheet = writes.create_sheet(
        "Vendredi", ["Ana", "Ben", "Chloé", "Dan", "Élise"], 0, rules=scoring.Rules(misere=10)
    )
    html = page(french.get(reverse("hand_new", args=[sheet.token])))
    # "poignée" and "misère" are feminine: aucune; petit au bout and chelem: aucun.
    poignee = re.search(r'<fieldset class="segmented poignee">.*?</fieldset>', html, re.S).group(0)
    assert "<span>aucune</span>" in poignee
    assert "simple (8 atouts)" in poignee
    misere = re.search(r'<fieldset class="segmented poignee misere">.*?</fieldset>', html, re.S)
    assert "<span>aucune</span>" in misere.group(0)
    chelem = re.search(r'<fieldset class="segmented chelem">.*?</fieldset>', html, re.S).group(0)
    assert "<span>aucun</span>" in chelem
    assert 'aria-label="Un demi-point de plus"' in html


def test_card_points_show_a_decimal_comma(french, make_sheet):
    sheet = make_sheet(("Ana", "Ben", "Chloé"))
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "prise", "bouts": "2"}
    french.post(reverse("hand_new", args=[sheet.token]), data | {"points": "40.5"})
    html = page(french.get(sheet.get_absolute_url()))
    assert "40,5 pts" in html
    # Not a dot anywhere a number is shown (a time's seconds, "40.599849", are no card points).
    assert not re.search(r"(?<![\d.:])40\.5(?!\d)", html)


def test_cancel_and_undo_are_two_words(french, make_sheet):
    sheet = make_sheet(("Ana", "Ben", "Chloé"))
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "prise", "bouts": "2"}
    french.post(reverse("hand_new", args=[sheet.token]), data | {"points": "50"})
    assert "Reprendre la donne 1" in page(french.get(sheet.get_absolute_url()))
    form = page(french.get(reverse("hand_new", args=[sheet.token])))
    assert "data-cancel>Annuler</a>" in form
    assert "Reprendre" not in form


def test_the_french_catalogue_writes_apostrophes_and_decimals_the_french_way():
    """French typography: ’ (never '), and a decimal comma in every example number."""
    mo = Path(__file__).resolve().parent.parent / "locale/fr/LC_MESSAGES/django.mo"
    with mo.open("rb") as file:
        catalog = gettext.GNUTranslations(file)._catalog
    texts = [text for key, text in catalog.items() if key and isinstance(text, str)]
    assert len(texts) > 400
    assert [text for text in texts if "'" in text] == []
    assert [text for text in texts if re.search(r"\b\d+\.\d\b", text)] == []
