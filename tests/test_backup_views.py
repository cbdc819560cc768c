"""The export and backup views through Django's test client."""

import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import StreamingHttpResponse
from django.template.loader import render_to_string
from django.urls import reverse

from scoresheet import limits, scoring
from scoresheet.filenames import attachment
from scoresheet.files import session_backup as backup
from scoresheet.files.forms import ImportForm
from scoresheet.models import Hand, Seat, Sheet
from tests.reading import rescored, store

pytestmark = pytest.mark.django_db


def counts():
    return Sheet.objects.count(), Seat.objects.count(), Hand.objects.count()


def upload(content, name="Vendredi 2026-07-14.json"):
    if isinstance(content, dict):
        content = backup.dumps(content)
    if isinstance(content, str):
        content = content.encode()
    return SimpleUploadedFile(name, content, content_type="application/json")


def streamed(response) -> bytes:
    return b"".join(response.streaming_content)


# CSV export


def test_csv_export_streams_the_sheet(client, make_backup):
    sheet = backup.load(backup.dumps(make_backup(5)))
    response = client.get(reverse("export_csv", args=[sheet.token]))
    assert response.status_code == 200
    assert isinstance(response, StreamingHttpResponse)
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = streamed(response)
    assert body.startswith(b"\xef\xbb\xbf")
    rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))
    names = list(sheet.seats.values_list("name", flat=True))
    built = rescored(sheet)
    assert [int(value) for value in rows[-2][12:]] == list(built.totals)
    assert rows[0][12:] == names


def test_csv_filename_with_accents(client, make_backup):
    sheet = backup.load(backup.dumps(make_backup(3)))
    response = client.get(reverse("export_csv", args=[sheet.token]))
    assert response["Content-Disposition"] == (
        'attachment; filename="Soiree a trois 2026-11-27.csv"; '
        "filename*=UTF-8''Soir%C3%A9e%20%C3%A0%20trois%202026-11-27.csv"
    )


@pytest.mark.parametrize(
    ("filename", "header"),
    [
        ("Vendredi 2026-11-27.csv", "attachment; filename=\"Vendredi 2026-11-27.csv\"; "
         "filename*=UTF-8''Vendredi%202026-11-27.csv"),
        ("Ça; \"x\" 2026.json", "attachment; filename=\"Ca_ _x_ 2026.json\"; "
         "filename*=UTF-8''%C3%87a%3B%20%22x%22%202026.json"),
        ("麻将 2026-11-27.csv", "attachment; filename=\"2026-11-27.csv\"; "
         "filename*=UTF-8''%E9%BA%BB%E5%B0%86%202026-11-27.csv"),
    ],
)  # fmt: skip
def test_attachment_header(filename, header):
    assert attachment(filename) == header


def test_csv_neutralises_names_and_the_page_shows_them_as_typed(client, make_sheet):
    sheet = make_sheet(("=SUM(A1:A9)", "@cmd", "Chloé", "Dan"))
    store(sheet, scoring.Hand(4, 0, "garde", 2, 49))
    body = streamed(client.get(reverse("export_csv", args=[sheet.token]))).decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body, newline="")))
    assert rows[0][12:14] == ["'=SUM(A1:A9)", "'@cmd"]
    assert rows[1][1:3] == ["'=SUM(A1:A9)", "'=SUM(A1:A9)"]
    page = client.get(sheet.get_absolute_url()).content.decode()
    assert "=SUM(A1:A9)" in page
    assert "@cmd" in page
    assert "'=SUM" not in page
    assert list(sheet.seats.values_list("name", flat=True))[:2] == ["=SUM(A1:A9)", "@cmd"]


def test_csv_export_uses_the_requests_language(client, make_backup):
    sheet = backup.load(backup.dumps(make_backup(4)))
    response = client.get(reverse("export_csv", args=[sheet.token]), HTTP_ACCEPT_LANGUAGE="fr")
    header = streamed(response).decode("utf-8-sig").splitlines()[0]
    # Game terms stay French in every language.
    assert '"Bouts"' in header
    assert '"Petit au bout","Poignées","Chelem"' in header


# JSON backup


def test_json_export_is_the_backup(client, make_backup):
    data = make_backup(5)
    sheet = backup.load(backup.dumps(data))
    response = client.get(reverse("export_json", args=[sheet.token]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"].startswith(
        'attachment; filename="Club, table 2 2025-01-03.json"; filename*=UTF-8'
    )
    assert response.streaming
    body = response.getvalue()
    assert body.decode() == backup.dumps(data)
    assert json.loads(body) == data


@pytest.mark.parametrize("name", ["export_csv", "export_json"])
def test_unknown_token_is_404(client, sheet4, name):
    assert client.get(reverse(name, args=["not-a-token"])).status_code == 404


@pytest.mark.parametrize("name", ["export_csv", "export_json"])
def test_exports_are_get_only(client, sheet4, name):
    assert client.post(reverse(name, args=[sheet4.token])).status_code == 405


def test_export_links_on_the_sheet(client, sheet4):
    html = client.get(f"/s/{sheet4.token}/").content.decode()
    assert f'href="/s/{sheet4.token}/export.csv"' in html
    assert f'href="/s/{sheet4.token}/backup.json"' in html
    assert "Export CSV" in html
    assert "Download backup" in html


def test_export_links_on_the_read_only_sheet(client, sheet4):
    html = client.get(f"/v/{sheet4.view_token}/").content.decode()
    assert f'href="/v/{sheet4.view_token}/export.csv"' in html
    assert f'href="/v/{sheet4.view_token}/backup.json"' in html
    assert sheet4.token not in html


# Import


def test_import_creates_a_session_and_opens_it(client, make_backup):
    data = make_backup(3)
    response = client.post(reverse("import_backup"), {"backup": upload(data)})
    sheet = Sheet.objects.get()
    assert response.status_code == 302
    assert response["Location"] == sheet.get_absolute_url()
    assert client.session["sheets"] == [sheet.token]
    assert backup.dump(sheet) == data
    page = client.get(response["Location"])
    assert "Backup restored: “Soirée à trois”." in page.content.decode()


def test_import_puts_the_new_session_first_on_home(client, sheet4, make_backup):
    client.get(sheet4.get_absolute_url())
    client.post(reverse("import_backup"), {"backup": upload(make_backup())})
    restored = Sheet.objects.exclude(pk=sheet4.pk).get()
    assert client.session["sheets"] == [restored.token, sheet4.token]


def test_a_refused_backup_shows_home_with_the_message(client, sheet4, make_backup):
    client.get(sheet4.get_absolute_url())
    data = make_backup()
    data["hands"][2]["bouts"] = 7
    before = counts()
    response = client.post(reverse("import_backup"), {"backup": upload(data)})
    assert counts() == before
    assert response.status_code == 422
    assert response.templates[0].name == "scoresheet/home.html"
    form = response.context["import_form"]
    assert form.errors["backup"] == ["Hand 3: Bouts: the attack holds 0, 1, 2 or 3 bouts."]
    # The home page still lists this browser's sessions.
    assert [item["sheet"] for item in response.context["recent"]] == [sheet4]
    assert client.session["sheets"] == [sheet4.token]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Choose a backup file."),
        ({"backup": upload(b"")}, "This file is empty"),
        ({"backup": upload(b"Ana;Ben;Chlo\xe9")}, "it is not JSON"),
        ({"backup": upload(b'{"format": "other/1"}')}, "this app reads “tarot-scoresheet/1”"),
    ],
)
def test_bad_uploads_are_refused(client, sheet4, data, message):
    before = counts()
    response = client.post(reverse("import_backup"), data)
    assert counts() == before
    assert message in response.context["import_form"].errors["backup"][0]


def test_a_file_over_5_mb_is_refused(client, sheet4):
    response = client.post(
        reverse("import_backup"), {"backup": upload(b" " * (limits.SESSION_BACKUP_BYTES + 1))}
    )
    assert counts() == (1, 4, 0)
    assert response.context["import_form"].errors["backup"] == [
        "This file is larger than 5 MB, the most a backup can be."
    ]


def test_import_is_post_only(client):
    assert client.get(reverse("import_backup")).status_code == 405


def test_import_form_shows_the_error_next_to_the_field(rf):
    form = ImportForm(files={"backup": upload(b"nope")})
    assert not form.is_valid()
    html = render_to_string(
        "scoresheet/_import_form.html", {"import_form": form}, request=rf.get("/")
    )
    assert 'enctype="multipart/form-data"' in html
    assert 'action="/import/"' in html
    assert 'name="csrfmiddlewaretoken"' in html
    assert 'aria-invalid="true"' in html
    assert "This file is not a backup of a session: it is not JSON." in html


def test_import_form_without_a_form_in_the_context(rf):
    html = render_to_string("scoresheet/_import_form.html", {}, request=rf.get("/"))
    assert 'type="file" name="backup"' in html
    assert "Import a backup" in html
    assert "errorlist" not in html


def test_export_then_import_gives_the_same_sheet(client, make_backup):
    sheet = backup.load(backup.dumps(make_backup(5)))
    exported = client.get(reverse("export_json", args=[sheet.token])).getvalue()
    response = client.post(reverse("import_backup"), {"backup": upload(exported)})
    restored = Sheet.objects.get(token=client.session["sheets"][0])
    assert response["Location"] == restored.get_absolute_url()
    assert restored.token != sheet.token
    assert client.get(reverse("export_json", args=[restored.token])).getvalue() == exported
    original = client.get(reverse("export_csv", args=[sheet.token]))
    copy = client.get(reverse("export_csv", args=[restored.token]))
    assert streamed(original) == streamed(copy)
