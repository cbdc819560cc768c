"""The sheet through Django's test client: every view, with and without htmx."""

import re
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoresheet import scoring
from scoresheet.models import Hand, Seat, Sheet
from scoresheet.sheets import writes
from tests.reading import shown_totals, totals_of

pytestmark = pytest.mark.django_db

# docs/rules.md §5.1: the FFT rulebook's sample sheet, 4 players, in play order.
RULEBOOK_HANDS = [
    {
        "taker": 2,
        "contract": "garde",
        "bouts": 2,
        "points": "49",
        "petit_au_bout": "attack",
        "poignee_2": "simple",
    },
    {"taker": 3, "contract": "garde_sans", "bouts": 1, "points": "55", "petit_au_bout": "defence"},
    {
        "taker": 1,
        "contract": "prise",
        "bouts": 0,
        "points": "49",
        "petit_au_bout": "attack",
        "poignee_1": "simple",
    },
    {"taker": 0, "contract": "garde", "bouts": 3, "points": "47", "poignee_2": "simple"},
    {
        "taker": 1,
        "contract": "garde",
        "bouts": 2,
        "points": "87",
        "petit_au_bout": "attack",
        "poignee_1": "simple",
        "chelem": "announced_made",
    },
]
RULEBOOK_TOTALS = (-446, 1346, -390, -510)


def url(name, sheet, *args):
    return reverse(name, args=[sheet.token, *args])


def hand_data(**fields):
    """A POST for the hand form, with a fresh idempotency key."""
    return {"key": str(uuid.uuid4()), **{k: str(v) for k, v in fields.items()}}


def text(response):
    return response.content.decode()


# Home and new session


def test_home_is_empty_for_a_new_browser(client, sheet4):
    response = client.get("/")
    assert response.status_code == 200
    assert "New session" in text(response)
    assert sheet4.name not in text(response)


def test_home_lists_only_this_browsers_sessions_newest_first(client, make_sheet):
    older = make_sheet(name="Lundi")
    newer = make_sheet(name="Mardi")
    make_sheet(name="Someone else's")
    client.get(url("sheet", older))
    client.get(url("sheet", newer))
    client.post(url("hand_new", newer), hand_data(**RULEBOOK_HANDS[0]))
    page = text(client.get("/"))
    assert "Someone else" not in page
    assert page.index("Mardi") < page.index("Lundi")
    assert "1 hand" in page
    assert "leader: Chloé" in page


def test_home_with_htmx_header_still_renders(htmx):
    assert htmx.get("/").status_code == 200


def test_new_session_form(client):
    response = client.get(reverse("new_sheet"))
    assert response.status_code == 200
    assert 'name="player_4"' in text(response)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_create_a_session_opens_its_sheet(client, players):
    names = ["Ana", " Ben  ", "Chloé", "Dan", "Élise"][:players]
    data = {"players": players, "first_dealer": 1, "name": "Vendredi"}
    data |= {f"player_{seat}": name for seat, name in enumerate(names)}
    data["player_4"] = data.get("player_4", "ignored when fewer players")
    response = client.post(reverse("new_sheet"), data)
    sheet = Sheet.objects.get()
    assert response.status_code == 302
    assert response["Location"] == url("sheet", sheet)
    assert list(sheet.seats.values_list("name", flat=True)) == [n.strip() for n in names]
    assert sheet.first_dealer == 1
    # The cookie keeps the token alone; the form suggests the names of the listed sheets.
    assert dict(client.session) == {"sheets": [sheet.token]}
    assert "Ben" in client.get(reverse("new_sheet")).context["known_names"]


def test_session_name_defaults_to_date_and_time(client):
    data = {"players": 3, "first_dealer": 0, "player_0": "A", "player_1": "B", "player_2": "C"}
    client.post(reverse("new_sheet"), data)
    assert re.search(r"\d{4}", Sheet.objects.get().name)


def test_token_is_long_random_and_the_only_key(client):
    data = {"players": 3, "first_dealer": 0, "player_0": "A", "player_1": "B", "player_2": "C"}
    location = client.post(reverse("new_sheet"), data)["Location"]
    sheet = Sheet.objects.get()
    assert len(sheet.token) >= 22
    assert re.fullmatch(r"[A-Za-z0-9_-]+", sheet.token)
    assert location == f"/s/{sheet.token}/"
    assert f"/{sheet.pk}/" not in location


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"player_1": "ana"}, "player_1", "already at the table"),
        ({"player_2": "  "}, "player_2", "enter a name"),
        ({"player_3": "x" * 41}, "player_3", "at most 40 characters"),
        ({"players": "7"}, "players", "Select a valid choice"),
        ({"players": "abc"}, "players", "Select a valid choice"),
        ({"players": "3", "first_dealer": "3"}, "first_dealer", "players at the table"),
        ({"first_dealer": "-1"}, "first_dealer", "Select a valid choice"),
        ({"name": "n" * 81}, "name", "at most 80 characters"),
    ],
)
def test_bad_new_session_is_refused_and_kept(client, data, field, message):
    form = {"players": "4", "first_dealer": "0", "name": "Mon nom"}
    form |= {f"player_{seat}": name for seat, name in enumerate(["Ana", "Ben", "Chloé", "Dan"])}
    form |= data
    response = client.post(reverse("new_sheet"), form)
    assert response.status_code == 200
    assert message in text(response)
    assert response.context["form"].errors[field]
    assert 'value="Ana"' in text(response)
    assert 'value="Mon nom"' in text(response) or field == "name"
    assert Sheet.objects.count() == 0


# The sheet


def test_sheet_page(client, sheet4):
    response = client.get(url("sheet", sheet4))
    assert response.status_code == 200
    page = text(response)
    for name in ["Ana", "Ben", "Chloé", "Dan"]:
        assert name in page
    assert "Hand 1: <strong>Ana</strong> deals" in page


def test_sheet_page_with_htmx_is_the_same_page(htmx, sheet4):
    assert "<html" in text(htmx.get(url("sheet", sheet4)))


@pytest.mark.parametrize(
    "path",
    [
        "/s/nope/",
        "/s/nope/hands/new/",
        "/s/nope/hands/1/edit/",
        "/s/nope/hands/1/delete/",
    ],
)
def test_unknown_token_is_404(client, path):
    assert client.get(path).status_code == 404


def test_unknown_token_posts_are_404(client):
    assert client.post("/s/nope/undo/", {}).status_code == 404
    assert client.post("/s/nope/hands/preview/", {}).status_code == 404


@pytest.mark.parametrize("number", [0, 2, 99])
def test_unknown_hand_number_is_404(client, sheet4, number):
    client.post(url("hand_new", sheet4), hand_data(**RULEBOOK_HANDS[0]))
    assert client.get(url("hand_edit", sheet4, number)).status_code == 404
    assert client.get(url("hand_delete", sheet4, number)).status_code == 404
    # A correction names its hand by the form's key, not by the number: a bad form is shown.
    assert client.post(url("hand_edit", sheet4, number), {}).status_code == 200


def test_methods_not_allowed(client, sheet4):
    assert client.post(url("sheet", sheet4)).status_code == 405
    assert client.get(url("undo", sheet4)).status_code == 405
    assert client.get(url("hand_preview", sheet4)).status_code == 405
    assert client.post("/").status_code == 405


# Entering hands


def test_hand_form_page_and_fragment(client, htmx, sheet5):
    full = client.get(url("hand_new", sheet5))
    assert "<html" in text(full)
    fragment = htmx.get(url("hand_new", sheet5))
    page = text(fragment)
    assert "<html" not in page
    assert 'name="partner"' in page
    assert "alone" in page
    assert 'step="0.5"' in page
    # The − and + step by half a point at 5 players, and say so.
    assert 'aria-label="Half a point more"' in page
    assert 'aria-label="Half a point less"' in page
    assert "One point" not in page
    # Each poignée says how many trumps it shows at 5 players.
    assert "simple (8 trumps)" in page
    assert "triple (13 trumps)" in page


def test_hand_and_delete_forms_use_htmx_only_inside_the_sheet(client, htmx, sheet4):
    # On a page of its own (a link opened in a new tab) no #entry panel exists: the form
    # posts and redirects; inside the sheet htmx swaps its answer into the panel.
    client.post(url("hand_new", sheet4), hand_data(**RULEBOOK_HANDS[0]))
    for path in (url("hand_new", sheet4), url("hand_delete", sheet4, 1)):
        page = text(client.get(path))
        form = re.search(r"<form [^>]*>", page[page.index("entry-panel") :]).group(0)
        assert 'method="post"' in form
        assert "hx-post" not in form
        fragment = text(htmx.get(path))
        form = re.search(r"<form [^>]*>", fragment).group(0)
        assert f'hx-post="{path}"' in form
        assert 'hx-target="#entry"' in form


def test_hand_form_at_4_players_has_whole_points_and_no_partner(client, sheet4):
    page = text(client.get(url("hand_new", sheet4)))
    assert 'step="1"' in page
    assert 'aria-label="One point more"' in page
    assert 'name="partner"' not in page
    assert "simple (10 trumps)" in page


def test_save_a_hand_without_js_redirects(client, sheet4):
    response = client.post(url("hand_new", sheet4), hand_data(**RULEBOOK_HANDS[0]))
    assert response.status_code == 302
    assert response["Location"] == url("sheet", sheet4)
    # docs/rules.md F1: Chloé takes a garde with 2 bouts and 49 points.
    hand = sheet4.hands.get()
    # docs/rules.md F1, dealt by the first dealer (seat 0).
    assert hand.to_scoring(4) == scoring.Hand(
        seats=4,
        taker=2,
        contract="garde",
        bouts=2,
        points=Decimal(49),
        petit_au_bout="attack",
        poignees={2: "simple"},
        dealer=0,
    )
    page = text(client.get(url("sheet", sheet4)))
    assert shown_totals(page) == (-106, -106, 318, -106)
    assert "made by 8" in page
    assert "(25 + 8) × 2 + 20 petit au bout + 20 poignée = 106" in page
    assert "Σ 0 ✓" in page
    assert "Hand 1 saved." in page


def test_save_a_hand_with_htmx_sends_the_changes_out_of_band(htmx, sheet4):
    response = htmx.post(url("hand_new", sheet4), hand_data(**RULEBOOK_HANDS[0]))
    assert response.status_code == 200
    page = text(response)
    assert "<html" not in page
    assert '<section id="totals"' in page
    assert 'id="totals" class="totals" aria-label="Totals" hx-swap-oob="true"' in page
    assert 'hx-swap-oob="beforeend:#hands"' in page
    assert 'id="hand-1"' in page
    assert "Hand 2: <strong>Ben</strong> deals" in page
    assert 'id="actions"' in page
    assert shown_totals(page) == (-106, -106, 318, -106)


def test_saving_a_hand_queries_a_bounded_number_of_times(
    htmx, sheet4, django_assert_max_num_queries
):
    for data in RULEBOOK_HANDS * 4:
        htmx.post(url("hand_new", sheet4), hand_data(**data))
    with django_assert_max_num_queries(12):
        htmx.post(url("hand_new", sheet4), hand_data(**RULEBOOK_HANDS[0]))


def test_sheet_page_queries_do_not_grow_with_hands(client, sheet4, django_assert_num_queries):
    client.post(url("hand_new", sheet4), hand_data(**RULEBOOK_HANDS[0]))
    # The sheet, its seats, the hands it shows (the chart's points are the sheet's checkpoints):
    # whatever the number of hands, even past the hundred shown.
    with django_assert_num_queries(3):
        client.get(url("sheet", sheet4))
    for data in RULEBOOK_HANDS * 24:
        client.post(url("hand_new", sheet4), hand_data(**data))
    with django_assert_num_queries(3):
        client.get(url("sheet", sheet4))


def test_double_submission_stores_one_hand(client, htmx, sheet4):
    data = hand_data(**RULEBOOK_HANDS[0])
    client.post(url("hand_new", sheet4), data)
    client.post(url("hand_new", sheet4), data)
    response = htmx.post(url("hand_new", sheet4), data)
    assert response.status_code == 200
    assert sheet4.hands.count() == 1
    assert shown_totals(text(response)) == (-106, -106, 318, -106)


def test_a_key_from_another_sheet_does_not_touch_it(client, make_sheet):
    first, second = make_sheet(name="one"), make_sheet(name="two")
    data = hand_data(**RULEBOOK_HANDS[0])
    client.post(url("hand_new", first), data)
    response = client.post(url("hand_new", second), data)
    assert response.status_code == 200
    assert "expired" in text(response)
    assert first.hands.count() == 1
    assert second.hands.count() == 0


def test_rulebook_sheet_through_the_views(client, sheet4):
    """docs/rules.md §5.1: the five rulebook hands give totals −446, +1346, −390, −510."""
    for data in RULEBOOK_HANDS:
        assert client.post(url("hand_new", sheet4), hand_data(**data)).status_code == 302
    page = text(client.get(url("sheet", sheet4)))
    assert shown_totals(page) == RULEBOOK_TOTALS
    assert totals_of(sheet4) == RULEBOOK_TOTALS
    assert "−582" in page
    assert "+1746" in page
    assert page.count("Σ 0 ✓") == 5


def test_five_players_partner_and_taker_alone(client, sheet5):
    # garde, 2 bouts, 45 points: u = (25 + 4) × 2 = 58 (docs/rules.md S7, S8; P1–P2).
    base = {"contract": "garde", "bouts": 2, "points": "45"}
    client.post(url("hand_new", sheet5), hand_data(taker=0, partner=3, **base))
    client.post(url("hand_new", sheet5), hand_data(taker=0, partner="alone", **base))
    rows = [h.to_scoring(5) for h in sheet5.hands.all()]
    assert scoring.score(rows[0]) == (116, -58, -58, 58, -58)
    assert scoring.score(rows[1]) == (232, -58, -58, -58, -58)
    page = text(client.get(url("sheet", sheet5)))
    assert "Ana</strong> → Dan" in page
    assert shown_totals(page) == (348, -116, -116, 0, -116)


@pytest.mark.parametrize("with_htmx", [False, True])
def test_a_forgotten_partner_is_refused_at_5_players(client, htmx, sheet5, with_htmx):
    # No default: a forgotten tap must not save the taker alone, paid 4×.
    page = text(client.get(url("hand_new", sheet5)))
    partners = re.findall(r'<input type="radio" name="partner"[^>]*>', page)
    assert len(partners) == 6  # the five players and "alone"
    assert not any("checked" in radio for radio in partners)
    data = hand_data(taker=0, contract="garde", bouts=2, points="45")
    response = (htmx if with_htmx else client).post(url("hand_new", sheet5), data)
    # htmx and the offline queue read the refusal from the status (offline.REFUSED).
    assert response.status_code == (422 if with_htmx else 200)
    assert response.context["form"].errors["partner"] == [
        "Partner: choose one of the players, or alone."
    ]
    assert "Partner: choose one of the players, or alone." in text(response)
    # What was typed stays; nothing is stored.
    assert 'value="45"' in text(response)
    assert not sheet5.hands.exists()


def test_a_forgotten_partner_is_refused_when_5_of_6_play(client, db):
    # docs/rules.md §6.4: at 6 seats the dealer sits out and 5 play, so a partner is called.
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny"]
    sheet = writes.create_sheet("Six", names, 0, rules=scoring.Rules(dealer_sits_out=True))
    data = hand_data(taker=1, contract="garde", bouts=2, points="45")
    response = client.post(url("hand_new", sheet), data)
    assert "partner" in response.context["form"].errors
    assert not sheet.hands.exists()


def test_the_preview_names_a_missing_partner(client, sheet5):
    data = hand_data(taker=0, contract="garde", bouts=2, points="45")
    page = text(client.post(url("hand_preview", sheet5), data))
    assert "Partner: choose one of the players, or alone." in page
    assert "per defender" not in page


def test_half_points_at_5_players(client, sheet5):
    data = hand_data(taker=1, partner=2, contract="prise", bouts=2, points="40,5")
    client.post(url("hand_new", sheet5), data)
    assert sheet5.hands.get().points == Decimal("40.5")
    assert "lost by 1" in text(client.get(url("sheet", sheet5)))


@pytest.mark.parametrize(("language", "shown"), [("en", "40.5"), ("fr", "40,5"), ("es", "40,5")])
def test_points_are_text_read_with_either_separator_shown_in_the_locale(
    client, make_sheet, language, shown
):
    sheet = make_sheet(("Ana", "Ben", "Chloé"))
    data = hand_data(taker=1, contract="prise", bouts=2, points="40,5")
    client.post(url("hand_new", sheet), data, HTTP_ACCEPT_LANGUAGE=language)
    assert sheet.hands.get().points == Decimal("40.5")
    page = text(client.get(url("hand_edit", sheet, 1), HTTP_ACCEPT_LANGUAGE=language))
    field = re.search(r'<input [^>]*name="points"[^>]*>', page).group(0)
    # Chromium's number input refuses "40,5": a text input with the decimal keyboard.
    assert 'type="text"' in field
    assert 'inputmode="decimal"' in field
    assert f'value="{shown}"' in field
    assert 'pattern="[0-9]{1,2}([.,][05])?"' in field


def test_defence_points_are_converted(client, sheet4):
    data = hand_data(taker=0, contract="prise", bouts=1, points="31", counted_by_defence="on")
    client.post(url("hand_new", sheet4), data)
    assert sheet4.hands.get().points == 60


def test_everyone_passed_moves_the_deal_on(client, htmx, sheet4):
    data = hand_data()
    data["passed"] = "1"
    htmx.post(url("hand_new", sheet4), data)
    client.post(url("hand_new", sheet4), data)
    assert sheet4.hands.count() == 1
    assert sheet4.hands.get().passed
    page = text(client.get(url("sheet", sheet4)))
    assert "Everyone passed" in page
    assert "Hand 2: <strong>Ben</strong> deals" in page
    assert shown_totals(page) == (0, 0, 0, 0)


def test_passed_with_a_broken_key_records_nothing_and_offers_a_fresh_form(client, sheet4):
    # Every resend of a broken key would be a new deal: the form says it expired instead.
    for _attempt in range(2):
        response = client.post(url("hand_new", sheet4), {"passed": "1", "key": "not-a-uuid"})
        assert response.status_code == 200
        assert "This form had expired" in text(response)
    assert not sheet4.hands.exists()
    fresh = re.search(r'name="key" value="([0-9a-f-]{36})"', text(response)).group(1)
    client.post(url("hand_new", sheet4), {"passed": "1", "key": fresh})
    client.post(url("hand_new", sheet4), {"passed": "1", "key": fresh})
    assert sheet4.hands.get().passed


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"taker": None}, "taker", "Taker: choose who took."),
        ({"taker": "9"}, "taker", "Taker: choose who took."),
        ({"taker": "x"}, "taker", "Taker: choose who took."),
        ({"contract": "petite"}, "contract", "Contract: choose prise"),
        ({"bouts": "4"}, "bouts", "Bouts: choose 0, 1, 2 or 3."),
        ({"points": ""}, "points", "Points: enter the card points."),
        ({"points": "abc"}, "points", "Points: enter a number between 0 and 91, in whole"),
        ({"points": "92"}, "points", "Points: enter a number between 0 and 91."),
        ({"points": "-1"}, "points", "Points: enter a number between 0 and 91, in whole"),
        ({"points": "40.5"}, "points", "no half points at 4 players"),
        # Text is read strictly: at most one decimal.
        ({"points": "40.25"}, "points", "in whole or half points (49 or 40.5)"),
        ({"points": "3", "bouts": "1"}, "points", "between 4 and 83 points"),
        ({"petit_au_bout": "both"}, "petit_au_bout", "Petit au bout: choose none"),
        ({"chelem": "maybe"}, "chelem", "Chelem: choose one"),
        ({"poignee_0": "quadruple"}, "poignee_0", "Poignée of Ana"),
        ({"poignee_0": "simple", "poignee_1": "double"}, "__all__", "23 trumps"),
        (
            {"chelem": "announced_made", "defence_chelem": "on", "points": "91", "bouts": "3"},
            "defence_chelem",
            "Defence chelem",
        ),
        ({"key": "nope"}, "__all__", "This form had expired"),
    ],
)
def test_bad_hand_is_refused_with_a_message_and_kept(client, htmx, sheet4, fields, field, message):
    data = hand_data(taker=0, contract="garde", bouts=2, points="50") | fields
    data = {name: value for name, value in data.items() if value is not None}  # None: not sent
    for each, status in ((client, 200), (htmx, 422)):
        response = each.post(url("hand_new", sheet4), data)
        assert response.status_code == status
        form = response.context["form"]
        assert field in form.errors
        assert message in " ".join(form.errors[field])
        assert message.replace("“", "&ldquo;") in text(response) or message in text(response)
        # What was typed stays in the form.
        page = text(response)
        assert f'value="{data.get("points", "")}"' in page or not data.get("points")
        if "contract" not in fields:
            assert re.search(r'value="garde"[^>]*checked', page)
    assert sheet4.hands.count() == 0


def test_partner_at_4_players_is_refused_naming_the_field(client, sheet4):
    """docs/rules.md §1: a partner is called only at 5; a form that sends one anyway (tampered, or
    a page from before a change of rules) is refused, not stored without it."""
    response = client.post(
        url("hand_new", sheet4),
        hand_data(taker=0, contract="garde", bouts=2, points=50, partner=1),
    )
    assert response.status_code == 200
    assert "Partner: there is a partner only at 5 players." in text(response)
    assert sheet4.hands.count() == 0


def test_partner_equal_to_taker_is_refused(client, sheet5):
    data = hand_data(taker=2, partner=2, contract="garde", bouts=2, points="50")
    response = client.post(url("hand_new", sheet5), data)
    assert "cannot be their own partner" in text(response)
    assert sheet5.hands.count() == 0


def test_seat_not_in_the_session_is_refused(client, sheet4):
    data = hand_data(taker=4, contract="garde", bouts=2, points="50", poignee_7="simple")
    response = client.post(url("hand_new", sheet4), data)
    assert "Taker: choose who took." in text(response)
    assert sheet4.hands.count() == 0


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "key",
                "taker",
                "partner",
                "contract",
                "bouts",
                "points",
                "counted_by_defence",
                "petit_au_bout",
                "poignee_0",
                "poignee_4",
                "chelem",
                "defence_chelem",
                "passed",
                "preview",
            ]
        ),
        st.one_of(
            st.text(max_size=12).filter(lambda s: "\x00" not in s),
            st.sampled_from(["0", "1", "4", "-1", "40.5", "91", "garde", "simple", "attack"]),
        ),
    )
)
def test_nothing_a_browser_sends_gives_a_500(client, sheet5, data):
    for path in (url("hand_new", sheet5), url("hand_preview", sheet5)):
        response = client.post(path, data)
        assert response.status_code in (200, 302)


# The live preview


def test_preview_shows_the_row_to_be_saved(htmx, sheet4):
    response = htmx.post(url("hand_preview", sheet4), hand_data(**RULEBOOK_HANDS[0]))
    page = text(response)
    assert "+318" in page
    assert "−106" in page
    assert "made by 8" in page
    assert "(25 + 8) × 2 + 20 petit au bout + 20 poignée = 106" in page
    assert sheet4.hands.count() == 0


def test_preview_lists_problems(htmx, sheet4):
    response = htmx.post(url("hand_preview", sheet4), hand_data(taker=0, points="95"))
    page = text(response)
    assert "Contract: choose prise" in page
    assert "Points: enter a number between 0 and 91." in page


def test_preview_shows_warnings_without_blocking(client, htmx, sheet4):
    data = hand_data(taker=0, contract="garde", bouts=3, points="91")
    assert "no chelem is recorded" in text(htmx.post(url("hand_preview", sheet4), data))
    assert client.post(url("hand_new", sheet4), data).status_code == 302


def test_preview_with_defence_points_says_the_attack_points(htmx, sheet4):
    data = hand_data(taker=0, contract="garde", bouts=2, points="40", counted_by_defence="on")
    assert "Attack: 51 points." in text(htmx.post(url("hand_preview", sheet4), data))


def test_preview_button_without_js(client, sheet4):
    data = hand_data(**RULEBOOK_HANDS[0]) | {"preview": "1"}
    response = client.post(url("hand_new", sheet4), data)
    assert response.status_code == 200
    assert "+318" in text(response)
    assert sheet4.hands.count() == 0


# Corrections


def enter(client, sheet, hands):
    for data in hands:
        client.post(url("hand_new", sheet), hand_data(**data))


def test_edit_form_is_prefilled(client, htmx, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:2])
    page = text(htmx.get(url("hand_edit", sheet4, 2)))
    assert "Correct hand 2" in page
    assert re.search(r'value="garde_sans"[^>]*checked', page)
    assert 'value="55"' in page
    assert re.search(r'name="petit_au_bout" value="defence"[^>]*checked', page)
    assert str(sheet4.hands.all()[1].key) in page


@pytest.mark.parametrize("with_htmx", [False, True])
def test_edit_a_hand(client, sheet4, with_htmx):
    enter(client, sheet4, RULEBOOK_HANDS)
    second = sheet4.hands.all()[1]
    data = hand_data(**RULEBOOK_HANDS[1]) | {"key": str(second.key), "version": 1, "points": "40"}
    headers = {"HTTP_HX_REQUEST": "true"} if with_htmx else {}
    response = client.post(url("hand_edit", sheet4, 2), data, **headers)
    assert sheet4.hands.count() == 5
    second.refresh_from_db()
    assert second.points == 40
    totals = totals_of(sheet4)
    assert sum(totals) == 0
    assert totals != RULEBOOK_TOTALS
    if with_htmx:
        page = text(response)
        assert 'id="hand-2" hx-swap-oob="true"' in page
        assert 'id="hand-3"' not in page
    else:
        assert response.status_code == 302
        page = text(client.get(url("sheet", sheet4)))
    assert shown_totals(page) == totals
    assert "Hand 2 corrected." in page


def test_edit_turns_a_passed_deal_into_a_hand(client, sheet4):
    client.post(url("hand_new", sheet4), hand_data() | {"passed": "1"})
    hand = sheet4.hands.get()
    client.post(
        url("hand_edit", sheet4, 1),
        hand_data(**RULEBOOK_HANDS[0]) | {"key": hand.key, "version": 1},
    )
    hand.refresh_from_db()
    assert not hand.passed
    assert totals_of(sheet4) == (-106, -106, 318, -106)


def test_bad_edit_changes_nothing(client, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:1])
    hand = sheet4.hands.get()
    data = hand_data(**RULEBOOK_HANDS[0]) | {"key": hand.key, "version": 1, "bouts": "9"}
    response = client.post(url("hand_edit", sheet4, 1), data)
    assert response.status_code == 200
    assert "Bouts: choose 0, 1, 2 or 3." in text(response)
    assert totals_of(sheet4) == (-106, -106, 318, -106)


def test_edit_of_a_hand_deleted_meanwhile(client, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:2])
    first = sheet4.hands.first()
    data = hand_data(**RULEBOOK_HANDS[0]) | {"key": first.key, "version": 1}
    # Another phone deletes it first.
    client.post(url("hand_delete", sheet4, 1), {"key": first.key})
    response = client.post(url("hand_edit", sheet4, 1), data, follow=True)
    assert "deleted meanwhile" in text(response)
    assert sheet4.hands.count() == 1


def test_delete_confirmation(client, htmx, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:2])
    page = text(htmx.get(url("hand_delete", sheet4, 2)))
    assert "Delete hand 2?" in page
    assert "garde" in page.lower()
    assert "<html" in text(client.get(url("hand_delete", sheet4, 2)))


@pytest.mark.parametrize("with_htmx", [False, True])
def test_delete_a_hand_renumbers_the_later_ones(client, sheet4, with_htmx):
    enter(client, sheet4, RULEBOOK_HANDS)
    third = sheet4.hands.all()[2]
    headers = {"HTTP_HX_REQUEST": "true"} if with_htmx else {}
    response = client.post(url("hand_delete", sheet4, 3), {"key": third.key}, **headers)
    assert sheet4.hands.count() == 4
    assert not Hand.objects.filter(pk=third.pk).exists()
    page = text(response) if with_htmx else text(client.get(url("sheet", sheet4)))
    assert 'id="hand-4"' in page
    assert 'id="hand-5"' not in page
    assert shown_totals(page) == totals_of(sheet4)
    # docs/rules.md §4 and §6.4: who dealt each hand is a fact; deleting a hand changes no one's
    # deal. The fifth hand (dealt by Ana: the deal went round once) is now hand 4, still dealt by
    # Ana, and the next deal follows it.
    assert re.search(r'id="hand-4".*?Ana deals', page, re.S)
    assert "Hand 5: <strong>Ben</strong> deals" in page
    assert "Hand 3 deleted." in page
    # A second tap on the same confirmation deletes nothing more.
    client.post(url("hand_delete", sheet4, 3), {"key": third.key})
    assert sheet4.hands.count() == 4


def test_undo_the_last_hand(client, htmx, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:3])
    last = sheet4.hands.last()
    response = htmx.post(url("undo", sheet4), {"key": last.key})
    assert sheet4.hands.count() == 2
    assert shown_totals(text(response)) == totals_of(sheet4)
    assert "Hand 3 undone." in text(response)
    # Undo twice from the same button: the new last hand stays.
    client.post(url("undo", sheet4), {"key": last.key})
    assert sheet4.hands.count() == 2


def test_undo_without_js_redirects(client, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:1])
    response = client.post(url("undo", sheet4), {"key": sheet4.hands.get().key})
    assert response.status_code == 302
    assert sheet4.hands.count() == 0


def test_undo_with_garbage_changes_nothing(client, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:1])
    client.post(url("undo", sheet4), {"key": "garbage"})
    client.post(url("undo", sheet4), {})
    assert sheet4.hands.count() == 1


def test_every_total_is_its_column_sum_after_corrections(client, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS * 2)
    hands = list(sheet4.hands.all())
    client.post(url("hand_delete", sheet4, 4), {"key": hands[3].key})
    client.post(
        url("hand_edit", sheet4, 1),
        hand_data(**RULEBOOK_HANDS[3]) | {"key": hands[0].key, "version": 1},
    )
    client.post(url("undo", sheet4), {"key": hands[-1].key})
    page = text(client.get(url("sheet", sheet4)))
    rows = [h.to_scoring(4) for h in sheet4.hands.all()]
    columns = [sum(scoring.score(hand)[seat] for hand in rows) for seat in range(4)]
    assert shown_totals(page) == tuple(columns)
    assert sum(columns) == 0


# Language


def test_french_from_the_browser_language(client, sheet4):
    enter(client, sheet4, RULEBOOK_HANDS[:1])
    page = text(client.get(url("sheet", sheet4), HTTP_ACCEPT_LANGUAGE="fr"))
    assert 'lang="fr"' in page
    assert "Nouvelle donne" in page
    assert "Garde" in page
    assert "petit au bout" in page
    assert "réussie de 8" in page


def test_language_switch(client):
    response = client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert response.status_code == 302
    assert "Nouvelle partie" in text(client.get("/"))


def test_seat_model_refuses_duplicate_names_case_insensitively(sheet4):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(sheet=sheet4, position=4, name="ANA")


@pytest.mark.parametrize("first_dealer", [0, 2, 3])
def test_a_new_hand_form_has_no_dealer_field_nor_a_stray_seat_number(client, first_dealer):
    """Only a correction lets the dealer change; a new hand's dealer is in its heading. (The
    form's ``dealer`` attribute, a seat number, once printed itself as a bare "2" or "3".)"""
    sheet = writes.create_sheet("Vendredi", ["Ana", "Ben", "Chloé", "Dan"], first_dealer)
    html = client.get(reverse("hand_new", args=[sheet.token])).content.decode()
    assert 'class="field dealer' not in html
    names = ["Ana", "Ben", "Chloé", "Dan"]
    assert f"<small>{names[first_dealer]} deals</small>" in html
    form = html[html.index('<form method="post"') : html.index("<legend>Taker</legend>")]
    text = re.sub(r"<[^>]+>", " ", form)
    assert text.split() == [], text
    # A correction still offers the dealer.
    writes.add_hand(sheet.token, scoring.Hand(4, 0, "prise", 1, 51), uuid.uuid4())
    html = client.get(reverse("hand_edit", args=[sheet.token, 1])).content.decode()
    assert 'class="field dealer' in html


def test_a_refused_save_lists_its_problems_in_the_preview_too(client):
    """The form comes back with its errors, and the preview under it says what is missing."""
    sheet = writes.create_sheet("Vendredi", ["Ana", "Ben", "Chloé", "Dan", "Élise"], 0)
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    data["points"] = "45"
    response = client.post(reverse("hand_new", args=[sheet.token]), data, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    preview = html[html.index('id="preview"') :]
    assert "Not ready yet:" in preview
    assert "Partner: choose one of the players, or alone." in preview
    assert not sheet.hands.exists()
