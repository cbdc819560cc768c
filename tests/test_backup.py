"""The file formats (scoresheet/files/session_backup.py): the JSON backup round trip, its checks,
the CSV."""

import csv
import io
import json
from datetime import UTC, datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoresheet import bulk, filenames, limits, scoring
from scoresheet.files import csv_text, session_csv
from scoresheet.files import session_backup as backup
from scoresheet.models import Hand, Seat, Sheet
from tests.reading import rescored, store

pytestmark = pytest.mark.django_db


def counts():
    return Sheet.objects.count(), Seat.objects.count(), Hand.objects.count()


def scored(sheet):
    return rescored(sheet)


def csv_of(sheet):
    """The CSV export as Python's csv module reads it back."""
    text = "".join(session_csv.csv_lines(sheet))
    assert text.startswith(csv_text.BOM)
    return list(csv.reader(io.StringIO(text.removeprefix(csv_text.BOM), newline="")))


# JSON backup: the round trip


@pytest.mark.parametrize("players", [3, 4, 5])
def test_json_import_export_is_identical(make_backup, players):
    data = make_backup(players)
    text = backup.dumps(data)
    sheet = backup.load(text)
    assert backup.dump(sheet) == data
    assert backup.dumps(backup.dump(Sheet.objects.get(pk=sheet.pk))) == text


@pytest.mark.parametrize("players", [3, 4, 5])
def test_restored_sheet_is_the_same_sheet(make_backup, players):
    data = make_backup(players)
    sheet = backup.load(json.dumps(data).encode())
    assert list(sheet.seats.values_list("name", flat=True)) == data["players"]
    assert sheet.first_dealer == data["first_dealer"]
    assert sheet.name == data["name"]
    assert sheet.created.isoformat() == data["created"]
    rows = scored(sheet).rows
    assert [row.passed for row in rows] == ["passed" in hand for hand in data["hands"]]
    assert all(row.balanced for row in rows)


def test_points_are_json_numbers(make_backup):
    sheet = backup.load(json.dumps(make_backup(5)))
    points = [hand.get("points") for hand in backup.dump(sheet)["hands"]]
    assert points == [45.5, None, 50.5, 91, 4.5]
    assert [type(p) for p in points] == [float, type(None), float, int, float]
    assert '"points": 45.5,' in backup.dumps(backup.dump(sheet))


def test_export_of_a_sheet_entered_in_the_app(sheet5):
    hand = scoring.Hand(5, 0, "garde", 2, Decimal("45.5"), partner=3, poignees={4: "triple"})
    store(sheet5, hand)
    store(sheet5, None)
    data = backup.dump(sheet5)
    assert data["format"] == "tarot-scoresheet/1"
    assert data["players"] == ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    assert data["rules"] == {
        "poignees": "20-30-40",
        "rounding": 1,
        "misere": 0,
        "dealer_sits_out": False,
    }
    # The deal goes round from the first dealer (seat 0): every hand names its dealer.
    assert data["hands"] == [
        {
            "dealer": 0,
            "taker": 0,
            "contract": "garde",
            "bouts": 2,
            "points": 45.5,
            "partner": 3,
            "petit_au_bout": None,
            "poignees": {"4": "triple"},
            "chelem": None,
            "defence_chelem": False,
        },
        {"passed": True, "dealer": 1},
    ]
    # created: ISO 8601 with the offset of the server's time zone (Europe/Paris).
    assert data["created"][-6:] in ("+01:00", "+02:00")
    assert backup.dump(backup.load(backup.dumps(data))) == data


def test_restored_sheet_gets_a_new_token_and_keys(make_backup):
    text = backup.dumps(make_backup())
    first, second = backup.load(text), backup.load(text)
    assert first.token != second.token
    assert backup.dump(first) == backup.dump(second)
    assert Hand.objects.values("key").distinct().count() == 2 * len(make_backup()["hands"])


def test_an_empty_session_round_trips(make_backup):
    data = {**make_backup(), "hands": []}
    text = backup.dumps(data)
    assert backup.dumps(backup.dump(backup.load(text))) == text


def test_byte_order_mark_and_str_input_are_accepted(make_backup):
    text = backup.dumps(make_backup())
    assert backup.dump(backup.load(("\ufeff" + text).encode())) == make_backup()
    assert backup.dump(backup.load(text)) == make_backup()


def test_names_are_cleaned_as_the_forms_clean_them(make_backup):
    data = make_backup()
    data["name"] = "  Vendredi  soir "
    data["players"][1] = "  Ben \t Jr "
    sheet = backup.load(json.dumps(data))
    assert sheet.name == "Vendredi soir"
    assert sheet.seats.get(position=1).name == "Ben Jr"


def test_the_largest_backup_fits_under_the_size_limit():
    # The longest hand the rules allow, 20,000 times: our own exports must import again.
    longest = {
        "taker": 4,
        "contract": "garde_contre",
        "bouts": 3,
        "points": 90.5,
        "partner": 3,
        "petit_au_bout": "defence",
        "poignees": {"0": "simple", "1": "triple"},
        "chelem": "unannounced_made",
        "defence_chelem": False,
    }
    data = {
        "format": backup.FORMAT,
        "name": "N" * limits.TITLE_LENGTH,
        "created": "2026-11-27T20:41:00.123456+01:00",
        "players": [str(seat) * limits.PLAYER_LENGTH for seat in range(5)],
        "first_dealer": 0,
        "rules": {},
        "hands": [longest] * limits.SESSION_BACKUP_HANDS,
    }
    text = backup.dumps(data)
    assert len(text.encode()) < limits.SESSION_BACKUP_BYTES
    assert len(backup.read(text).hands) == limits.SESSION_BACKUP_HANDS


# JSON backup: what is refused, and that nothing is written then


def hand_change(number, **fields):
    """Change hand ``number`` (from 1) of the 4-player backup."""

    def change(data):
        data["hands"][number - 1].update(fields)

    return change


def hand_without(number, key):
    def change(data):
        del data["hands"][number - 1][key]

    return change


def top(**fields):
    def change(data):
        data.update(fields)

    return change


def without(key):
    def change(data):
        del data[key]

    return change


# (change to the 4-player backup, hand number, field, words the message must hold)
REFUSED = [
    (without("format"), None, "format", "not a backup"),
    (top(format="tarot-scoresheet/2"), None, "format", "“tarot-scoresheet/2”"),
    (top(format=None), None, "format", "format is “None”"),
    (without("name"), None, "name", "no “name”"),
    (without("created"), None, "created", "no “created”"),
    (without("players"), None, "players", "no “players”"),
    (without("first_dealer"), None, "first_dealer", "no “first_dealer”"),
    (without("rules"), None, "rules", "no “rules”"),
    (without("hands"), None, "hands", "no “hands”"),
    (top(extra=1), None, "extra", "unknown entry “extra”"),
    (top(name=""), None, "name", "Name"),
    (top(name="  "), None, "name", "Name"),
    (top(name="N" * 81), None, "name", "1 to 80 characters"),
    (top(name=7), None, "name", "Name"),
    (top(created="2026-11-27T20:41:00"), None, "created", "offset"),
    (top(created="yesterday"), None, "created", "Created"),
    (top(created=1764272460), None, "created", "Created"),
    (top(created="0001-01-01T00:00:00+01:00"), None, "created", "Created"),
    (top(players="Ana, Ben, Chloé"), None, "players", "list of the players"),
    (top(players=["Ana", "Ben"]), None, "players", "3 to 6 players, not 2"),
    (top(players=["A", "B", "C", "D", "E", "F", "G"]), None, "players", "not 7"),
    (top(players=["Ana", "Ben", "", "Dan"]), None, "players", "Player 3"),
    (top(players=["Ana", "Ben", None, "Dan"]), None, "players", "Player 3"),
    (top(players=["Ana", "B" * 41, "Chloé", "Dan"]), None, "players", "1 to 40 characters"),
    (top(players=["Ana", "Ben", "ANA", "Dan"]), None, "players", "“ANA” is already"),
    (top(players=["Ana", "Ben", "Chloé", "\ud800"]), None, "players", "Player 4"),
    (top(players=["Ana", "Ben", "Chloé", "D\x00n"]), None, "players", "Player 4"),
    (top(first_dealer=4), None, "first_dealer", "First dealer"),
    (top(first_dealer=-1), None, "first_dealer", "First dealer"),
    (top(first_dealer="0"), None, "first_dealer", "First dealer"),
    (top(first_dealer=True), None, "first_dealer", "First dealer"),
    (top(rules={"petit_au_bout": 20}), None, "rules", "no rule “petit_au_bout”"),
    (top(rules=None), None, "rules", "Rules"),
    (top(hands={"1": {"passed": True}}), None, "hands", "list of hands"),
    (top(hands=[{"passed": True}, 7]), 2, None, "Hand 2: give the hand as an object"),
    (hand_without(3, "bouts"), 3, "bouts", "Hand 3: Bouts is missing"),
    (hand_without(1, "partner"), 1, "partner", "Hand 1: Partner is missing"),
    (hand_without(1, "poignees"), 1, "poignees", "Hand 1: Poignées is missing"),
    (hand_change(1, players=4), 1, "players", "Hand 1: unknown field “players”"),
    (hand_change(2, taker=0), 2, "passed", "Hand 2: a passed deal has no other field"),
    (hand_change(2, passed="yes"), 2, "passed", "Hand 2: Passed"),
    (hand_change(3, taker="0"), 3, "taker", "Hand 3: Taker"),
    (hand_change(3, taker=None), 3, "taker", "Hand 3: Taker"),
    (hand_change(3, taker=4), 3, "taker", "Hand 3: Taker: choose one of the players"),
    (hand_change(3, taker=-1), 3, "taker", "Hand 3: Taker"),
    (hand_change(3, partner=1), 3, "partner", "Hand 3: Partner: there is a partner only at 5"),
    (hand_change(3, partner="1"), 3, "partner", "Hand 3: Partner"),
    (hand_change(3, contract="garde_plus"), 3, "contract", "Hand 3: Contract"),
    (hand_change(3, contract=2), 3, "contract", "Hand 3: Contract"),
    (hand_change(3, bouts=4), 3, "bouts", "Hand 3: Bouts"),
    (hand_change(3, bouts=2.0), 3, "bouts", "Hand 3: Bouts"),
    (hand_change(3, points=95), 3, "points", "Hand 3: Points: must be between 0 and 91"),
    (hand_change(3, points=-1), 3, "points", "Hand 3: Points"),
    (hand_change(3, points=50.5), 3, "points", "no half points at 4 players"),
    (hand_change(3, points=50.25), 3, "points", "whole or half points"),
    (hand_change(3, points="50"), 3, "points", "Hand 3: Points: give"),
    (hand_change(3, points=True), 3, "points", "Hand 3: Points"),
    (hand_change(3, bouts=0, points=90), 3, "points", "with 0 bouts"),
    (hand_change(3, petit_au_bout=""), 3, "petit_au_bout", "Hand 3: Petit au bout"),
    (hand_change(3, petit_au_bout="both"), 3, "petit_au_bout", "Hand 3: Petit au bout"),
    (hand_change(3, chelem=""), 3, "chelem", "Hand 3: Chelem"),
    (hand_change(3, chelem="yes"), 3, "chelem", "Hand 3: Chelem"),
    (hand_change(3, defence_chelem="no"), 3, "defence_chelem", "Hand 3: Defence chelem"),
    (hand_change(3, defence_chelem=1), 3, "defence_chelem", "Hand 3: Defence chelem"),
    (
        hand_change(4, defence_chelem=True),
        4,
        "defence_chelem",
        "the attack made a chelem",
    ),
    (hand_change(3, poignees=["simple"]), 3, "poignees", "Hand 3: Poignées"),
    (hand_change(3, poignees={"4": "simple"}), 3, "poignees", "seat 4 is not at the table"),
    (hand_change(3, poignees={"01": "simple"}), 3, "poignees", "seat 01 is not"),
    (hand_change(3, poignees={"1": None}), 3, "poignees", "Poignée of Ben"),
    (hand_change(3, poignees={"1": "quadruple"}), 3, "poignees", "Poignée of Ben"),
    (
        hand_change(3, poignees={"0": "double", "1": "double"}),
        3,
        "poignees",
        "show 26 trumps",
    ),
]


@pytest.mark.parametrize(("change", "number", "field", "words"), REFUSED)
def test_bad_backup_is_refused_and_nothing_written(
    make_backup, sheet4, change, number, field, words
):
    data = make_backup()
    change(data)
    before = counts()
    with pytest.raises(backup.BackupError) as refused:
        backup.load(json.dumps(data))
    assert counts() == before
    assert refused.value.hand == number
    assert refused.value.field == field
    message = refused.value.message
    assert words in message
    # docs/formats.md: a problem in a hand is reported with its number first, counting from 1.
    assert message.startswith(f"Hand {number}: ") == (number is not None)
    # Every placeholder filled in: the message is what the import form and the command show.
    assert "%(" not in message


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"not json",
        b"\xff\xfe{}",
        b'{"format": "tarot-scoresheet/1", "name": NaN}',
        b'{"format": "tarot-scoresheet/1", "format": "tarot-scoresheet/1"}',
        b"[" * 100_000,
        "{\n" + "Ana,Ben,Chloé\n",
    ],
)
def test_a_file_that_is_not_json_is_refused(sheet4, content):
    before = counts()
    with pytest.raises(backup.BackupError, match="not JSON"):
        backup.load(content)
    assert counts() == before


@pytest.mark.parametrize("content", [b"[]", b"null", b"42", b'"tarot"', b'{"name": "x"}'])
def test_json_that_is_not_a_backup_is_refused(sheet4, content):
    with pytest.raises(backup.BackupError, match="not a backup") as refused:
        backup.load(content)
    assert refused.value.field == "format"
    assert counts() == (1, 4, 0)


def test_a_file_over_5_mb_is_refused_before_reading_it(make_backup, sheet4):
    data = make_backup()
    data["name"] = "Vendredi"
    text = backup.dumps(data)
    # Valid JSON, only too large: spaces are allowed between JSON values.
    padded = text[:-2] + " " * (limits.SESSION_BACKUP_BYTES - len(text) + 1) + "}\n"
    with pytest.raises(backup.BackupError, match="larger than 5 MB"):
        backup.load(padded.encode())
    with pytest.raises(backup.BackupError, match="larger than 5 MB"):
        backup.load(padded)
    assert counts() == (1, 4, 0)


def test_more_than_20000_hands_are_refused(make_backup, sheet4):
    data = make_backup()
    data["hands"] = [{"passed": True}] * (limits.SESSION_BACKUP_HANDS + 1)
    with pytest.raises(backup.BackupError, match="20001 hands") as refused:
        backup.load(json.dumps(data))
    assert refused.value.field == "hands"
    assert counts() == (1, 4, 0)
    data["hands"].pop()
    assert len(backup.read(json.dumps(data)).hands) == limits.SESSION_BACKUP_HANDS


def test_the_first_problem_is_the_one_reported(make_backup):
    data = make_backup()
    data["hands"][4]["points"] = 100
    data["hands"][2]["taker"] = 9
    with pytest.raises(backup.BackupError, match="Hand 3: Taker"):
        backup.read(json.dumps(data))


def test_a_failed_write_leaves_the_database_unchanged(make_backup, sheet4, monkeypatch):
    insert = bulk.insert

    def broken(model, *args, **kwargs):
        # The hands are the last rows an import writes: the sheet and its seats are in.
        if model is Hand:
            raise RuntimeError("disk full")
        insert(model, *args, **kwargs)

    monkeypatch.setattr(bulk, "insert", broken)
    with pytest.raises(RuntimeError):
        backup.load(json.dumps(make_backup()))
    assert counts() == (1, 4, 0)


def test_messages_are_in_the_language_of_the_request(make_backup):
    data = make_backup()
    data["hands"][2]["bouts"] = 7
    with translation.override("fr"), pytest.raises(backup.BackupError) as refused:
        backup.read(json.dumps(data))
    assert refused.value.message == "Donne 3\u00a0: Bouts\u00a0: l’attaque a 0, 1, 2 ou 3 bouts."
    with translation.override("en"), pytest.raises(backup.BackupError) as refused:
        backup.read(json.dumps(data))
    assert refused.value.message == "Hand 3: Bouts: the attack holds 0, 1, 2 or 3 bouts."


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=5)
    | st.sampled_from(["garde", "attack", "simple", "0", "1"]),
    lambda children: (
        st.lists(children, max_size=3) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)


@given(
    key=st.sampled_from([*backup.KEYS, *backup.HAND_KEYS, "passed"]),
    value=JSON,
    number=st.integers(1, 6),
)
# make_backup returns a fresh copy on each call, so sharing it between examples is safe.
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
def test_any_value_anywhere_is_refused_cleanly_or_accepted(make_backup, key, value, number):
    # Never a crash (a 500 in the app): a BackupError, or a backup the rules accept.
    data = make_backup(4)
    if key in backup.KEYS:
        data[key] = value
    else:
        data["hands"][number - 1][key] = value
    try:
        checked = backup.read(json.dumps(data))
    except backup.BackupError:
        return
    for _dealer, hand in checked.hands:
        assert hand is None or not scoring.validate(hand, checked.rules)


@given(st.binary(max_size=200) | st.text(max_size=200))
@settings(max_examples=200, deadline=None)
def test_any_file_is_refused_cleanly(content):
    with pytest.raises(backup.BackupError):
        backup.read(content)


@st.composite
def valid_hands(draw):
    """A hand dict in the backup format that the rules accept, and its table size."""
    players = draw(st.sampled_from(scoring.PLAYERS))
    bouts = draw(st.integers(0, 3))
    low, high = 4 * bouts, 91 - 4 * (3 - bouts)
    step = 1 if players == 4 else 0.5
    points = low + step * draw(st.integers(0, int((high - low) / step)))
    taker = draw(st.integers(0, players - 1))
    partner = None
    if players == 5:
        partner = draw(st.none() | st.integers(0, 4).filter(lambda seat: seat != taker))
    # Poignées that fit in the game's 22 trumps (docs/rules.md §3.1): each seat shown picks among
    # the kinds the trumps left can still show.
    trumps = scoring.POIGNEE_TRUMPS[players]
    left = scoring.TRUMPS
    poignees = {}
    for seat in draw(st.lists(st.integers(0, players - 1), unique=True)):
        fitting = sorted(kind.value for kind, count in trumps.items() if count <= left)
        if not fitting:
            break
        kind = draw(st.sampled_from(fitting))
        poignees[str(seat)] = kind
        left -= trumps[kind]
    chelem = draw(st.sampled_from([None, *(c.value for c in scoring.Chelem)]))
    # The defence cannot make a chelem in a hand where the attack made one.
    attack_made = chelem in ("announced_made", "unannounced_made")
    hand = {
        "taker": taker,
        "contract": draw(st.sampled_from(list(scoring.Contract))).value,
        "bouts": bouts,
        "points": int(points) if points == int(points) else points,
        "partner": partner,
        "petit_au_bout": draw(st.sampled_from([None, "attack", "defence"])),
        "poignees": dict(sorted(poignees.items(), key=lambda item: int(item[0]))),
        "chelem": chelem,
        "defence_chelem": False if attack_made else draw(st.booleans()),
    }
    return players, hand


@given(valid_hands())
@settings(max_examples=300, deadline=None)
def test_every_hand_the_rules_accept_round_trips(drawn):
    players, data = drawn
    names = ["Ana", "Ben", "Chloé", "Dan", "Élise"][:players]
    content = {
        "format": backup.FORMAT,
        "name": "Une donne",
        "created": "2026-11-27T20:41:00+01:00",
        "players": names,
        "first_dealer": 0,
        "rules": {},
        "hands": [data],
    }
    # Read as an import reads the file: JSON numbers as Decimal, so 40.5 stays exact.
    ((_dealer, hand),) = backup.read(json.dumps(content)).hands
    # Without a "dealer", the hand is dealt in turn: here by the first dealer, seat 0.
    assert backup.hand_data(Hand.from_scoring(hand)) == {"dealer": 0, **data}


# CSV export


@pytest.mark.parametrize("players", [3, 4, 5])
def test_csv_scores_and_totals_equal_the_sheet(make_backup, players):
    sheet = backup.load(json.dumps(make_backup(players)))
    built = scored(sheet)
    rows = csv_of(sheet)
    header, body, totals, rules = rows[0], rows[1:-2], rows[-2], rows[-1]
    assert header[12:] == make_backup(players)["players"]
    assert len(body) == len(built.rows)
    for line, row in zip(body, built.rows, strict=True):
        assert [int(value) for value in line[12:]] == list(row.scores)
        assert int(line[0]) == row.number
    assert totals[0] == "Total"
    assert [int(value) for value in totals[12:]] == list(built.totals)
    assert all(len(line) == 12 + players for line in rows[:-1])
    # Last, the rules every score was computed under.
    assert rules == ["Rules", "FFT"]


def test_csv_columns(make_backup):
    sheet = backup.load(json.dumps(make_backup(5)))
    rows = csv_of(sheet)
    assert rows[0] == [
        "Hand",
        "Dealer",
        "Taker",
        "Partner",
        "Contract",
        "Bouts",
        "Points",
        "Result",
        "Petit au bout",
        "Poignées",
        "Chelem",
        "Misère",
        "Ana",
        "Ben",
        "Chloé",
        "Dan",
        "Élise",
    ]
    # First dealer is seat 4 (Élise); the deal moves on after every hand.
    assert rows[1][:11] == [
        "1",
        "Élise",
        "Ana",
        "Dan",
        "Garde",
        "2",
        "45.5",
        "made by 5",
        "defence",
        "Ana: simple; Élise: triple",
        "",
    ]
    assert rows[2][:12] == ["2", "Ana", "", "", "", "", "", "Everyone passed", "", "", "", ""]
    assert rows[2][12:] == ["0"] * 5
    assert rows[3][1:4] == ["Ben", "Élise", "alone"]
    assert rows[3][6:8] == ["50.5", "lost by 1"]
    assert rows[3][10] == "announced and failed"
    assert rows[4][10] == "announced and made"
    assert rows[5][6:8] == ["4.5", "lost by 47"]
    assert rows[5][10] == "by the defence"


def test_csv_numbers_are_numbers_and_text_is_quoted(make_backup):
    sheet = backup.load(json.dumps(make_backup(4)))
    lines = "".join(session_csv.csv_lines(sheet)).removeprefix(csv_text.BOM).split("\r\n")
    assert lines[1] == (
        '1,"Ana","Chloé","","Garde",2,49,"made by 8","attack","Chloé: simple","","",'
        "-106,-106,318,-106"
    )
    assert lines[-3].startswith('"Total","",')
    assert lines[-2] == '"Rules","FFT"'
    assert lines[-1] == ""
    # Read as numbers, the way a spreadsheet reads unquoted cells.
    numbers = next(csv.reader(io.StringIO(lines[1]), quoting=csv.QUOTE_NONNUMERIC))
    assert numbers[12:] == [-106, -106, 318, -106]


def test_csv_is_utf8_with_a_bom(make_backup):
    sheet = backup.load(json.dumps(make_backup(3)))
    data = "".join(session_csv.csv_lines(sheet)).encode()
    assert data.startswith(b"\xef\xbb\xbf")
    assert "Bérénice".encode() in data
    assert data.decode("utf-8-sig").count("\ufeff") == 0


@pytest.mark.parametrize(
    ("name", "cell"),
    [
        ("=SUM(A1:A9)", "'=SUM(A1:A9)"),
        ("@cmd", "'@cmd"),
        ("+33 6", "'+33 6"),
        ("-Dan-", "'-Dan-"),
        ("Ana", "Ana"),
        ("Ana=1", "Ana=1"),
    ],
)
def test_csv_neutralises_formulas_in_names(make_sheet, name, cell):
    sheet = make_sheet(("Ben", name, "Chloé", "Dan"), first_dealer=1)
    store(sheet, scoring.Hand(4, 1, "garde", 2, 49))
    rows = csv_of(sheet)
    assert rows[0][13] == cell
    assert rows[1][1:3] == [cell, cell]
    assert sheet.seats.get(position=1).name == name


def test_csv_neutralises_every_dangerous_start():
    for start in ("=", "+", "-", "@", "\t", "\r"):
        assert csv_text.cell(start + "x") == "'" + start + "x"
    assert csv_text.cell(-106) == -106
    assert csv_text.cell(40.5) == 40.5
    assert csv_text.cell("") == ""


def test_csv_of_an_empty_sheet(sheet4):
    rows = csv_of(sheet4)
    assert len(rows) == 3
    assert rows[1] == ["Total", *[""] * 11, "0", "0", "0", "0"]
    assert rows[2] == ["Rules", "FFT"]


def test_exports_read_all_hands_in_one_query(make_backup, django_assert_num_queries):
    data = make_backup(4)
    data["hands"] = data["hands"] * 50
    sheet = backup.load(json.dumps(data))
    sheet = Sheet.objects.get(pk=sheet.pk)
    # The seats, then the hands.
    with django_assert_num_queries(2):
        assert len(list(session_csv.csv_lines(sheet))) == 303
    with django_assert_num_queries(2):
        assert len(backup.dump(sheet)["hands"]) == 300


def test_filename_is_the_name_and_the_date(make_backup):
    data = make_backup(3)
    data["name"] = 'Soirée: "chez Ana" / 2'
    sheet = backup.load(json.dumps(data))
    assert filenames.filename(sheet, "csv") == "Soirée- -chez Ana- - 2 2026-11-27.csv"
    sheet.name = "..."
    assert filenames.filename(sheet, "json") == "tarot 2026-11-27.json"


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Nov. 27, 2026, 8-41 p.m.csv"),
        ("fr", "27 novembre 2026 20-41.csv"),
        ("es", "27 de noviembre de 2026 a las 20-41.csv"),
    ],
)
def test_a_default_name_has_the_date_once(client, monkeypatch, language, expected):
    # The default name is the date and time of creation, in the creator's language.
    moment = datetime(2026, 11, 27, 19, 41, tzinfo=UTC)  # 20:41 in Paris
    monkeypatch.setattr(timezone, "now", lambda: moment)
    data = {"players": 3, "first_dealer": 0, "player_0": "A", "player_1": "B", "player_2": "C"}
    client.post(reverse("new_sheet"), data, HTTP_ACCEPT_LANGUAGE=language)
    sheet = Sheet.objects.get()
    assert filenames.filename(sheet, "csv") == expected
