"""Spanish: the pages speak it from the browser's language, and the game terms stay French."""

import csv
import io
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from django.utils.translation import ngettext

pytestmark = pytest.mark.django_db


@pytest.fixture
def spanish():
    """A browser set to Spanish."""
    return Client(headers={"Accept-Language": "es-ES,es;q=0.9"})


def page(response) -> str:
    assert response.status_code == 200
    return response.content.decode()


def test_home_in_spanish(spanish):
    html = page(spanish.get("/"))
    assert '<html lang="es"' in html
    assert "Nueva partida" in html
    assert "Tus partidas" in html
    assert "Importar una copia de seguridad" in html
    assert ">New session<" not in html


def test_latin_american_spanish_gets_spanish_too():
    html = page(Client(headers={"Accept-Language": "es-MX"}).get("/"))
    assert "Nueva partida" in html


def test_hand_form_in_spanish_keeps_the_game_terms_french(spanish, sheet5):
    html = page(spanish.get(reverse("hand_new", args=[sheet5.token])))
    for spanish_text in ["Tomador", "Contrato", "Compañero", "Puntos", "Guardar la mano", "solo"]:
        assert spanish_text in html
    for term in ["Prise", "Garde sans", "Garde contre", "Bouts", "Petit au bout", "Poignées"]:
        assert term in html
    assert "Chelem" in html
    assert "simple (8 triunfos)" in html
    assert "<legend>Tomador</legend>" in html
    assert ">Taker<" not in html


def test_sheet_in_spanish(spanish, sheet4):
    hand = {
        "key": str(uuid.uuid4()),
        "taker": "2",
        "contract": "garde",
        "bouts": "2",
        "points": "49",
        "petit_au_bout": "attack",
        "poignee_2": "simple",
    }
    response = spanish.post(reverse("hand_new", args=[sheet4.token]), hand, follow=True)
    html = page(response)
    assert "Mano 1 guardada." in html
    assert "ganada por 8" in html
    assert "petit au bout · ataque" in html
    assert "poignée simple · Chloé" in html
    assert "Mano 2: reparte <strong>Ben</strong>" in html
    assert "2 bouts" in html
    assert "Nueva mano" in html


def test_refused_hand_explains_in_spanish(spanish, sheet4):
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "9"}
    html = page(spanish.post(reverse("hand_new", args=[sheet4.token]), data))
    assert "Bouts: elige 0, 1, 2 o 3." in html
    assert "Revisa los campos señalados." in html


def test_csv_export_in_spanish(spanish, sheet4):
    hand = {"key": str(uuid.uuid4()), "taker": "0", "contract": "prise", "bouts": "1"}
    spanish.post(reverse("hand_new", args=[sheet4.token]), {**hand, "points": "40"})
    response = spanish.get(reverse("export_csv", args=[sheet4.token]))
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0][:9] == [
        "Mano",
        "Repartidor",
        "Tomador",
        "Compañero",
        "Contrato",
        "Bouts",
        "Puntos",
        "Resultado",
        "Petit au bout",
    ]
    assert rows[1][4] == "Prise"
    assert rows[1][7] == "perdida por 11"
    assert rows[-2][0] == "Total"


def test_statistics_in_spanish(spanish, sheet4):
    html = page(spanish.get(reverse("statistics", args=[sheet4.token])))
    assert "Estadísticas" in html
    assert "Racha ganadora más larga" in html
    assert "Petit au bout" in html
    assert "Chelems" in html


@pytest.mark.parametrize(
    ("count", "expected"), [(0, "0 manos"), (1, "1 mano"), (2, "2 manos"), (21, "21 manos")]
)
def test_spanish_plurals(count, expected):
    with translation.override("es"):
        text = ngettext("%(hands)s hand", "%(hands)s hands", count) % {"hands": count}
    assert text == expected
