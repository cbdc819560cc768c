"""The app in French at the table: agreement, decimal commas, Cancel vs Undo."""

import gettext
import re
import uuid
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoresheet import scoring, typography
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


NBSP = "\u00a0"


def test_the_french_catalogue_puts_a_no_break_space_before_a_high_sign():
    """French typography (scoresheet/typography.py): a no-break space before ; : ! ? and %, and
    inside « », in every message, its placeholders written out ("%(percent)s %%" is "1 %")."""
    mo = Path(__file__).resolve().parent.parent / "locale/fr/LC_MESSAGES/django.mo"
    with mo.open("rb") as file:
        catalog = gettext.GNUTranslations(file)._catalog
    texts = [text for key, text in catalog.items() if key and isinstance(text, str)]
    written = [re.sub(r"%\(\w+\)[sd]", "1", text).replace("%%", "%") for text in texts]
    assert [text for text in written if typography.french(text) != text] == []
    # The signs are there to be spaced: the check reads the messages that have them.
    assert sum(f"{NBSP}:" in text for text in written) > 100
    assert any(f"1{NBSP}%" in text for text in written)
    assert any(f"«{NBSP}" in text for text in written)


def test_the_text_the_pages_write_is_spaced_the_french_way(french):
    """The summary's "Took the most" and chelems, the printed sheet's final standings, a misère
    in a hand's formula, the share text's title: in French, no-break spaces where the page puts
    ; and : around the translated words (the issue's "0 % réussies; Jérôme")."""
    rules = scoring.Rules(misere=10)
    names = ["Ana", "Ben", "Chloé", "Dan"]
    made = scoring.Hand(4, 0, "garde", 2, 51, miseres={2: 1})
    lost = scoring.Hand(4, 1, "prise", 1, 41)
    chelem = scoring.Hand(4, 0, "garde", 3, 91, chelem="unannounced_made")
    hands = [(None, made), (None, lost), (None, chelem), (None, lost)]
    sheet = writes.create_sheet("Jeudi", names, 0, rules=rules, hands=hands)

    summary = page(french.get(reverse("summary", args=[sheet.token])))
    # Ana took 2 and made 2, Ben took 2 and made none (the two who took the most).
    assert (
        f"Ana{NBSP}: 2 donnes, 100{NBSP}% réussies{NBSP}; Ben{NBSP}: 2 donnes, 0{NBSP}% réussies"
        in summary
    )
    assert f"1{NBSP}: donne 3" in summary
    assert f"Jeudi{NBSP}: les résultats" in summary
    # Nowhere in the page's text a sign that ends a phrase without its space.
    text = re.sub(r"<[^>]*>", "", summary[summary.index("<main") : summary.index("</main>")])
    assert re.findall(r".{0,20}[^\s\u00a0][;:!?](?=\s|$).{0,10}", text) == []
    printed = b"".join(french.get(reverse("print_sheet", args=[sheet.token])).streaming_content)
    printed = printed.decode()
    assert f"Classement final{NBSP}: 1." in printed
    sheet_page = page(french.get(sheet.get_absolute_url()))
    # Hand 1: (25 + 10) × 2 = 70 per defender (docs/rules.md E1), then Chloé's misère.
    assert f"par défenseur</span>{NBSP}; 10 misère × 3 (Chloé)</p>" in sheet_page
