"""Headers that keep the secret links secret, and names shown as text everywhere."""

import re
import uuid

import pytest
from django.urls import reverse

from scoresheet.models import Seat, Sheet

pytestmark = pytest.mark.django_db

EVIL = '<script>alert("x")</script>'


@pytest.fixture
def evil_sheet(client):
    sheet = Sheet.objects.create(name=f"Night {EVIL}", first_dealer=0)
    for position, name in enumerate([EVIL, "=SUM(A1:A9)", "Chloé", "<b>Dan</b>"]):
        Seat.objects.create(sheet=sheet, position=position, name=name)
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    client.post(reverse("hand_new", args=[sheet.token]), {**data, "points": "49"})
    return sheet


def pages(client, sheet):
    """Every page a browser can open for a sheet, full and read-only."""
    token = sheet.token
    return {
        "home": client.get("/"),
        "new": client.get(reverse("new_sheet")),
        "sheet": client.get(reverse("sheet", args=[token])),
        "view": client.get(reverse("view_sheet", args=[sheet.view_token])),
        "form": client.get(reverse("hand_new", args=[token])),
        "edit": client.get(reverse("hand_edit", args=[token, 1])),
        "delete": client.get(reverse("hand_delete", args=[token, 1])),
        "share": client.get(reverse("share", args=[token])),
        "preview": client.post(
            reverse("hand_preview", args=[token]),
            {
                "key": str(uuid.uuid4()),
                "taker": "0",
                "contract": "garde",
                "bouts": "2",
                "points": "49",
            },
            headers={"HX-Request": "true"},
        ),
    }


def test_security_headers_on_every_page(client, evil_sheet):
    for name, response in pages(client, evil_sheet).items():
        assert response.status_code == 200, name
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy, name
        assert "frame-ancestors 'none'" in policy, name
        assert "unsafe-inline" not in policy, name
        assert response["X-Content-Type-Options"] == "nosniff", name
        assert response["Referrer-Policy"] in ("same-origin", "no-referrer"), name
        assert response["X-Frame-Options"] == "DENY", name


def test_no_inline_script_handler_or_style(client, evil_sheet):
    for name, response in pages(client, evil_sheet).items():
        page = response.content.decode()
        for tag, body in re.findall(r"(<script\b[^>]*>)(.*?)</script>", page, re.DOTALL):
            if 'type="application/json"' in tag:
                # A data block (json_script, read by offline.js): never run, and nothing in
                # it can close the tag or open another.
                assert "<" not in body, (name, tag)
            else:
                assert "src=" in tag, (name, tag)
                assert not body.strip(), (name, tag)
        assert not re.search(r"\son[a-z]+\s*=", page), name
        assert not re.search(r"\sstyle\s*=", page), name
        assert "hx-on" not in page, name


def test_names_are_shown_as_text_everywhere(client, evil_sheet):
    client.get(evil_sheet.get_absolute_url())
    for name, response in pages(client, evil_sheet).items():
        page = response.content.decode()
        assert EVIL not in page, name
        assert "<b>Dan</b>" not in page, name
    sheet_page = pages(client, evil_sheet)["sheet"].content.decode()
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in sheet_page
    preview = pages(client, evil_sheet)["preview"].content.decode()
    assert "&lt;b&gt;Dan&lt;/b&gt;" in preview
    # The QR page names the session it shares.
    share = pages(client, evil_sheet)["share"].content.decode()
    assert "Night &lt;script&gt;" in share


def test_names_in_the_csv_are_text_and_never_formulas(client, evil_sheet):
    response = client.get(reverse("export_csv", args=[evil_sheet.token]))
    body = b"".join(response.streaming_content).decode("utf-8-sig")
    header = body.splitlines()[0]
    assert '"\'=SUM(A1:A9)"' in header
    # CSV is not HTML: the name is kept as typed, quoted (its quotes doubled).
    assert EVIL.replace('"', '""') in header


def test_session_link_does_not_leak_through_the_referrer(client, evil_sheet):
    response = client.get(evil_sheet.get_absolute_url())
    assert response["Referrer-Policy"] == "same-origin"
    assert '<meta name="referrer" content="same-origin">' in response.content.decode()
