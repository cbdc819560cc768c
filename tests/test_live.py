"""Live: every open sheet polls its revision; 204 while unchanged, else the regions."""

import re
import uuid

import pytest
from django.urls import reverse

from scoresheet.models import Sheet

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return response.content.decode()


def shown_revision(html: str) -> str:
    return re.search(r'<div id="live" [^>]*data-revision="(\d+)"', html).group(1)


def save_hand(client, sheet):
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    client.post(reverse("hand_new", args=[sheet.token]), data | {"points": "49"})


@pytest.mark.parametrize("readonly", [False, True])
def test_an_unchanged_sheet_answers_204_in_one_query(
    client, sheet4, readonly, django_assert_num_queries
):
    page = text(client.get(sheet4.get_view_url() if readonly else sheet4.get_absolute_url()))
    prefix = "view_" if readonly else ""
    token = sheet4.view_token if readonly else sheet4.token
    live = reverse(prefix + "live", args=[token])
    assert f'data-live="{live}"' in page
    revision = shown_revision(page)
    with django_assert_num_queries(1):
        response = client.get(live, {"revision": revision})
    assert response.status_code == 204
    assert response.content == b""


def test_a_change_elsewhere_sends_the_regions_out_of_band(client, htmx, sheet4):
    page = text(client.get(sheet4.get_absolute_url()))
    revision = shown_revision(page)
    save_hand(client, sheet4)  # another phone
    response = htmx.get(reverse("live", args=[sheet4.token]), {"revision": revision})
    assert response.status_code == 200
    html = text(response)
    for region in ("totals", "hands", "actions"):
        assert re.search(rf'id="{region}"[^>]*hx-swap-oob="true"', html), region
    # FFT rulebook: garde, 2 bouts, 49 → (25 + 8) × 2 = 66 per defender, 198 for the taker.
    assert 'id="hand-1"' in html
    assert "+198" in html
    assert html.count("−66") >= 3
    new = shown_revision(html)
    assert int(new) == Sheet.objects.get().revision > int(revision)
    assert htmx.get(reverse("live", args=[sheet4.token]), {"revision": new}).status_code == 204


def test_the_read_only_page_follows_without_any_action(client, htmx, sheet4):
    revision = shown_revision(text(client.get(sheet4.get_view_url())))
    save_hand(client, sheet4)
    html = text(htmx.get(reverse("view_live", args=[sheet4.view_token]), {"revision": revision}))
    assert 'id="hand-1"' in html
    assert 'id="actions"' not in html
    assert "/edit/" not in html
    assert sheet4.token not in html


def test_an_unknown_sheet_or_a_full_token_on_the_read_only_link_is_404(client, sheet4):
    assert client.get(reverse("live", args=["nope"]), {"revision": "0"}).status_code == 404
    read_only = reverse("view_live", args=[sheet4.token])
    assert client.get(read_only, {"revision": "0"}).status_code == 404


def test_the_own_save_moves_the_shown_revision(htmx, sheet4):
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    response = htmx.post(reverse("hand_new", args=[sheet4.token]), data | {"points": "49"})
    assert shown_revision(text(response)) == str(Sheet.objects.get().revision)


# The hand form open on the polling phone: the poll names it, the answer says what it
# missed on another phone.


def live_after_change(htmx, sheet, params: dict) -> str:
    response = htmx.get(reverse("live", args=[sheet.token]), {"revision": "999999999", **params})
    assert response.status_code == 200
    return text(response)


def notice(html: str) -> str:
    found = re.search(r'<div id="stale" hx-swap-oob="innerHTML">(.*?)</div>', html, re.S)
    return found.group(1) if found else ""


def test_a_correction_whose_hand_was_corrected_elsewhere_is_told_so(client, htmx, sheet4):
    save_hand(client, sheet4)
    hand = sheet4.hands.get()
    opened = {"hand": str(hand.key), "version": str(hand.version)}
    # Nothing happened to that hand: nothing to say.
    assert notice(live_after_change(htmx, sheet4, opened)) == ""
    # Another phone corrects it: the version moves on.
    data = {"key": str(hand.key), "version": "1", "taker": "1", "contract": "garde", "bouts": "2"}
    client.post(reverse("hand_edit", args=[sheet4.token, 1]), data | {"points": "49"})
    said = notice(live_after_change(htmx, sheet4, opened))
    assert "This hand was changed on another phone." in said
    edit = reverse("hand_edit", args=[sheet4.token, 1])
    assert f'hx-get="{edit}"' in said
    assert "Load the new values" in said


def test_a_correction_whose_hand_was_deleted_elsewhere_is_told_so(client, htmx, sheet4):
    save_hand(client, sheet4)
    hand = sheet4.hands.get()
    client.post(reverse("undo", args=[sheet4.token]), {"key": str(hand.key)})
    assert not sheet4.hands.exists()
    said = notice(live_after_change(htmx, sheet4, {"hand": str(hand.key), "version": "1"}))
    assert "This hand was deleted on another phone." in said


def test_a_new_hand_form_is_told_its_hand_was_entered_elsewhere(client, htmx, sheet4):
    assert notice(live_after_change(htmx, sheet4, {"number": "1"})) == ""
    save_hand(client, sheet4)
    said = notice(live_after_change(htmx, sheet4, {"number": "1"}))
    assert "Hand 1 was just entered on another phone." in said
    assert "otherwise it will be hand 2" in said
    # A form already numbered after it missed nothing.
    assert notice(live_after_change(htmx, sheet4, {"number": "2"})) == ""


@pytest.mark.parametrize(
    "params",
    [
        {"hand": "not-a-key", "version": "1"},
        {"hand": str(uuid.UUID(int=1)), "version": "x"},
        {"hand": str(uuid.UUID(int=1)), "version": "99999999999999999999"},
        {"number": "-1"},
        {"number": "٣"},
        {"number": "99999999999999999999"},
        {"number": ""},
    ],
)
def test_a_poll_naming_no_real_form_is_answered_without_a_notice(htmx, sheet4, params):
    assert notice(live_after_change(htmx, sheet4, params)) == ""


def test_the_read_only_page_is_never_told_about_a_form(client, htmx, sheet4):
    save_hand(client, sheet4)
    response = htmx.get(
        reverse("view_live", args=[sheet4.view_token]), {"revision": "999999999", "number": "1"}
    )
    assert response.status_code == 200
    assert 'id="stale"' not in text(response)
