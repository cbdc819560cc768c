"""Who can do what: the full link plays, the read-only link watches, nothing lists sessions."""

import json
import re
import uuid

import pytest
from django.urls import reverse

from scoresheet.models import Hand

pytestmark = pytest.mark.django_db

HAND = {"taker": "2", "contract": "garde", "bouts": "2", "points": "49"}


@pytest.fixture
def played(client, sheet4):
    client.post(reverse("hand_new", args=[sheet4.token]), {"key": str(uuid.uuid4()), **HAND})
    return sheet4


def test_tokens_never_start_with_a_dash():
    from scoresheet.models import new_token

    assert not any(new_token().startswith("-") for _ in range(2000))


def test_the_two_links_are_independent_secrets(make_sheet):
    sheets = [make_sheet(name=f"s{i}") for i in range(3)]
    tokens = [t for s in sheets for t in (s.token, s.view_token)]
    assert len(set(tokens)) == 6
    for token in tokens:
        assert len(token) >= 22  # 128 bits or more, URL-safe base64
        assert re.fullmatch(r"[A-Za-z0-9_-]+", token)


def test_read_only_sheet_shows_the_scores_and_no_controls(client, played):
    page = client.get(played.get_view_url()).content.decode()
    assert "+198" in page
    assert "read-only" in page
    assert played.token not in page
    for control in ["New hand", "Undo", "/edit/", "/delete/", "hands/new", "Share", "hx-post"]:
        assert control not in page, control
    posts = [tag for tag in re.findall(r"<form[^>]*>", page) if 'method="post"' in tag]
    # This phone's language and theme, nothing of the session's.
    assert [re.search(r'action="([^"]*)"', tag).group(1) for tag in posts] == [
        "/i18n/setlang/",
        "/theme/",
    ]


def test_full_sheet_offers_the_read_only_link_and_its_qr_code(client, played):
    page = client.get(played.get_absolute_url()).content.decode()
    assert f"/v/{played.view_token}/" in page
    assert f'src="/v/{played.view_token}/qr.svg"' in page
    assert f'href="/s/{played.token}/share/"' in page


@pytest.mark.parametrize(
    ("method", "name", "args"),
    [
        ("get", "hand_new", []),
        ("post", "hand_new", []),
        ("post", "hand_preview", []),
        ("get", "hand_edit", [1]),
        ("post", "hand_edit", [1]),
        ("get", "hand_delete", [1]),
        ("post", "hand_delete", [1]),
        ("post", "undo", []),
        ("get", "share", []),
        ("get", "qr", []),
    ],
)
def test_every_write_url_refuses_the_read_only_token(client, played, method, name, args):
    path = reverse(name, args=[played.view_token, *args])
    hand = played.hands.get()
    data = {"key": str(hand.key), "version": "1", **HAND, "points": "60"}
    response = getattr(client, method)(path, data) if method == "post" else client.get(path)
    assert response.status_code == 404
    hand.refresh_from_db()
    assert (hand.points, played.hands.count()) == (49, 1)


def test_read_only_token_is_not_a_full_token_anywhere(client, played):
    assert client.get(f"/s/{played.view_token}/").status_code == 404
    assert client.get(f"/v/{played.token}/").status_code == 404


def test_read_only_exports(client, played):
    csv = client.get(reverse("view_export_csv", args=[played.view_token]))
    assert csv.status_code == 200
    assert b",198," in b"".join(csv.streaming_content)
    backup = client.get(reverse("view_export_json", args=[played.view_token]))
    assert json.loads(backup.getvalue())["hands"][0]["points"] == 49


def test_qr_codes_are_svg_of_the_links(client, played):
    for name, token in [("qr", played.token), ("view_qr", played.view_token)]:
        response = client.get(reverse(name, args=[token]))
        assert response.status_code == 200
        assert response["Content-Type"] == "image/svg+xml"
        assert "private" in response["Cache-Control"]
        svg = response.content.decode()
        assert svg.lstrip().startswith("<?xml")
        assert f"/{token}/" in svg  # the title names the link it encodes


def test_share_page_shows_both_links(client, played):
    page = client.get(reverse("share", args=[played.token])).content.decode()
    assert f"http://testserver/s/{played.token}/" in page
    assert f"http://testserver/v/{played.view_token}/" in page


def test_home_lists_read_only_sessions_with_their_read_only_link(client, played):
    client.get(played.get_view_url())
    page = client.get("/").content.decode()
    assert f'href="/v/{played.view_token}/"' in page
    assert played.token not in page
    assert "read-only" in page


def test_home_keeps_the_full_link_of_a_sheet_also_opened_read_only(client, played):
    client.get(played.get_absolute_url())
    client.get(played.get_view_url())
    page = client.get("/").content.decode()
    assert f'href="/s/{played.token}/"' in page
    assert f'href="/v/{played.view_token}/"' not in page
    assert page.count(played.name) == 1


def test_home_never_lists_sessions_this_browser_was_not_given(client, make_sheet, played):
    page = client.get("/").content.decode()
    # This test client only created the hand; it never opened a sheet page.
    assert "Vendredi" not in page
    assert Hand.objects.count() == 1


def test_there_is_no_admin_nor_any_account(client):
    """A link is the key to a session or a club: no admin to log in to."""
    assert client.get("/admin/").status_code == 404
    assert client.get("/admin/login/").status_code == 404
