"""After the game (scoresheet/sheets/after_views.py): the summary page under both links, its
picture's caching, the Open Graph tags (read-only pages only, never the full token), the printed
sheet."""

import html
import io
import json
import re
import uuid

import pytest
from django.urls import reverse
from PIL import Image

from scoresheet.files import session_backup as backup
from scoresheet.models import Sheet
from scoresheet.scoring import Hand
from scoresheet.sheets import summary_image, writes

pytestmark = pytest.mark.django_db
META = re.compile(r'<meta (?:property|name)="((?:og|twitter):[^"]+)" content="([^"]*)">')


@pytest.fixture
def played(make_backup):
    """The 4-player backup: Chloé's garde (+318), a passed deal, Ana's prise, Dan's garde contre
    chelem, Ben's garde sans with a defence chelem, a passed deal."""
    return backup.load(json.dumps(make_backup(4)))


def page(response) -> str:
    body = response.getvalue() if response.streaming else response.content
    return body.decode()


def tags(text: str) -> dict[str, str]:
    return {name: html.unescape(value) for name, value in META.findall(text)}


def test_the_summary_under_both_links(client, played):
    full = page(client.get(reverse("summary", args=[played.token])))
    view = page(client.get(reverse("view_summary", args=[played.view_token])))
    for text in (full, view):
        assert "The evening’s summary" in text
        assert "Final standings" in text
        # The standings with places, the leader first.
        names = re.findall(r'<th scope="row" class="name">([^<]+)</th>', text)
        assert names[0] == "Dan"
        assert "Biggest swing" in text
        assert "Rules: FFT" in text
        # The share button and its text: the read-only link, never the full one.
        share = re.search(r'<textarea id="share-text"[^>]*>(.*?)</textarea>', text, re.S)
        shared = html.unescape(share.group(1))
        assert shared.endswith(f"http://testserver/v/{played.view_token}/summary/")
        assert played.token not in shared
        button = re.search(r"<button[^>]*data-share=[^>]*>", text).group(0)
        assert played.token not in button
        assert f'data-share-image="/v/{played.view_token}/summary.png"' in button
    assert f"/s/{played.token}/hands/new/" not in view


def test_the_summary_is_in_the_requests_language(client, played):
    text = page(
        client.get(reverse("view_summary", args=[played.view_token]), HTTP_ACCEPT_LANGUAGE="fr")
    )
    assert "Le résumé de la soirée" in text
    assert "Plus grand écart" in text


@pytest.mark.parametrize("size", [5, 150])
def test_the_summary_page_costs_the_same_at_any_length(client, size, django_assert_num_queries):
    hands = [(None, Hand(4, n % 4, "garde", 2, 49 + n % 20)) for n in range(size)]
    sheet = writes.create_sheet("Long", ["Ana", "Ben", "Chloé", "Dan"], 0, hands=hands)
    client.get(reverse("view_summary", args=[sheet.view_token]))
    # The sheet, its seats, the first and the last hand's times.
    with django_assert_num_queries(3):
        client.get(reverse("view_summary", args=[sheet.view_token]))


def test_the_picture(client, played):
    response = client.get(reverse("view_summary_png", args=[played.view_token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (summary_image.WIDTH, summary_image.HEIGHT)
    # Only under the read-only link.
    assert client.get(f"/v/{played.token}/summary.png").status_code == 404
    assert client.get(f"/s/{played.token}/summary.png").status_code == 404


def test_the_picture_is_cached_by_revision_and_language(client, played):
    url = reverse("view_summary_png", args=[played.view_token])
    first = client.get(url)
    etag = first["ETag"]
    assert etag == f'"{played.revision}-en-{summary_image.VERSION}"'
    assert "no-cache" in first["Cache-Control"]
    again = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    # Another language draws other words: another picture.
    french = client.get(url, HTTP_IF_NONE_MATCH=etag, HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 200
    assert french["ETag"] != etag
    # A new hand moves the revision on: the picture is drawn again.
    writes.add_hand(played.token, Hand(4, 0, "garde", 2, 49), uuid.uuid4())
    changed = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert changed.content != first.content


def test_a_compressed_pictures_weak_etag_is_recognised(client, played):
    """GZipMiddleware makes the ETag weak (W/"…"), as a browser then sends it back."""
    url = reverse("view_summary_png", args=[played.view_token])
    etag = client.get(url, HTTP_ACCEPT_ENCODING="gzip")["ETag"]
    assert etag.startswith('W/"')
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='W/"0-xx-1", ' + etag).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200


def test_the_picture_answers_304_with_one_query(client, played, django_assert_num_queries):
    url = reverse("view_summary_png", args=[played.view_token])
    etag = client.get(url)["ETag"]
    with django_assert_num_queries(1):
        assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_open_graph_on_the_read_only_pages(client, played):
    for name in ("view_sheet", "view_summary"):
        found = tags(page(client.get(reverse(name, args=[played.view_token]))))
        assert found["og:title"] == "Vendredi"
        assert found["og:url"] == "http://testserver" + reverse(name, args=[played.view_token])
        assert found["og:image"] == f"http://testserver/v/{played.view_token}/summary.png"
        assert (found["og:image:width"], found["og:image:height"]) == ("1200", "630")
        assert found["twitter:card"] == "summary_large_image"
        assert found["twitter:image"] == found["og:image"]
        # Dan +798 leads (the backup's totals), one place a player, then the count.
        assert found["og:description"].startswith("1. Dan ")
        assert found["og:description"].endswith("(6 hands)")


def test_no_open_graph_on_the_full_links_pages(client, played):
    for name in ("sheet", "summary", "statistics", "print_sheet", "share", "players", "rules"):
        text = page(client.get(reverse(name, args=[played.token])))
        assert tags(text) == {}, name


def test_the_full_token_is_in_no_tag_of_any_page(client, played):
    urls = [reverse("home")]
    for name in ("sheet", "summary", "statistics", "print_sheet", "share", "players", "rules"):
        urls.append(reverse(name, args=[played.token]))
    for name in ("view_sheet", "view_summary", "view_statistics", "view_print_sheet"):
        urls.append(reverse(name, args=[played.view_token]))
    seen = 0
    for url in urls:
        for value in tags(page(client.get(url))).values():
            seen += 1
            assert played.token not in value, url
    assert seen >= 30


def test_an_empty_sheets_card_and_summary(client, sheet4):
    found = tags(page(client.get(reverse("view_summary", args=[sheet4.view_token]))))
    assert found["og:description"] == "No hand yet."
    image = client.get(reverse("view_summary_png", args=[sheet4.view_token]))
    assert image.status_code == 200


def test_the_printed_sheet_holds_every_hand(client, played):
    hands = [(None, Hand(4, n % 4, "garde", 2, 49 + n % 20)) for n in range(1200)]
    sheet = writes.create_sheet("Long", ["Ana", "Ben", "Chloé", "Dan"], 0, hands=hands)
    sheet = Sheet.objects.get(pk=sheet.pk)
    response = client.get(reverse("view_print_sheet", args=[sheet.view_token]))
    assert response.streaming
    text = page(response)
    numbers = [int(n) for n in re.findall(r'<th scope="row" class="number">(\d+)</th>', text)]
    assert numbers == list(range(1, 1201))
    assert text.count("<thead>") == 1
    # The totals row: the stored totals.
    total = re.search(r'<tbody class="feuille-total">(.*?)</tbody>', text, re.S).group(1)
    written = re.findall(r'<span class="running">([^<]+)</span>', total)
    signed = [f"+{t}" if t > 0 else f"−{-t}" if t < 0 else "0" for t in sheet.totals]
    assert written == signed
    assert "<script" not in text.split("</head>")[1].split("</footer>")[0]


def test_the_printed_sheets_lines(client, played):
    text = page(client.get(reverse("print_sheet", args=[played.token])))
    rows = re.findall(r"<tr[^>]*><th scope=\"row\" class=\"number\">.*?</tr>", text, re.S)
    assert len(rows) == 6
    # Hand 1: Ana deals, Chloé's garde with 2 bouts and 49, made by 8: +318 for her, each
    # running total after it.
    first = re.sub(r"<[^>]+>", " ", rows[0])
    assert " ".join(first.split()) == (
        "1 Ana Chloé Garde 2 bouts · 49 pts made by 8 −106 −106 −106 −106 +318 +318 −106 −106"
    )
    assert "Everyone passed" in rows[1]


def test_the_print_page_streams_at_a_cost_per_chunk(client, django_assert_num_queries):
    for size in (5, 1200):
        hands = [(None, Hand(4, n % 4, "garde", 2, 49)) for n in range(size)]
        sheet = writes.create_sheet("Long", ["Ana", "Ben", "Chloé", "Dan"], 0, hands=hands)
        # The sheet, its seats, and the hands (one query, read a chunk at a time).
        with django_assert_num_queries(3):
            page(client.get(reverse("view_print_sheet", args=[sheet.view_token])))


def test_the_backup_streams(client, played):
    response = client.get(reverse("export_json", args=[played.token]))
    assert response.streaming
    chunks = list(response.streaming_content)
    # The head, then a hand a chunk.
    assert len(chunks) >= 6
    assert json.loads(b"".join(chunks))["hands"][1] == {"passed": True, "dealer": 1}
