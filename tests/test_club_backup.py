"""The club's JSON backup (tarot-club/1): a round trip, refusals that name the session and the
hand and write nothing, and the two commands."""

import copy
import json
from datetime import date

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection
from django.db.models import QuerySet
from django.test.utils import CaptureQueriesContext

from scoresheet import limits, scoring
from scoresheet.clubs import results as club_results
from scoresheet.clubs import standings as clubs
from scoresheet.clubs import writes as club_writes
from scoresheet.files import club_backup
from scoresheet.files import session_backup as backup
from scoresheet.models import Club, NightTable, Sheet
from scoresheet.nights import writes as night_writes
from scoresheet.sheets import writes
from tests.conftest import BACKUPS
from tests.reading import store, table_rows
from tests.test_clubs import club  # noqa: F401  (the fixture)

pytestmark = pytest.mark.django_db


def lines_of(found):
    return [
        (r.player.name, r.sessions, r.hands, r.points, r.wins, r.taken, r.made) for r in found.rows
    ]


def test_round_trip(club):  # noqa: F811
    ana = club.players.get(name="Ana")
    club_writes.rename_player(club, ana.pk, "Anna")
    text = club_backup.dumps(club_backup.dump(club))
    data = json.loads(text)
    assert data["format"] == "tarot-club/1"
    # Each session's players are written as roster names, even after a rename.
    assert data["sessions"][0]["players"] == ["Anna", "Ben", "Chloé", "Dan"]
    restored = club_backup.load(text)
    assert restored.pk != club.pk
    assert restored.token != club.token
    assert restored.name == club.name
    assert restored.created == club.created
    assert lines_of(clubs.standings(restored)) == lines_of(clubs.standings(club))
    again = json.loads(club_backup.dumps(club_backup.dump(restored)))
    assert again == data


def valid() -> dict:
    session = copy.deepcopy(BACKUPS[4])
    return {
        "format": "tarot-club/1",
        "name": "Le jeudi",
        "created": "2026-09-01T20:00:00+02:00",
        "players": [*list(session["players"]), "Zoé"],
        "rules": {},
        "sessions": [copy.deepcopy(session), session],
    }


def test_a_valid_backup_restores():
    restored = club_backup.load(json.dumps(valid()))
    assert restored.club_sheets.count() == 2
    assert restored.players.count() == 5


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="tarot-club/2"), "format"),
        (lambda d: d.pop("players"), "no “players”"),
        (lambda d: d["players"].append(d["players"][0].upper()), "already one of the club"),
        (lambda d: d["sessions"][1]["hands"][1].update(bouts=7), r"Session 2 \(“"),
        (lambda d: d["sessions"][1]["hands"][1].update(bouts=7), "Hand 2:"),
        (lambda d: d["players"].remove("Zoé") or d["players"].pop(0), "not one of the club"),
        (lambda d: d.update(sessions={}), "list of sessions"),
    ],
)
def test_a_bad_backup_is_refused_whole(change, message):
    data = valid()
    change(data)
    with pytest.raises(backup.BackupError, match=message):
        club_backup.load(json.dumps(data))
    assert not Club.objects.exists()
    assert not Sheet.objects.exists()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"{", "not JSON"),
        (b'\xef\xbb\xbf{"format": ', "not JSON"),
        # The backup written in UTF-8, saved again in Latin-1 by an editor.
        ('{"format": "tarot-club/1", "name": "Fée"}'.encode("latin-1"), "not UTF-8 text"),
        ('{"format": "tarot-club/1"}'.encode("utf-16"), "not UTF-8 text"),
    ],
)
def test_not_json_or_not_utf8(data, message):
    with pytest.raises(backup.BackupError, match=message):
        club_backup.load(data)


def test_a_sessions_backup_is_sent_to_the_home_page(club):  # noqa: F811
    sheet = club.club_sheets.first().sheet
    with pytest.raises(backup.BackupError, match="backup of one session, not of a club"):
        club_backup.load(backup.dumps(backup.dump(sheet)))


def test_commands_round_trip(club, tmp_path, capsys):  # noqa: F811
    out = tmp_path / "club.json"
    call_command("export_club", f"https://x.example/c/{club.token}/", "-o", str(out))
    call_command("import_club", str(out))
    printed = capsys.readouterr().out.strip().splitlines()
    restored = Club.objects.exclude(pk=club.pk).get()
    assert printed[-1] == restored.get_absolute_url()
    csv_file = tmp_path / "standings.csv"
    call_command("export_club", club.token, "-o", str(csv_file), "--standings")
    text = csv_file.read_text(encoding="utf-8")
    assert text.startswith('\ufeff"Player","Sessions","Hands","Points"')
    assert '"Ana",3,4,420' in text
    with pytest.raises(CommandError, match="No club"):
        call_command("export_club", "nope")
    bad = tmp_path / "bad.json"
    bad.write_text("[]")
    with pytest.raises(CommandError):
        call_command("import_club", str(bad))


DAYS = [9, 3, 3, 1, 5, 7, 2, 8]


def club_data(sessions: int, hands: int) -> dict:
    """A club's backup of ``sessions`` sessions of ``hands`` hands, listed out of date order,
    two of them on the same evening, under several house rules."""
    session = BACKUPS[4]
    played = []
    for number in range(sessions):
        data = copy.deepcopy(session)
        data["hands"] = [
            copy.deepcopy(data["hands"][n % len(data["hands"])]) for n in range(hands)
        ]
        data["name"] = f"Soirée {number}"
        # Out of date order in the file; sessions 1 and 2 on the same evening.
        data["created"] = f"2026-09-{DAYS[number]:02d}T20:00:00+02:00"
        data["rules"] = [{}, {"rounding": 10}, {"poignees": "20-40-60"}][number % 3]
        data["players"] = data["players"][number % 2 :] + data["players"][: number % 2]
        played.append(data)
    return {**valid(), "sessions": played}


def test_an_import_stores_what_the_write_path_would():
    """Scored in memory and written in bulk, the restored club holds what a recount from
    scratch gives (results and the rating chain, in date order), and each session what a
    full re-scoring of its hands gives."""
    restored = club_backup.load(json.dumps(club_data(5, 7)))
    assert not club_results.recount(restored)
    sheets = [session.sheet for session in restored.club_sheets.select_related("sheet")]
    assert len(sheets) == 5
    for sheet in sheets:
        assert sheet.hand_count == 7
        assert not writes.rescore(sheet)
    # The rating's order: the sessions' dates, those of one evening in the file's order.
    order = restored.club_sheets.order_by("sheet__created", "id").values_list("sheet__name")
    assert [name for (name,) in order] == [f"Soirée {n}" for n in (3, 1, 2, 4, 0)]


def test_an_import_costs_the_same_queries_at_two_sizes():
    counts = []
    for sessions, hands in ((2, 3), (8, 30)):
        text = json.dumps(club_data(sessions, hands))
        with CaptureQueriesContext(connection) as captured:
            club_backup.load(text)
        counts.append(len(captured))
    assert counts[0] == counts[1], counts


def test_too_many_hands_are_refused_before_any_is_read(monkeypatch):
    monkeypatch.setattr(limits, "CLUB_BACKUP_HANDS", 20)
    data = club_data(3, 7)
    data["sessions"][2]["hands"][5]["bouts"] = 7
    with pytest.raises(backup.BackupError, match=r"This backup has 21 hands; .* at most 20"):
        club_backup.load(json.dumps(data))
    assert not Club.objects.exists()
    assert not Sheet.objects.exists()
    data["sessions"][2]["hands"].pop()
    with pytest.raises(backup.BackupError, match=r"Session 3 \(“Soirée 2”\): Hand 6"):
        club_backup.load(json.dumps(data))


# Crafted files: refused whole, answered 422 with the message, nothing stored in any table.
# scripts/with-postgres runs them on PostgreSQL too, where a NUL in a text column fails.

EIGHT = ["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny", "Gus", "Hugo"]


@pytest.fixture
def night_backup() -> dict:
    """A club's backup holding a night: 8 players, 2 rounds drawn of 3 planned, one hand
    played at round 1's first table. The club stays stored: a refused import adds nothing."""
    stored = club_writes.create_club("Le jeudi", players=EIGHT).club
    night = night_writes.create_night(stored, "Vendredi", date(2026, 12, 4), EIGHT, 3, 2).night
    night_writes.draw_round(stored, night, 2)
    sheet = night.tables.get(round=1, table=1).club_sheet.sheet
    store(sheet, scoring.Hand(4, 0, "garde", 2, 56))
    return club_backup.dump(stored)


def night(data: dict) -> dict:
    return data["nights"][0]


def played(data: dict) -> dict:
    """The backup's session that has a hand."""
    return next(session for session in data["sessions"] if session["hands"])


def changed(where, **fields):
    """Change ``fields`` of the object ``where(data)`` finds."""

    def change(data):
        where(data).update(fields)

    return change


def removed(where, key):
    def change(data):
        del where(data)[key]

    return change


def first_hand(data):
    return played(data)["hands"][0]


def first_table(data):
    return night(data)["rounds"][0][0]


def more_players(count: int, seated_only: int = 0):
    """A roster of ``count`` more players, all of them at the night, but for the first
    ``seated_only`` players who sat at a table (they came all the same)."""

    def change(data):
        extra = [f"Joueur {number}" for number in range(count)]
        data["players"] += extra
        night(data)["players"] = [*extra, *night(data)["players"][seated_only:]]

    return change


def repeated(key: str, times: int, where=lambda data: data):
    """The list ``where(data)[key]`` made ``times`` items long, of copies of its items."""

    def change(data):
        items = where(data)[key]
        where(data)[key] = [copy.deepcopy(items[n % len(items)]) for n in range(times)]

    return change


CRAFTED = [
    # Text no database can hold: a lone surrogate (JSON's "\ud800") or a NUL.
    (
        "seed, lone surrogate",
        changed(night, seed="\ud800"),
        "Night 1: Seed: “\\ud800” holds a character that cannot be stored.",
    ),
    (
        "seed, NUL",
        changed(night, seed="12\x0034"),
        "Night 1: Seed: “12\\u000034” holds a character that cannot be stored.",
    ),
    (
        "night's name, lone surrogate",
        changed(night, name="Ven\ud800dredi"),
        "Night 1: Name: give the night a name of 1 to 80 characters.",
    ),
    (
        "club's name, NUL",
        changed(lambda d: d, name="Le\x00jeudi"),
        "Name: give the club a name of 1 to 80 characters.",
    ),
    (
        "roster name, lone surrogate",
        lambda d: d["players"].append("Zo\udce9"),
        "Player 9: give a name of 1 to 40 characters.",
    ),
    (
        "a night's player, NUL",
        lambda d: night(d)["players"].append("A\x00na"),
        "Night 1: Players: give a list of the club's players.",
    ),
    (
        "a session's name, lone surrogate",
        changed(played, name="Table\ud800"),
        "(“Table\\ud800”): Name: give the session a name of 1 to 80 characters.",
    ),
    (
        "a hand's contract, lone surrogate",
        changed(first_hand, contract="garde\ud800"),
        "Hand 1: Contract: choose prise, garde, garde sans or garde contre.",
    ),
    (
        "a hand's poignée, NUL",
        changed(first_hand, poignees={"1": "simple\x00"}),
        "(“Vendredi · Round 1 · Table 1”): Hand 1: Poignée of ",
    ),
    (
        "a poignée's seat, lone surrogate",
        changed(first_hand, poignees={"\ud800": "simple"}),
        "Hand 1: Poignée: seat \\ud800 is not at the table.",
    ),
    # Counts past what the forms allow.
    (
        "more rounds drawn than planned",
        changed(night, planned=1),
        "Night 1: Rounds: 2 drawn, more than the 1 planned.",
    ),
    (
        "400 players in a night",
        more_players(392),
        "Night 1: Players: a night has at most 200 players, not 400.",
    ),
    (
        "201 players in a night, one of them only at a table",
        more_players(193, seated_only=1),
        "Night 1: Players: a night has at most 200 players, not 201.",
    ),
    ("41 deals", changed(night, deals=41), "Night 1: Deals: a whole number from 1 to 40."),
    (
        "241 minutes",
        changed(night, minutes=241),
        "Night 1: Minutes per round: null, or a whole number from 1 to 240.",
    ),
    (
        "21 rounds planned",
        changed(night, planned=21),
        "Night 1: Rounds planned: a whole number from 1 to 20.",
    ),
    (
        "21 rounds drawn",
        repeated("rounds", 21, night),
        "Night 1: Rounds: give the list of the rounds drawn (at most 20).",
    ),
    (
        "a seed of 21 characters",
        changed(night, seed="1" * 21),
        "Night 1: Seed: give a text of 1 to 20 characters.",
    ),
    (
        "7 players at a table",
        changed(first_table, players=EIGHT[:7]),
        "Night 1: Round 1, table 1: give its 3 to 6 players.",
    ),
    (
        "a session of 20,001 hands",
        repeated("hands", 20_001, played),
        "This backup has 20001 hands; a backup can hold at most 20000.",
    ),
    (
        "1,001 players on the roster",
        lambda d: d["players"].extend(f"Joueur {n}" for n in range(993)),
        "Players: a club has at most 1000 players.",
    ),
    (
        "5,001 sessions",
        repeated("sessions", 5_001),
        "This backup has 5001 sessions; a club's backup holds at most 5000.",
    ),
    (
        "1,001 nights",
        repeated("nights", 1_001),
        "Nights: a club's backup holds at most 1000 nights.",
    ),
    # Wrong types.
    ("deals as text", changed(night, deals="4"), "Night 1: Deals: a whole number"),
    ("rounds planned as 2.5", changed(night, planned=2.5), "Night 1: Rounds planned:"),
    ("minutes as true", changed(night, minutes=True), "Night 1: Minutes per round:"),
    ("a seed as a number", changed(night, seed=123456), "Night 1: Seed: give a text"),
    (
        "a date as a number",
        changed(night, date=20261204),
        "Night 1: Date: give a date such as 2026-03-14.",
    ),
    ("no such date", changed(night, date="2026-02-30"), "Night 1: Date: give a date"),
    (
        "rounds as an object",
        changed(night, rounds={}),
        "Night 1: Rounds: give the list of the rounds drawn",
    ),
    (
        "a table's players as text",
        changed(first_table, players="Ana"),
        "Night 1: Round 1, table 1: give its 3 to 6 players.",
    ),
    (
        "a table's session as text",
        changed(first_table, session="0"),
        "Round 1, table 1: “session” is the number of one of the backup's sessions",
    ),
    (
        "gone as text",
        changed(night, gone="Ana"),
        "Night 1: Players: give a list of the club's players.",
    ),
    ("nights as an object", changed(lambda d: d, nights={}), "Nights: give the list"),
    ("created as a number", changed(lambda d: d, created=7), "Created: give the date and time"),
    (
        "a hand's points as text",
        changed(first_hand, points="56"),
        "Hand 1: Points: give the attack's card points as a number",
    ),
    # Missing fields.
    ("a night without its seed", removed(night, "seed"), "Night 1: it has no “seed”."),
    ("a night without its date", removed(night, "date"), "Night 1: it has no “date”."),
    (
        "a table without its players",
        removed(first_table, "players"),
        "Night 1: Round 1, table 1: give its 3 to 6 players.",
    ),
    ("no sessions", removed(lambda d: d, "sessions"), "The backup has no “sessions”."),
    ("a session without its hands", removed(played, "hands"), "The backup has no “hands”."),
    ("a hand without its points", removed(first_hand, "points"), "Hand 1: Points is missing."),
]


def upload(data: dict) -> SimpleUploadedFile:
    # json.dumps writes a lone surrogate as "\ud800" and a NUL as "\u0000", as a file would.
    return SimpleUploadedFile("club.json", json.dumps(data).encode(), "application/json")


def test_the_crafted_files_start_from_a_valid_backup(client, night_backup):
    """Each crafted file below is this one with one thing changed: this one imports, and the
    restored club writes the same file again."""
    response = client.post("/club/import/", {"backup": upload(night_backup)})
    assert response.status_code == 302
    restored = Club.objects.get(token=response["Location"].strip("/").split("/")[-1])
    assert club_backup.dump(restored) == night_backup


@pytest.mark.parametrize(
    ("change", "words"), [pytest.param(*case[1:], id=case[0]) for case in CRAFTED]
)
def test_a_crafted_club_backup_is_refused_and_stores_nothing(client, night_backup, change, words):
    change(night_backup)
    before = table_rows()
    response = client.post("/club/import/", {"backup": upload(night_backup)})
    assert response.status_code == 422
    (error,) = response.context["import_form"].errors["backup"]
    assert words in error
    assert "%(" not in error
    assert table_rows() == before


def test_a_failed_write_of_the_nights_stores_nothing(night_backup, monkeypatch):
    """The club, its roster, sessions, results and nights are one transaction: a failure at
    the last write (the nights' tables) undoes the club too."""
    bulk_create = QuerySet.bulk_create

    def broken(self, objs, *args, **kwargs):
        if self.model is NightTable:
            raise DatabaseError("disk full")
        return bulk_create(self, objs, *args, **kwargs)

    before = table_rows()
    monkeypatch.setattr(QuerySet, "bulk_create", broken)
    with pytest.raises(DatabaseError):
        club_backup.load(json.dumps(night_backup))
    assert table_rows() == before
