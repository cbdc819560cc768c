"""The club's JSON backup (tarot-club/1): a round trip, refusals that name the session and the
hand and write nothing, and the two commands."""

import copy
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoresheet.clubs import results as club_results
from scoresheet.clubs import standings as clubs
from scoresheet.clubs import writes as club_writes
from scoresheet.files import club_backup
from scoresheet.files import session_backup as backup
from scoresheet.models import Club, Sheet
from scoresheet.sheets import writes
from tests.conftest import BACKUPS
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
    monkeypatch.setattr(club_backup, "MAX_HANDS", 20)
    data = club_data(3, 7)
    data["sessions"][2]["hands"][5]["bouts"] = 7
    with pytest.raises(backup.BackupError, match=r"This backup has 21 hands; .* at most 20"):
        club_backup.load(json.dumps(data))
    assert not Club.objects.exists()
    assert not Sheet.objects.exists()
    data["sessions"][2]["hands"].pop()
    with pytest.raises(backup.BackupError, match=r"Session 3 \(“Soirée 2”\): Hand 6"):
        club_backup.load(json.dumps(data))
