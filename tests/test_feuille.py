"""The printed sheet's lines (scoresheet/sheets/feuille.py): read a chunk at a time with the
running totals added up as they go, and written as table rows in Python exactly as the template
wrote them before (the template language took most of a long session's page)."""

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from scoresheet import scoring
from scoresheet.sheets import feuille, writes

# The rows as print.html's partial wrote them, before they were written in Python.
TEMPLATE = (
    "{% load i18n scoresheet %}"
    "{% for line in rows %}\n"
    '<tr{% if line.passed %} class="passed"{% endif %}><th scope="row" class="number">'
    "{{ line.number }}</th><td>{{ names|index:line.dealer }}</td>{% if line.passed %}"
    '<td colspan="3" class="what">{% translate "Everyone passed" %}</td>{% else %}<td>'
    "{{ names|index:line.taker }}{% if line.partner is not None %} → "
    '{{ names|index:line.partner }}{% elif line.alone %} ({% translate "alone" %}){% endif %}'
    '</td><td>{{ line.contract }}<span class="contract-detail">{% blocktranslate count '
    "bouts=line.bouts %}{{ bouts }} bout{% plural %}{{ bouts }} bouts{% endblocktranslate %} · "
    "{% blocktranslate with points=line.points|points %}{{ points }} pts{% endblocktranslate %}"
    '</span></td><td class="result">{% if line.made %}{% blocktranslate with diff=line.diff %}'
    "made by {{ diff }}{% endblocktranslate %}{% else %}{% blocktranslate with diff=line.diff %}"
    "lost by {{ diff }}{% endblocktranslate %}{% endif %}</td>{% endif %}"
    '{% for cell in line.cells %}<td class="seat">{% if cell.out %}<span class="score">—'
    '</span>{% else %}<span class="score">{{ cell.score|signed }}</span>{% endif %}'
    '<span class="running">{{ cell.total|signed }}</span></td>{% endfor %}</tr>{% endfor %}'
)
NAMES = ["Ana <b>", "Ben & co", 'Chloé "C"', "Dan's", "Élise", "Fanny"]


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "es"])
def test_the_rows_are_the_templates(language):
    """Every kind of line (passed, alone at five, a partner, a dealer sitting out, half points,
    names to escape), in each language: the same markup to the character."""
    six = scoring.Rules(dealer_sits_out=True)
    sheets = [
        (
            NAMES[:5],
            scoring.FFT,
            [
                scoring.Hand(5, 0, "garde", 2, Decimal("44.5"), partner=3),
                None,
                scoring.Hand(5, 4, "prise", 1, Decimal("50.5")),
                scoring.Hand(5, 2, "garde_contre", 0, 20, partner=1),
            ],
        ),
        (
            NAMES,
            six,
            [
                scoring.Hand(6, 1, "garde_sans", 3, 70, partner=2, dealer=0),
                scoring.Hand(6, 3, "prise", 1, 30, partner=4, dealer=1),
            ],
        ),
    ]
    for names, rules, hands in sheets:
        dealt = [(getattr(hand, "dealer", None) if rules is six else None, hand) for hand in hands]
        sheet = writes.create_sheet("Print", names, 0, rules=rules, hands=dealt)
        with translation.override(language):
            lines = [line for chunk in feuille.chunks(sheet, names, rules) for line in chunk]
            expected = Template(TEMPLATE).render(Context({"rows": lines, "names": names}))
            assert feuille.Markup(names).rows(lines) == expected


@pytest.mark.django_db
def test_the_running_totals_add_up_across_chunks(monkeypatch):
    """A chunk goes on from the totals the one before ended at: docs/rules.md's garde of 2
    bouts and 49 points is (25 + 8) × 2 = 66 a defender, 198 to the taker, hand after hand."""
    monkeypatch.setattr(feuille, "CHUNK", 2)
    names = ["Ana", "Ben", "Chloé", "Dan"]
    hands = [(None, scoring.Hand(4, 0, "garde", 2, 49)) for _ in range(5)]
    sheet = writes.create_sheet("Chunks", names, 0, hands=hands)
    chunks = list(feuille.chunks(sheet, names, scoring.FFT))
    assert [len(chunk) for chunk in chunks] == [2, 2, 1]
    totals = [tuple(cell.total for cell in line.cells) for chunk in chunks for line in chunk]
    assert totals == [(198 * n, -66 * n, -66 * n, -66 * n) for n in range(1, 6)]
