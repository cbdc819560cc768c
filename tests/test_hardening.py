"""Every request of the adversarial probe, replayed. No 500, the documented answer,
and nothing written where the input is refused. Runs on SQLite and, with
`scripts/with-postgres make test`, on PostgreSQL (where "İVAN" and the numeric overflows hit).
"""

import io
import json
import uuid
from datetime import UTC, date, datetime
from urllib.parse import urlencode

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoresheet import player_names, scoring
from scoresheet.clubs import writes as club_writes
from scoresheet.models import ClubPlayer, Hand, Night, Seat, Sheet, SpentKey
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes
from tests.reading import store, table_rows


def garde_50(sheet):
    """A garde with 2 bouts and 50 points, stored as the app stores a hand."""
    return writes.add_hand(sheet.token, scoring.Hand(4, 0, "garde", 2, 50), uuid.uuid4()).hand


pytestmark = pytest.mark.django_db

HUGE = "100000000000000000000"
SURROGATE = "\ud800"


def url(name, sheet, *args):
    return reverse(name, args=[sheet.token, *args])


def counts():
    return (Sheet.objects.count(), Seat.objects.count(), Hand.objects.count())


def upload(data, name="backup.json"):
    content = data if isinstance(data, bytes) else json.dumps(data).encode()
    return SimpleUploadedFile(name, content, content_type="application/json")


def import_errors(response) -> str:
    return " ".join(response.context["import_form"].errors["backup"])


def hand_post(**fields):
    data = {"key": str(uuid.uuid4()), "taker": "0", "contract": "garde", "bouts": "2"}
    return data | {"points": "50"} | fields


def new_session(client, players, name="Vendredi"):
    data = {"players": len(players), "first_dealer": 0, "name": name}
    data |= {f"player_{seat}": player for seat, player in enumerate(players)}
    return client.post(reverse("new_sheet"), data)


# Hand numbers


@pytest.mark.parametrize("action", ["hand_edit", "hand_delete"])
def test_an_absurd_hand_number_is_404(client, sheet4, action):
    store(sheet4, None)
    before = counts()
    path = url(action, sheet4, 1).replace("/1/", f"/{HUGE}/")
    assert client.get(path).status_code == 404
    assert client.post(path, {"key": str(sheet4.hands.get().key)}).status_code == 404
    assert counts() == before


# Numbers a browser sends: one reader (numbers.read), ASCII digits only, at most 9 (18 for a
# row's id). Python's int() refuses over 4,300 digits and takes "²" as isdigit() says but
# int() does not; it also takes "١٢", "+1", " 1" and "1_0". Each answers 400 with its form or
# page again, a message naming the field, and nothing stored. Posted as a browser posts a form
# (urlencoded): a 5,000-digit field name in a multipart body is refused by Django itself.

TAMPERED = ["9" * 5000, "²", "١٢", "+1", " 1", "1_0"]
FORM = "application/x-www-form-urlencoded"


def post_form(client, path, data):
    return client.post(path, urlencode(data), content_type=FORM)


def shown(text):
    """A value as the form's message quotes it: 12 characters at most."""
    return text if len(text) <= 12 else text[:11] + "…"


def stored():
    """Everything a probe could have written."""
    hands = list(Hand.objects.order_by("pk").values_list("key", "dealer", "poignees", "miseres"))
    roster = list(ClubPlayer.objects.order_by("pk").values_list("name", flat=True))
    nights = list(Night.objects.order_by("pk").values_list("players", "gone", "drawn", "revision"))
    return counts(), SpentKey.objects.count(), hands, roster, nights


@pytest.mark.parametrize("seat", TAMPERED)
@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("poignee", "simple", "Poignée: seat %s is not at the table."),
        ("misere", "1", "Misère: seat %s is not at the table."),
    ],
)
@pytest.mark.parametrize("with_htmx", [False, True])
def test_a_seat_that_is_no_number_in_a_field_name_is_a_bad_request(
    client, make_sheet, seat, field, value, message, with_htmx
):
    sheet = make_sheet()
    writes.change_rules(sheet.token, scoring.Rules(misere=10), sheet.revision)
    before = stored()
    headers = {"HTTP_HX_REQUEST": "true"} if with_htmx else {}
    data = hand_post(**{f"{field}_{seat}": value})
    response = client.post(url("hand_new", sheet), urlencode(data), FORM, **headers)
    assert response.status_code == 400
    assert response.context["form"].non_field_errors() == [message % shown(seat)]
    assert escape(message % shown(seat)) in response.content.decode()
    # The form again, as typed.
    assert response.context["form"]["points"].value() == "50"
    assert stored() == before


@pytest.mark.parametrize("seat", TAMPERED)
def test_a_seat_that_is_no_number_in_a_preview_is_a_bad_request(client, sheet4, seat):
    data = hand_post(**{f"poignee_{seat}": "simple"})
    response = post_form(client, url("hand_preview", sheet4), data)
    assert response.status_code == 400
    assert f"Poignée: seat {escape(shown(seat))} is not at the table." in response.content.decode()


@pytest.mark.parametrize("seat", ["7", "0" * 5000])
def test_a_seat_number_not_at_the_table_is_refused_as_before(client, sheet4, seat):
    # Digits the reader takes (or too many of them) are refused by the rules, not as tampered.
    before = stored()
    response = post_form(
        client, url("hand_new", sheet4), hand_post(**{f"poignee_{seat}": "simple"})
    )
    expected = 200 if len(seat) == 1 else 400
    assert response.status_code == expected
    assert f"Poignée: seat {shown(seat)} is not at the table." in response.content.decode()
    assert stored() == before


@pytest.mark.parametrize("passed", [False, True])
@pytest.mark.parametrize("dealer", TAMPERED)
def test_a_corrected_dealer_that_is_no_number_is_a_bad_request(client, sheet4, dealer, passed):
    hand = garde_50(sheet4)
    before = stored()
    data = hand_post(key=str(hand.key), version="1", points="60", dealer=dealer)
    if passed:
        data["passed"] = "1"
    response = post_form(client, url("hand_edit", sheet4, 1), data)
    assert response.status_code == 400
    assert response.context["form"].errors["dealer"] == [
        "Dealer: choose one of the players at the table."
    ]
    assert "Dealer: choose one of the players at the table." in response.content.decode()
    assert stored() == before
    hand.refresh_from_db()
    assert (hand.points, hand.dealer, hand.version, hand.passed) == (50, 0, 1, False)


@pytest.mark.parametrize("version", TAMPERED)
def test_a_version_that_is_no_number_expires_the_correction(client, sheet4, version):
    hand = garde_50(sheet4)
    before = stored()
    data = hand_post(key=str(hand.key), version=version, points="60")
    response = post_form(client, url("hand_edit", sheet4, 1), data)
    assert response.status_code == 200
    assert "This form had expired; check the hand and save it again." in response.content.decode()
    assert stored() == before
    hand.refresh_from_db()
    assert (hand.points, hand.version) == (50, 1)


@pytest.fixture
def club_night(db):
    club = club_writes.create_club("Le Petit").club
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Farid", "Gaëlle", "Hugo", "Inès"]
    night = night_writes.create_night(club, "Vendredi", date(2026, 12, 4), names, 3, 2).night
    return club, night


@pytest.mark.parametrize("player", TAMPERED)
def test_a_roster_player_that_is_no_number_is_a_bad_request(client, club_night, player):
    club, _night = club_night
    before = stored()
    data = {"action": "rename", "player": player, "name": "Zoé"}
    response = post_form(client, reverse("club_players", args=[club.token]), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Player: choose one of the club&#x27;s players." in page
    # The roster page again: its forms and its players.
    assert 'id="rename-' in page
    assert stored() == before


@pytest.mark.parametrize("action", ["leave", "back"])
@pytest.mark.parametrize("player", TAMPERED)
def test_a_night_player_that_is_no_number_is_a_bad_request(client, club_night, player, action):
    club, night = club_night
    ana = club.players.get(name="Ana")
    night_writes.leave(club, night, ana.pk)
    before = stored()
    data = {"action": action, "player": player}
    response = post_form(client, reverse("night_players", args=[club.token, night.number]), data)
    assert response.status_code == 400
    message = {
        "leave": "A player leaves: choose one of the night&#x27;s players.",
        "back": "A player who left comes back: choose one of them.",
    }[action]
    page = response.content.decode()
    assert message in page
    # The night's page again, with its forms.
    assert 'name="action" value="join"' in page
    assert stored() == before


@pytest.mark.parametrize("wanted", TAMPERED)
def test_a_round_that_is_no_number_is_a_bad_request(client, club_night, wanted):
    club, night = club_night
    before = stored()
    path = reverse("night_draw", args=[club.token, night.number])
    response = post_form(client, path, {"round": wanted})
    assert response.status_code == 400
    assert "Round: the round to draw is missing." in response.content.decode()
    assert stored() == before


@pytest.mark.parametrize("revision", TAMPERED)
def test_a_poll_with_a_revision_that_is_no_number_is_a_bad_request(client, sheet4, revision):
    response = client.get(url("live", sheet4), {"revision": revision})
    assert response.status_code == 400


@pytest.mark.parametrize("value", TAMPERED)
@pytest.mark.parametrize("field", ["rounds", "deals", "minutes"])
def test_a_night_s_count_that_is_no_number_is_refused_naming_the_field(
    client, club_night, field, value
):
    club, _night = club_night
    before = stored()
    data = {
        "name": "Samedi",
        "date": "2026-12-05",
        "players": ["Ana", "Ben", "Chloé", "Dan", "Élise", "Farid", "Gaëlle", "Hugo"],
        "rounds": "5",
        "deals": "4",
        "minutes": "30",
        "key": str(uuid.uuid4()),
        field: value,
    }
    response = client.post(reverse("night_new", args=[club.token]), urlencode(data, True), FORM)
    assert response.status_code in (200, 422)
    label = {"rounds": "Rounds:", "deals": "Deals per round:", "minutes": "Minutes per round:"}
    (error,) = response.context["form"].errors[field]
    assert error.startswith(label[field])
    assert stored() == before


@pytest.mark.parametrize("pk", ["9" * 5000, "9" * 19, "9" * 18])
def test_a_row_id_in_a_link_that_is_no_row_is_404(client, club_night, pk):
    club, _night = club_night
    before = stored()
    assert client.get(f"/c/{club.token}/players/{pk}/").status_code == 404
    assert client.get(f"/cv/{club.view_token}/players/{pk}/").status_code == 404
    # Detaching a session the club does not count does nothing (as a second tap would); past
    # 18 digits, the link is no link.
    detached = client.post(f"/c/{club.token}/sessions/{pk}/detach/").status_code
    assert detached == (302 if len(pk) == 18 else 404)
    assert stored() == before


# Lone surrogates in a backup: refused with the value escaped, never a 500


def surrogate_backups(make_backup):
    bad_format = make_backup()
    bad_format["format"] = SURROGATE
    unknown_key = make_backup()
    unknown_key[SURROGATE] = 1
    hand_key = make_backup()
    hand_key["hands"][0][SURROGATE] = 1
    poignee_seat = make_backup()
    poignee_seat["hands"][0]["poignees"] = {SURROGATE: "simple"}
    poignee_size = make_backup()
    poignee_size["hands"][0]["poignees"] = {"2": SURROGATE}
    name = make_backup()
    name["name"] = SURROGATE
    player = make_backup()
    player["players"][1] = "B" + SURROGATE
    return {
        "format": (bad_format, "\\ud800"),
        "unknown key": (unknown_key, "\\ud800"),
        "hand key": (hand_key, "\\ud800"),
        "poignée seat": (poignee_seat, "\\ud800"),
        "poignée size": (poignee_size, "Poignée of Chloé"),
        "session name": (name, "Name:"),
        "player": (player, "Player 2"),
    }


@pytest.mark.parametrize(
    "case",
    [
        "format",
        "unknown key",
        "hand key",
        "poignée seat",
        "poignée size",
        "session name",
        "player",
    ],
)
def test_a_lone_surrogate_in_a_backup_is_refused_with_a_message(client, make_backup, case):
    data, shown = surrogate_backups(make_backup)[case]
    before = counts()
    response = client.post(reverse("import_backup"), {"backup": upload(data)})
    assert response.status_code == 422
    assert shown in import_errors(response)
    assert shown.replace("é", "&eacute;") in response.content.decode() or shown in (
        response.content.decode()
    )
    assert counts() == before


# Crafted session backups: 422 with the message naming the field, nothing stored in any table
# (on PostgreSQL too, with scripts/with-postgres, where a NUL fails in a text column).


def crafted(change):
    def make(make_backup):
        data = make_backup()
        change(data)
        return data

    return make


def first_hand(**fields):
    return crafted(lambda data: data["hands"][0].update(fields))


CRAFTED_SESSIONS = [
    (
        "name, NUL",
        crafted(lambda d: d.update(name="Ven\x00dredi")),
        "Name: give the session a name of 1 to 80 characters.",
    ),
    (
        "player, NUL",
        crafted(lambda d: d["players"].__setitem__(1, "B\x00en")),
        "Player 2: give a name of 1 to 40 characters.",
    ),
    (
        "created, NUL",
        crafted(lambda d: d.update(created="2026-11-27T20:41:00\x00+01:00")),
        "Created: give the date and time with its offset",
    ),
    (
        "contract, NUL",
        first_hand(contract="garde\x00"),
        "Hand 1: Contract: choose prise, garde, garde sans or garde contre.",
    ),
    ("poignée's seat, NUL", first_hand(poignees={"\x00": "simple"}), "seat \\u0000 is not"),
    (
        "misère's seat, lone surrogate",
        first_hand(miseres={SURROGATE: 1}),
        "Hand 1: Misère: seat \\ud800 is not at the table.",
    ),
    ("rule, lone surrogate", crafted(lambda d: d["rules"].update({SURROGATE: 1})), "\\ud800"),
    (
        "rule's value, NUL",
        crafted(lambda d: d["rules"].update(poignees="20-30-40\x00")),
        "Poignées: choose 20-30-40 or 20-40-60.",
    ),
    (
        "7 players",
        crafted(lambda d: d.update(players=[*"ABCDEFG"])),
        "Players: a session has 3 to 6 players, not 7.",
    ),
    (
        "20,001 hands",
        crafted(lambda d: d.update(hands=[{"passed": True}] * 20_001)),
        "This backup has 20001 hands; a backup can hold at most 20000.",
    ),
    (
        "first dealer as text",
        crafted(lambda d: d.update(first_dealer="0")),
        "First dealer: choose one of the players at the table.",
    ),
    (
        "hands as an object",
        crafted(lambda d: d.update(hands={"1": {"passed": True}})),
        "Hands: give the list of hands.",
    ),
    (
        "no players",
        crafted(lambda d: d.pop("players")),
        "The backup has no “players”.",
    ),
    (
        "a hand without its bouts",
        crafted(lambda d: d["hands"][0].pop("bouts")),
        "Hand 1: Bouts is missing.",
    ),
]


@pytest.mark.parametrize(
    ("make", "words"),
    [pytest.param(make, words, id=name) for name, make, words in CRAFTED_SESSIONS],
)
def test_a_crafted_session_backup_is_refused_and_stores_nothing(
    client, make_backup, sheet4, make, words
):
    before = table_rows()
    response = client.post(reverse("import_backup"), {"backup": upload(make(make_backup))})
    assert response.status_code == 422
    assert words in import_errors(response)
    assert table_rows() == before


# Dates


def test_a_backup_created_out_of_range_is_refused(client, make_backup):
    for created in ("9999-12-31T23:30:00+00:00", "0001-01-01T00:00:00+00:00", "1999-12-31T12:00Z"):
        data = make_backup()
        data["created"] = created
        before = counts()
        response = client.post(reverse("import_backup"), {"backup": upload(data)})
        assert response.status_code == 422
        assert "Created: give a date from 2000-01-01 to 2100-12-31." in import_errors(response)
        assert counts() == before


def test_a_backup_created_on_the_edges_of_the_range_is_restored(client, make_backup):
    for created in ("2000-01-01T00:00:00+01:00", "2100-12-31T23:59:59-12:00"):
        data = make_backup()
        data["created"] = created
        response = client.post(reverse("import_backup"), {"backup": upload(data)})
        assert response.status_code == 302


def test_exports_never_fail_on_a_stored_date_at_the_end_of_the_calendar(client, sheet4):
    # A row stored before imports checked the date: Paris time would be year 10000.
    end = datetime(9999, 12, 31, 23, 30, tzinfo=UTC)
    Sheet.objects.filter(pk=sheet4.pk).update(created=end)
    csv = client.get(url("export_csv", sheet4))
    assert csv.status_code == 200
    assert b"".join(csv.streaming_content).startswith("\ufeff".encode())
    assert "9999-12-31.csv" in csv["Content-Disposition"]
    backup = client.get(url("export_json", sheet4))
    assert backup.status_code == 200
    assert json.loads(backup.getvalue())["created"] == "9999-12-31T23:30:00+00:00"
    out = io.StringIO()
    call_command("export_session", sheet4.token, stdout=out)
    assert '"created": "9999-12-31T23:30:00+00:00"' in out.getvalue()
    client.get(url("sheet", sheet4))
    assert client.get("/").status_code == 200


# Names


def test_ivan_and_dotted_capital_ivan_are_two_players(client):
    # "İ" folds to "i" + a combining dot (Unicode), not to "i": two names, on both databases.
    response = new_session(client, ["Ivan", "İVAN", "Chloé"])
    assert response.status_code == 302
    assert list(Seat.objects.values_list("name", flat=True)) == ["Ivan", "İVAN", "Chloé"]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ana", "A\u200bna"),  # zero-width space
        ("Ana", "A\u2060na"),  # word joiner
        ("Chlo\u00e9", "Chloe\u0301"),  # composed and decomposed é
        ("Chloé", "CHLOÉ"),
        ("Straße", "STRASSE"),
        ("ﬁfi", "FIFI"),  # NFKC: the ligature is two letters
        ("Ben", "\u202eBen"),  # right-to-left override
        ("Anna", "\u0410nna"),  # Cyrillic А (UTS #39's confusables)
        ("Olga", "\u039flga"),  # Greek Ο
        ("Coco", "\u0421\u043e\u0441\u043e"),  # Cyrillic С, о, с, о
    ],
)
def test_look_alike_names_are_one_player(client, first, second):
    before = counts()
    response = new_session(client, [first, second, "Dan"])
    assert response.status_code == 200
    assert "Player 2: “" in " ".join(response.context["form"].errors["player_1"])
    assert "is already at the table." in " ".join(response.context["form"].errors["player_1"])
    assert counts() == before


def test_look_alike_names_in_a_backup_are_refused(client, make_backup):
    data = make_backup()
    data["players"][1] = "A\u200bna"
    before = counts()
    response = client.post(reverse("import_backup"), {"backup": upload(data)})
    assert "Player 2: “Ana” is already at the table." in import_errors(response)
    assert counts() == before


def test_invisible_and_bidirectional_characters_are_not_stored(client):
    response = new_session(client, ["\u202eAna\u202c", "B\u200ben", "Chlo\u0065\u0301"])
    assert response.status_code == 302
    assert list(Seat.objects.values_list("name", flat=True)) == ["Ana", "Ben", "Chlo\u00e9"]


@pytest.mark.parametrize("invisible", ["\u200b", "\u202e\u200d", " \u2060 "])
def test_a_name_left_empty_by_cleaning_is_refused_naming_the_field(client, invisible):
    before = counts()
    response = new_session(client, ["Ana", invisible, "Chloé"])
    assert response.status_code == 200
    assert response.context["form"].errors["player_1"] == ["Player 2: enter a name."]
    assert counts() == before


def test_the_seat_key_is_the_one_comparison(sheet4):
    # The database compares the key Python computed, never its own lower().
    assert list(sheet4.seats.values_list("key", flat=True)) == ["ana", "ben", "chloé", "dan"]
    assert player_names.key("İVAN") != player_names.key("Ivan")
    assert player_names.key("A\u200bna") == player_names.key("ANA")


# Points


@pytest.mark.parametrize("points", ["0e-20000", "1e-999999999", "1E+2", "4.5e1", "49.00", "NaN"])
def test_points_are_read_strictly_by_the_form_and_the_preview(client, sheet4, points):
    before = counts()
    response = client.post(url("hand_new", sheet4), hand_post(points=points))
    assert response.status_code == 200
    assert "Points: enter a number between 0 and 91" in " ".join(
        response.context["form"].errors["points"]
    )
    preview = client.post(url("hand_preview", sheet4), hand_post(points=points))
    assert preview.status_code == 200
    assert "Points: enter a number between 0 and 91" in preview.content.decode()
    assert counts() == before


def test_points_are_read_strictly_by_a_correction(client, sheet4):
    hand = garde_50(sheet4)
    data = hand_post(key=str(hand.key), version="1", points="1e-999999999")
    response = client.post(url("hand_edit", sheet4, 1), data)
    assert response.status_code == 200
    assert "points" in response.context["form"].errors
    hand.refresh_from_db()
    assert hand.points == 50
    assert hand.version == 1


def test_a_backups_points_in_exponent_form(client, make_backup):
    data = make_backup()
    # A raw JSON number: json.dumps would not write it this way.
    raw = json.dumps(data).replace('"points": 49', '"points": 1e-999999999', 1)
    before = counts()
    response = client.post(reverse("import_backup"), {"backup": upload(raw.encode())})
    assert "Hand 1: Points: give the attack's card points as a number" in import_errors(response)
    assert counts() == before
    # Zero written with an exponent is still zero: the deal stores 0 points.
    data["hands"] = [
        {
            "taker": 0,
            "contract": "garde",
            "bouts": 0,
            "points": 0,
            "partner": None,
            "petit_au_bout": None,
            "poignees": {},
            "chelem": None,
            "defence_chelem": False,
        }
    ]
    raw = json.dumps(data).replace('"points": 0', '"points": 0e-20000')
    response = client.post(reverse("import_backup"), {"backup": upload(raw.encode())})
    assert response.status_code == 302
    assert Hand.objects.get().points == 0


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("40.5", "40.5"),
        ("40,5", "40.5"),
        (" 49 ", "49"),
        (".5", "0.5"),
        (40.5, "40.5"),
        (49.0, "49"),
        (49, "49"),
        ("40.25", None),
        ("1e2", None),
        ("٤٩", None),
        ("4 9", None),
        ("-1", None),
        ("1,000", None),
        (float("inf"), None),
        (1e-300, None),
        (True, None),
    ],
)
def test_card_points_parser(value, expected):
    points = scoring.read_card_points(value)
    assert (None if points is None else str(points)) == expected


# The "Everyone passed" key, hidden fields


def test_everyone_passed_twice_with_a_broken_key_stores_nothing(client, sheet4):
    before = counts()
    for _ in range(2):
        response = client.post(url("hand_new", sheet4), {"passed": "1", "key": "broken"})
        assert response.status_code == 200
        assert "This form had expired" in response.content.decode()
    assert counts() == before


def test_a_broken_hidden_field_says_the_form_expired_without_highlighting(client, sheet4):
    hand = garde_50(sheet4)
    data = hand_post(key=str(hand.key), version="abc", points="60")
    response = client.post(url("hand_edit", sheet4, 1), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "This form had expired; check the hand and save it again." in page
    assert "Please check the highlighted fields." not in page
    assert list(response.context["form"].errors) == ["__all__"]
    hand.refresh_from_db()
    assert (hand.points, hand.version) == (50, 1)


# The browser's list of sessions


def test_the_session_cookie_stays_small_with_thirty_long_cjk_sessions(client):
    for number in range(30):
        players = [chr(0x4E00 + number * 200 + seat) * 40 for seat in range(4)]
        assert new_session(client, players, name=chr(0x6000 + number) * 80).status_code == 302
    cookie = client.cookies["sessionid"].value
    # Tokens only: about 1 KB for 30 sessions, whatever the names (browsers drop past 4 KB).
    assert len(cookie) < 1600
    home = client.get("/")
    assert len(home.context["recent"]) == 30
    known = client.get(reverse("new_sheet")).context["known_names"]
    assert len(known) == 40
    assert known[0] == chr(0x4E00 + 29 * 200) * 40


# Rate limit


@pytest.fixture
def rate_limit(settings):
    settings.RATELIMIT_ENABLE = True
    settings.RATE_LIMIT = "3/m"


def test_too_many_previews_get_429_and_a_message(client, htmx, sheet4, rate_limit):
    for _ in range(3):
        assert client.post(url("hand_preview", sheet4), hand_post()).status_code == 200
    refused = client.post(url("hand_preview", sheet4), hand_post())
    assert refused.status_code == 429
    assert "Too many changes from this device in a minute" in refused.content.decode()
    assert int(refused["Retry-After"]) >= 1
    # htmx puts the message above the page and keeps the form as typed.
    phone = "192.168.1.23"  # another client: its own count
    fragment = htmx.post(url("hand_preview", sheet4), hand_post(), REMOTE_ADDR=phone)
    assert fragment.status_code == 200
    for _ in range(3):
        fragment = htmx.post(url("hand_preview", sheet4), hand_post(), REMOTE_ADDR=phone)
    assert fragment.status_code == 429
    assert fragment["HX-Retarget"] == "#main"
    assert fragment["HX-Reswap"] == "afterbegin"
    assert "<html" not in fragment.content.decode()


def test_a_refused_save_writes_nothing_and_reading_is_never_limited(
    client, sheet4, make_sheet, rate_limit
):
    for _ in range(3):
        client.post(url("hand_preview", sheet4), hand_post())
    before = counts()
    assert client.post(url("hand_new", sheet4), hand_post()).status_code == 429
    assert counts() == before
    assert client.get(url("sheet", sheet4)).status_code == 200
    # The count is per session: another sheet at the same table's address is not limited.
    other = make_sheet(name="Samedi")
    assert client.post(url("hand_new", other), hand_post()).status_code == 302


def test_the_limit_is_translated(client, sheet4, rate_limit):
    for _ in range(4):
        response = client.post(url("hand_preview", sheet4), hand_post(), HTTP_ACCEPT_LANGUAGE="fr")
    assert response.status_code == 429
    assert "Trop de modifications" in response.content.decode()


def test_the_counter_is_shared_and_atomic(db):
    from django.core.cache import caches

    cache = caches["ratelimit"]
    assert cache.add("probe", 1, 60)
    assert cache.incr("probe") == 2
    assert cache.incr("probe") == 3
    # Another process would read the same row: the count is in the database.
    assert caches["ratelimit"].get("probe") == 3


# Fuzz: arbitrary Unicode and numbers to every form, never a 500

FUZZ = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
# The test client sends form fields as UTF-8: lone surrogates only travel in a file.
form_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=50)
numbers = st.one_of(
    form_text,
    st.integers().map(str),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.from_regex(r"\A[0-9]{0,3}[.,][0-9]{0,3}\Z"),
)


@FUZZ
@given(players=st.lists(form_text, min_size=5, max_size=5), name=form_text, count=st.text())
def test_fuzz_new_session(client, players, name, count):
    data = {"players": count[:5], "first_dealer": "0", "name": name}
    data |= {f"player_{seat}": player for seat, player in enumerate(players)}
    response = client.post(reverse("new_sheet"), data)
    assert response.status_code in (200, 302)


@FUZZ
@given(
    fields=st.dictionaries(
        st.sampled_from(
            [
                "taker",
                "contract",
                "bouts",
                "partner",
                "petit_au_bout",
                "chelem",
                "poignee_0",
                "version",
                "key",
            ]
        ),
        form_text,
    ),
    points=numbers,
)
def test_fuzz_hand_save_and_preview(client, sheet5, fields, points):
    data = hand_post(points=points) | fields
    assert client.post(url("hand_new", sheet5), data).status_code in (200, 302)
    assert client.post(url("hand_new", sheet5), data | {"passed": "1"}).status_code in (200, 302)
    assert client.post(url("hand_preview", sheet5), data).status_code == 200


@FUZZ
@given(
    fields=st.dictionaries(st.sampled_from(["taker", "contract", "bouts", "version"]), form_text),
    points=numbers,
)
def test_fuzz_hand_edit(client, sheet4, fields, points):
    hand = sheet4.hands.first() or garde_50(sheet4)
    data = hand_post(key=str(hand.key), version=str(hand.version), points=points) | fields
    assert client.post(url("hand_edit", sheet4, 1), data).status_code in (200, 302)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(), inner, max_size=3),
    max_leaves=8,
)


@FUZZ
@given(
    table=st.sampled_from([3, 4, 5]),
    where=st.sampled_from(
        [
            "format",
            "name",
            "created",
            "players",
            "first_dealer",
            "hand",
            "points",
            "poignees",
            "key",
            "raw",
        ]
    ),
    value=json_values,
    raw=st.binary(max_size=200),
)
def test_fuzz_import(client, make_backup, table, where, value, raw):
    data = make_backup(table)
    if where == "hand":
        data["hands"][0] = value
    elif where == "points":
        data["hands"][0]["points"] = value
    elif where == "poignees":
        data["hands"][0]["poignees"] = value
    elif where == "key":
        data[str(value)] = 1
    elif where == "players":
        data["players"][0] = value
    else:
        data[where] = value
    # json.dumps escapes lone surrogates as "\ud800": they reach the app's parser.
    content = raw if where == "raw" else json.dumps(data).encode()
    response = client.post(reverse("import_backup"), {"backup": upload(content)})
    assert response.status_code in (302, 422)
