"""The 404, 400, 403 and 500 pages (templates/404.html…): the app's layout, a way home,
translated; the 500 page renders with no request context, as Django's handler renders it."""

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import translation
from django.views import defaults

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_after():
    """Requests in French leave French active in this thread: the next module gets English back."""
    with translation.override("en"):
        yield


def page(response) -> str:
    return response.content.decode()


def test_a_missing_sheet_is_a_styled_404_with_a_way_home(client, settings):
    settings.DEBUG = False
    response = client.get("/s/no-such-session/")
    assert response.status_code == 404
    assert "404.html" in [t.name for t in response.templates]
    html = page(response)
    assert "<h1>Page not found</h1>" in html
    assert f'href="{reverse("home")}"' in html
    assert "Back to the home page" in html
    # The app's layout: its header and its inlined stylesheet.
    assert 'class="bar"' in html
    assert ".totals" in html


@pytest.mark.parametrize(
    ("language", "title", "home"),
    [
        ("fr", "Page introuvable", "Retour à l’accueil"),
        ("es", "Página no encontrada", "Volver al inicio"),
    ],
)
def test_the_404_page_is_translated(client, settings, language, title, home):
    settings.DEBUG = False
    response = client.get("/s/no-such-session/", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 404
    assert title in page(response)
    assert home in page(response)


def test_a_disallowed_host_is_a_styled_400(settings):
    settings.DEBUG = False
    response = Client().get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    html = page(response)
    assert "<h1>Bad request</h1>" in html
    assert f'href="{reverse("home")}"' in html


def test_the_403_page(client, settings):
    settings.DEBUG = False
    # No view of the app refuses with a 403 yet: Django's handler, as a refusal would call it.
    request = RequestFactory().get("/")
    response = defaults.permission_denied(request, PermissionDenied())
    assert response.status_code == 403
    html = page(response)
    assert "<h1>Not allowed</h1>" in html
    assert f'href="{reverse("home")}"' in html


def test_the_500_page_needs_no_request_context(settings):
    settings.DEBUG = False
    request = RequestFactory().get("/")
    with translation.override("fr"):
        response = defaults.server_error(request)
    assert response.status_code == 500
    html = page(response)
    assert "Une erreur est survenue" in html
    assert f'href="{reverse("home")}"' in html
    assert 'rel="stylesheet"' in html


def test_an_error_in_a_view_answers_the_styled_500(settings, monkeypatch):
    settings.DEBUG = False

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("scoresheet.lists.views.render", broken)
    response = Client(raise_request_exception=False).get(reverse("home"))
    assert response.status_code == 500
    assert "Something went wrong" in page(response)
