"""The commands export_session and import_session."""

import csv
import io
import json

import pytest
from django.core.management import CommandError, ManagementUtility, call_command

from scoresheet import limits
from scoresheet.files import session_backup as backup
from scoresheet.files import session_csv
from scoresheet.files.commands import token_in
from scoresheet.models import Hand, Seat, Sheet

pytestmark = pytest.mark.django_db


def counts():
    return Sheet.objects.count(), Seat.objects.count(), Hand.objects.count()


def run(*args) -> str:
    out = io.StringIO()
    call_command(*args, stdout=out)
    return out.getvalue()


@pytest.fixture
def restored(make_backup):
    return backup.load(backup.dumps(make_backup(5)))


@pytest.mark.parametrize(
    ("session", "token"),
    [
        ("abc_-9", "abc_-9"),
        ("/s/abc_-9/", "abc_-9"),
        ("/s/abc_-9", "abc_-9"),
        ("https://tarot.example/fr/s/abc_-9/?x=1", "abc_-9"),
        (" abc_-9 ", "abc_-9"),
    ],
)
def test_token_in(session, token):
    assert token_in(session, "s") == token


def test_export_session_writes_the_backup_to_stdout(restored, make_backup):
    assert run("export_session", restored.token) == backup.dumps(make_backup(5))


def test_export_session_takes_the_url_path(restored, make_backup):
    assert json.loads(run("export_session", f"/s/{restored.token}/")) == make_backup(5)


def test_export_session_to_a_file(restored, make_backup, tmp_path):
    target = tmp_path / "club.json"
    out = run("export_session", restored.token, "-o", str(target))
    assert out == f"Wrote {target}\n"
    assert target.read_text(encoding="utf-8") == backup.dumps(make_backup(5))


def test_export_session_csv(restored, tmp_path):
    target = tmp_path / "club.csv"
    run("export_session", restored.token, "--csv", "-o", str(target))
    data = target.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf")
    assert data == "".join(session_csv.csv_lines(restored)).encode()
    rows = list(csv.reader(io.StringIO(data.decode("utf-8-sig"), newline="")))
    assert rows[0][12:] == ["Ana", "Ben", "Chloé", "Dan", "Élise"]
    assert rows[-2][0] == "Total"


def test_export_session_csv_to_stdout(restored):
    assert run("export_session", restored.token, "--csv") == "".join(
        session_csv.csv_lines(restored)
    )


def test_export_unknown_session_fails(sheet4):
    with pytest.raises(CommandError, match="No session 'nope'"):
        call_command("export_session", "nope")


def test_export_to_an_unwritable_place_fails(restored, tmp_path):
    with pytest.raises(CommandError, match="Cannot write"):
        call_command("export_session", restored.token, "-o", str(tmp_path / "no" / "x.json"))


def test_import_session_prints_the_url_path_last(make_backup, tmp_path):
    source = tmp_path / "backup.json"
    source.write_text(backup.dumps(make_backup(3)), encoding="utf-8")
    lines = run("import_session", str(source)).splitlines()
    sheet = Sheet.objects.get()
    assert lines[-1] == f"/s/{sheet.token}/"
    assert lines[0] == "Restored “Soirée à trois”: 3 players, 5 hands."
    assert backup.dump(sheet) == make_backup(3)


def test_export_import_export_is_identical(restored, tmp_path):
    first = tmp_path / "first.json"
    run("export_session", restored.token, "-o", str(first))
    path = run("import_session", str(first)).splitlines()[-1]
    assert path != restored.get_absolute_url()
    assert run("export_session", path) == first.read_text(encoding="utf-8")


def test_import_session_refuses_a_bad_backup(make_backup, sheet4, tmp_path):
    data = make_backup()
    data["hands"][1] = {"passed": True, "taker": 0}
    source = tmp_path / "backup.json"
    source.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(CommandError, match="Hand 2: a passed deal has no other field"):
        call_command("import_session", str(source))
    assert counts() == (1, 4, 0)


def test_import_session_exits_non_zero_on_refusal(sheet4, tmp_path, capsys, monkeypatch):
    # run_from_argv closes the database connections when it ends: keep the test's own.
    monkeypatch.setattr("django.core.management.base.connections.close_all", lambda: None)
    source = tmp_path / "notes.txt"
    source.write_text("Ana 120, Ben -40", encoding="utf-8")
    with pytest.raises(SystemExit) as exit:
        ManagementUtility(["manage.py", "import_session", str(source)]).execute()
    assert exit.value.code == 1
    assert "This file is not a backup of a session: it is not JSON." in capsys.readouterr().err
    assert counts() == (1, 4, 0)


def test_import_session_refuses_a_file_over_5_mb(sheet4, tmp_path):
    source = tmp_path / "big.json"
    source.write_bytes(b" " * (limits.SESSION_BACKUP_BYTES + 1))
    with pytest.raises(CommandError, match="larger than 5 MB"):
        call_command("import_session", str(source))
    assert counts() == (1, 4, 0)


def test_import_session_of_a_missing_file_fails(tmp_path):
    with pytest.raises(CommandError, match="Cannot read"):
        call_command("import_session", str(tmp_path / "missing.json"))
