"""The night after the game (scoresheet/nights/summary.py, after_views.py): the summary's
figures worked out by hand on a known night, its page under both links, its picture, the
printed ranking, the spreadsheet, and the Open Graph card on the read-only pages only."""

import csv
import io
import re
import uuid
from datetime import date

import openpyxl
import pytest
from django.urls import reverse
from PIL import Image, ImageChops

from scoresheet import scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import NightTable
from scoresheet.nights import summary
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import summary_image, writes
from tests.test_summary_image import alone, name_box

EIGHT = ["Zoé", "Élodie", "émile", "Anaïs", "Bruno", "Chloé", "Dan", "Farid"]


@pytest.fixture
def club(db):
    return club_writes.create_club("Le Petit").club


def new_night(club, names=EIGHT, rounds=2, deals=2, seed="2026"):
    return night_writes.create_night(
        club, "Tournoi", date(2026, 12, 4), names, rounds, deals, seed=seed
    ).night


def garde(taker, points):
    """A garde at 4 with 2 bouts (41 needed, docs/rules.md §2.1): made or lost by
    |points − 41|, (25 + that) × 2 per defender."""
    return scoring.Hand(seats=4, taker=taker, contract="garde", bouts=2, points=points)


def seats(night, number):
    """Round ``number``'s tables: their sessions and the names in seat order."""
    names = dict(night.club.players.values_list("pk", "name"))
    found = []
    for table in NightTable.objects.filter(night=night, round=number).select_related(
        "club_sheet__sheet"
    ):
        found.append((table.club_sheet.sheet, [names[p] for p in table.players]))
    return found


@pytest.fixture
def known(club):
    """Eight players, two rounds at two tables of 4, and every figure of its summary by hand.

    Round 1, table 1 (seats a b c d): a takes a garde with 56 (made by 15: 80 a defender,
    +240 / −80); b takes one with 36 (lost by 5: 60 a defender, −180 / +60). Totals: a +300,
    b −260, c −20, d −20.
    Round 1, table 2 (e f g h): g takes a garde with 66 (made by 25: 100 a defender, +300 /
    −100), then a passed deal. Totals: e −100, f −100, g +300, h −100.
    Round 2: at a's table, a takes a garde with 56 again (+240, the others −80); the other
    table plays nothing (0 each)."""
    night = new_night(club)
    (one, (a, b, c, d)), (two, (e, f, g, h)) = seats(night, 1)
    writes.add_hand(one.token, garde(0, 56), uuid.uuid4())
    writes.add_hand(one.token, garde(1, 36), uuid.uuid4())
    writes.add_hand(two.token, garde(2, 66), uuid.uuid4())
    writes.add_hand(two.token, None, uuid.uuid4())
    night_writes.draw_round(club, night, 2)
    rounds = seats(night, 2)
    played, names = next((sheet, names) for sheet, names in rounds if a in names)
    writes.add_hand(played.token, garde(names.index(a), 56), uuid.uuid4())
    round_one = {a: 300, b: -260, c: -20, d: -20, e: -100, f: -100, g: 300, h: -100}
    round_two = {name: 0 for sheet, names in rounds for name in names}
    round_two.update({name: -80 for name in names if name != a})
    round_two[a] = 240
    night.refresh_from_db()
    return night, {"a": a, "g": g}, round_one, round_two


def test_the_summary_s_figures_worked_out_by_hand(known):
    night, who, round_one, round_two = known
    facts = summary.read(night)
    # Four deals in round 1 (one passed), one in round 2.
    assert (facts.deals, facts.passed) == (5, 1)
    # 300 in one round: a and g, both in round 1 (a's 240 of round 2 is less).
    assert facts.best_round.points == 300
    assert set(facts.best_round.who) == {(who["a"], 1), (who["g"], 1)}
    # The biggest hand: g's garde made by 25, 100 a defender, round 1, table 2, hand 1.
    big = facts.biggest
    assert (big.round, big.table, big.hand.number, big.taker, big.partner) == (
        1,
        2,
        1,
        who["g"],
        None,
    )
    assert (big.hand.value, big.hand.made, big.hand.label) == (100, True, "Garde")
    # a took twice and made both; everyone else took once at most.
    assert [(t.name, t.taken, t.made, t.percent) for t in facts.takers] == [(who["a"], 2, 2, 100)]
    # The ranking: each round's score and the total, places shared on a tie.
    lines = {line.name: line for line in facts.lines}
    for name, points in round_one.items():
        assert lines[name].rounds == [points, round_two[name]]
        assert lines[name].total == points + round_two[name]
    totals = sorted((line.total for line in facts.lines), reverse=True)
    for line in facts.lines:
        assert line.place == 1 + sum(total > line.total for total in totals)
    assert facts.lines[0].name == who["a"]
    assert facts.lines[0].total == 540


def test_ties_for_the_most_takes_and_the_best_round_name_everyone(club):
    night = new_night(club, rounds=1)
    (one, (a, b, _c, _d)), (two, (e, *_rest)) = seats(night, 1)
    # a and e each take a garde made by 15 (+240), and b loses one by 5 (a defender +60): a's
    # 300 is the best round; a, b and e took once each.
    writes.add_hand(one.token, garde(0, 56), uuid.uuid4())
    writes.add_hand(one.token, garde(1, 36), uuid.uuid4())
    writes.add_hand(two.token, garde(0, 56), uuid.uuid4())
    facts = summary.read(night)
    assert facts.best_round.points == 300
    assert facts.best_round.who == ((a, 1),)
    takers = {(t.name, t.taken, t.made, t.percent) for t in facts.takers}
    assert takers == {(a, 1, 1, 100), (b, 1, 0, 0), (e, 1, 1, 100)}
    # The biggest hand: 80 a defender twice (round 1, tables 1 and 2): the earliest table.
    assert (facts.biggest.table, facts.biggest.taker, facts.biggest.hand.value) == (1, a, 80)


def test_a_night_without_a_hand_has_no_facts_yet(club):
    night = new_night(club)
    facts = summary.read(night)
    assert (facts.deals, facts.best_round, facts.biggest, facts.takers) == (0, None, None, ())
    assert {line.place for line in facts.lines} == {1}


def test_the_summary_page_under_both_links(client, known):
    night, who, _one, _two = known
    club = night.club
    full = client.get(reverse("night_summary", args=[club.token, night.number]))
    view = client.get(reverse("view_night_summary", args=[club.view_token, night.number]))
    for response in (full, view):
        page = response.content.decode()
        assert response.status_code == 200
        assert "Final ranking" in page
        assert "Best round" in page
        assert "+300" in page
        assert f"{who['g']} in round 1" in page
        assert "Round 1 · Table 2, hand 1" in page
        # Shared: the read-only link, never the full one.
        share = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', page, re.S)[1]
        assert f"/cv/{club.view_token}/nights/{night.number}/summary/" in share
        assert club.token not in share
        assert share.splitlines()[1] == f"1. {who['a']} +540"
    assert club.token not in view.content.decode()


def test_open_graph_tags_on_the_read_only_night_pages_only(client, known):
    night, who, _one, _two = known
    club = night.club
    for name in ("night", "night_screen", "night_summary", "night_print"):
        full = client.get(reverse(name, args=[club.token, night.number])).content.decode()
        assert 'property="og:' not in full
        view = client.get(reverse("view_" + name, args=[club.view_token, night.number]))
        page = view.content.decode()
        tags = dict(re.findall(r'<meta property="(og:[a-z:]+)" content="([^"]*)"', page))
        assert tags["og:title"] == "Tournoi · Le Petit"
        assert tags["og:url"].endswith(
            f"/cv/{club.view_token}/nights/{night.number}/"
            + {
                "night": "",
                "night_screen": "screen/",
                "night_summary": "summary/",
                "night_print": "print/",
            }[name]
        )
        assert tags["og:image"].endswith(
            f"/cv/{club.view_token}/nights/{night.number}/summary.png"
        )
        assert (tags["og:image:width"], tags["og:image:height"]) == ("1200", "630")
        assert tags["og:description"].startswith(f"1. {who['a']} +540 · ")
        # Never the full link, anywhere in the page.
        assert club.token not in page


def test_the_picture_is_1200_by_630_with_an_etag(client, known):
    night, _who, _one, _two = known
    url = reverse("view_night_summary_png", args=[night.club.view_token, night.number])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (1200, 630)
    again = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304
    # A new hand at a table changes it.
    table = NightTable.objects.filter(night=night, round=2).first().club_sheet.sheet
    writes.add_hand(table.token, None, uuid.uuid4())
    assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 200
    # Only under the read-only link.
    assert client.get(url.replace(night.club.view_token, night.club.token)).status_code == 404


def test_the_picture_draws_the_leader_s_name(known):
    """Drawn as tests/test_summary_image.py checks a session's: the leader's name is really
    there, in the leader's line."""
    night, who, _one, _two = known
    facts = summary.read(night)
    image = Image.open(io.BytesIO(summary.picture(night, facts.lines, facts.deals, "4 Dec")))
    lines = summary.card_lines(facts.lines)
    assert lines[0].name == who["a"]
    assert lines[0].place == 1
    assert len(lines) == summary.CARD_LINES
    origin, text, face, box = name_box(lines, 0)
    assert text == who["a"]
    expected = alone(origin, text, face, summary_image.LEADER)
    assert ImageChops.difference(image.crop(box), expected.crop(box)).getbbox() is None
    assert summary.card_footer(facts.lines) == "Tarot score sheet · 2 more players in the ranking"


def test_the_printed_ranking_has_no_control(client, known):
    night, _who, _one, _two = known
    for url in (
        reverse("night_print", args=[night.club.token, night.number]),
        reverse("view_night_print", args=[night.club.view_token, night.number]),
    ):
        page = client.get(url).content.decode()
        main = page.split('<main id="main">')[1].split("</main>")[0]
        assert "<form" not in main
        assert "<input" not in main
        assert "<select" not in main
        assert "size: A4 portrait" in page
        assert '<th scope="col">R1</th>' in main
        assert '<th scope="col">R2</th>' in main
        for name in EIGHT:
            assert name in main


def test_the_ranking_xlsx_is_the_csv_cell_by_cell(client, known):
    night, _who, _one, _two = known
    args = [night.club.view_token, night.number]
    text = client.get(reverse("view_night_csv", args=args)).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    response = client.get(reverse("view_night_xlsx", args=args))
    disposition = response["Content-Disposition"]
    assert disposition.startswith('attachment; filename="Tournoi 2026-12-04.xlsx"')
    book = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    sheet = book.active
    cells = [list(row) for row in sheet.iter_rows(values_only=True)]
    assert len(cells) == len(rows) == 9
    for row, read in zip(rows, cells, strict=True):
        for text, value in zip(row, read, strict=True):
            if text.lstrip("-").isdigit():
                # Numbers as numbers.
                assert type(value) is int
                assert value == int(text)
            elif text == "":
                assert value is None
            else:
                assert value == text
    assert cells[0] == ["Place", "Player", "Round 1", "Round 2", "Total"]
    assert cells[1][1:] == [rows[1][1], 300, 240, 540]


def test_the_night_page_links_its_summary_print_and_spreadsheet(client, known):
    night, _who, _one, _two = known
    club = night.club
    page = client.get(reverse("view_night", args=[club.view_token, night.number])).content
    page = page.decode()
    for name in ("night_summary", "night_print", "night_xlsx", "night_csv"):
        assert reverse("view_" + name, args=[club.view_token, night.number]) in page


def test_the_summary_costs_the_same_queries_at_8_and_24_players(client, club):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for count in (8, 24):
        names = [f"{name} {count}" for name in EIGHT] + [f"Joueur {n}" for n in range(count - 8)]
        night = new_night(club, names=names, rounds=2)
        night_writes.draw_round(club, night, 2)
        for table in NightTable.objects.filter(night=night).select_related("club_sheet__sheet"):
            writes.add_hand(table.club_sheet.sheet.token, garde(0, 56), uuid.uuid4())
        url = reverse("view_night_summary", args=[club.view_token, night.number])
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1]


def test_a_restored_night_with_no_round_drawn_has_every_page(client, club):
    """A club backup may hold a night whose rounds were never drawn: its summary, picture,
    printed ranking and spreadsheet still answer (one empty round), never a 500."""
    from scoresheet.files import club_backup

    new_night(club)
    data = club_backup.dump(club)
    data["nights"][0]["rounds"] = []
    for session in data["sessions"]:
        session["hands"] = []
    restored = club_backup.load(club_backup.dumps(data))
    night = restored.nights.get()
    assert night.drawn == 0
    args = [restored.view_token, night.number]
    for name in ("view_night_summary", "view_night_print", "view_night_summary_png"):
        assert client.get(reverse(name, args=args)).status_code == 200, name
    response = client.get(reverse("view_night_xlsx", args=args))
    book = openpyxl.load_workbook(io.BytesIO(b"".join(response.streaming_content)))
    assert next(book.active.iter_rows(values_only=True)) == ("Place", "Player", "Round 1", "Total")
