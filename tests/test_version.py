"""scoresheet/version.py: the release pyproject.toml names, in every page's footer (in each
language) and in /healthz's answer."""

import tomllib
from pathlib import Path

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def test_the_version_is_a_release_number():
    major, minor, patch = VERSION.split(".")
    assert all(part.isdigit() for part in (major, minor, patch))
    assert (int(major), int(minor)) > (0, 1), "bumped from the unversioned 0.1.0"


@pytest.mark.parametrize(
    ("language", "label"), [("en", "Version"), ("fr", "Version"), ("es", "Versión")]
)
def test_the_footer_shows_the_version(client, sheet4, language, label):
    for page in (reverse("home"), sheet4.get_absolute_url(), reverse("club_new")):
        html = client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert f'<p class="fine version">{label} {VERSION}</p>' in html, page


def test_healthz_names_the_version(client):
    assert client.get("/healthz").content.decode().splitlines() == ["ok", VERSION]


def test_the_changelog_has_this_version():
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert f"## [{VERSION}]" in changelog
