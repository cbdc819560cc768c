"""scoresheet/files/import_jobs.py: a large club backup restored outside the request that
uploads it, and its page (writing, done, refused, interrupted); a small one as before. The
threshold is lowered here so that a small file takes the large ones' path."""

import time

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoresheet.files import club_backup, import_jobs, json_backup
from scoresheet.models import Club
from tests.test_clubs import club  # noqa: F401  (the fixture)


def upload(club):  # noqa: F811
    data = club_backup.dumps(club_backup.dump(club)).encode()
    return SimpleUploadedFile("club.json", data, content_type="application/json")


@pytest.fixture
def large(monkeypatch):
    """Every club backup takes the large ones' path."""
    monkeypatch.setattr(import_jobs, "BACKGROUND_BYTES", 0)


class InlineThread:
    """A thread that runs its work when started: the test's own database connection sees it."""

    def __init__(self, target, args):
        self.target, self.args = target, args

    def start(self):
        import_jobs.run(*self.args)


@pytest.fixture
def inline(monkeypatch, large):
    monkeypatch.setattr(import_jobs, "Thread", InlineThread)


@pytest.mark.django_db
def test_a_large_backup_answers_at_once_with_its_page_then_opens_the_club(
    client,
    club,  # noqa: F811
    inline,
):
    before = Club.objects.count()
    response = client.post(reverse("club_import"), {"backup": upload(club)})
    assert response.status_code == 302
    page = response["Location"]
    assert page.startswith("/club/import/")
    assert Club.objects.count() == before + 1
    restored = Club.objects.exclude(pk=club.pk).get()
    # The page sends the browser to the new club, with the message, and the club is on its list.
    done = client.get(page)
    assert done.status_code == 302
    assert done["Location"] == restored.get_absolute_url()
    club_page = client.get(done["Location"]).content.decode()
    assert "Club backup restored: “" in club_page
    assert restored.token in client.get(reverse("home")).content.decode()


@pytest.mark.django_db
def test_an_htmx_upload_is_sent_to_the_page_as_a_whole_page(client, club, inline):  # noqa: F811
    response = client.post(
        reverse("club_import"), {"backup": upload(club)}, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response["HX-Redirect"].startswith("/club/import/")


@pytest.mark.django_db
def test_a_small_backup_is_restored_in_its_request(client, club):  # noqa: F811
    response = client.post(reverse("club_import"), {"backup": upload(club)})
    restored = Club.objects.exclude(pk=club.pk).get()
    assert response["Location"] == restored.get_absolute_url()


@pytest.mark.django_db
def test_while_it_writes_the_page_asks_again_every_second(client, large, monkeypatch):
    job = "0" * 32
    import_jobs.jobs().set(
        job, {"state": "writing", "started": time.time() - 4, "name": "Le Petit"}, 60
    )
    page = client.get(reverse("club_import_job", args=[job]))
    html = page.content.decode()
    assert page.status_code == 200
    assert '<meta http-equiv="refresh" content="1">' in html
    assert "“Le Petit” is being written" in html
    assert "4 seconds so far." in html
    french = client.get(reverse("club_import_job", args=[job]), HTTP_ACCEPT_LANGUAGE="fr")
    assert "secondes" in french.content.decode()


@pytest.mark.django_db
def test_a_job_whose_worker_stopped_says_so(client):
    job = "1" * 32
    started = time.time() - import_jobs.STALE - 1
    import_jobs.jobs().set(job, {"state": "writing", "started": started, "name": "Le Petit"}, 60)
    html = client.get(reverse("club_import_job", args=[job])).content.decode()
    assert "The import stopped before the end" in html
    assert "http-equiv" not in html


@pytest.mark.django_db
def test_a_refusal_while_writing_is_shown_and_nothing_is_stored(
    client,
    club,  # noqa: F811
    inline,
    monkeypatch,
):
    def refuse(checked):
        raise json_backup.BackupError("Session 3: this session is refused.")

    monkeypatch.setattr(club_backup, "restore", refuse)
    response = client.post(reverse("club_import"), {"backup": upload(club)})
    html = client.get(response["Location"]).content.decode()
    assert "Session 3: this session is refused." in html
    assert Club.objects.count() == 1


@pytest.mark.django_db
def test_an_unknown_job_is_404(client):
    assert client.get(reverse("club_import_job", args=["no-such-job"])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_in_a_thread_of_its_own_the_club_is_there_once_done(client, club, large):  # noqa: F811
    response = client.post(reverse("club_import"), {"backup": upload(club)})
    page = response["Location"]
    deadline = time.monotonic() + 30
    while (answer := client.get(page)).status_code == 200:
        assert time.monotonic() < deadline, answer.content.decode()
        time.sleep(0.1)
    restored = Club.objects.exclude(pk=club.pk).get()
    assert answer["Location"] == restored.get_absolute_url()
    assert restored.club_sheets.count() == club.club_sheets.count()
