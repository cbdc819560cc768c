"""The sheet's small print at the table: the footer names the house rules of a
session played under them, and the rules line never leaves a "·" alone at the start of a line."""

import re

import pytest

from scoresheet import scoring
from scoresheet.sheets import writes

pytestmark = pytest.mark.django_db

NAMES = ["Ana", "Ben", "Chloé", "Dan", "Élise"]


def footer(page: str) -> str:
    return re.search(r'<p class="fine">(.*?)</p>', page, re.S).group(1)


def test_an_fft_session_says_fft(client):
    sheet = writes.create_sheet("FFT", NAMES, 0)
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert footer(page) == "Scores follow the FFT official rules."


def test_a_house_rules_session_says_so(client):
    sheet = writes.create_sheet("Maison", NAMES, 0, rules=scoring.Rules(rounding=10))
    said = "Scores follow the FFT official rules, with this session’s house rules."
    for url in (sheet.get_absolute_url(), sheet.get_view_url(), f"/s/{sheet.token}/stats/"):
        assert footer(client.get(url).content.decode()) == said, url
    # Pages of no session keep the plain sentence.
    assert footer(client.get("/").content.decode()) == "Scores follow the FFT official rules."


def test_the_rules_line_keeps_each_dot_after_a_word(client):
    rules = scoring.Rules(poignees="20-40-60", rounding=10, dealer_sits_out=True)
    sheet = writes.create_sheet("Maison", NAMES, 0, rules=rules)
    page = client.get(sheet.get_absolute_url()).content.decode()
    line = re.search(r'<p class="rules-line">(.*?)</p>', page, re.S).group(1)
    words = re.search(r"<span>Rules: (.*?)</span>", line).group(1)
    assert words.count("\u00a0· ") == len(rules.describe()) - 1 >= 2
    assert " · " not in line  # no breakable space before a dot, nor dots between the links
    assert re.findall(r"<a [^>]*>(.*?)</a>", line) == ["change", "Players and name"]
