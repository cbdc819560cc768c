"""This phone's theme (scoresheet/theme.py): Auto, Light or Dark, kept in a cookie and
written on <html> by the server, so that the page paints in it at once, without JavaScript."""

import re

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def html_tag(response) -> str:
    return re.search(r"<html[^>]*>", response.content.decode()).group(0)


def test_auto_by_default_the_css_follows_the_phone(client):
    response = client.get(reverse("home"))
    assert "data-theme" not in html_tag(response)
    page = response.content.decode()
    assert '<option value="auto" selected>Auto</option>' in page
    assert "color-scheme: light dark" in page  # the inlined stylesheet


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_chosen_theme_is_kept_and_written_on_every_page(client, sheet4, theme):
    response = client.post(reverse("set_theme"), {"theme": theme, "next": "/new/"})
    assert response.status_code == 302
    assert response["Location"] == "/new/"
    cookie = response.cookies["theme"]
    assert cookie.value == theme
    assert cookie["max-age"] == 365 * 24 * 3600
    assert cookie["samesite"] == "Lax"
    for url in (reverse("home"), sheet4.get_absolute_url(), "/no-such-page/"):
        assert f'data-theme="{theme}"' in html_tag(client.get(url)), url
    assert f'<option value="{theme}" selected>' in client.get(reverse("home")).content.decode()


def test_auto_again_forgets_the_choice(client):
    client.post(reverse("set_theme"), {"theme": "dark", "next": "/"})
    response = client.post(reverse("set_theme"), {"theme": "auto", "next": "/"})
    assert response.cookies["theme"].value == ""  # deleted
    assert "data-theme" not in html_tag(client.get(reverse("home")))


@pytest.mark.parametrize("value", ["purple", "", "dark; path=/x", "<b>"])
def test_anything_else_is_auto(client, value):
    response = client.post(reverse("set_theme"), {"theme": value, "next": "/"})
    assert response.status_code == 302
    assert response.cookies["theme"].value == ""
    client.cookies["theme"] = value
    assert "data-theme" not in html_tag(client.get(reverse("home")))


@pytest.mark.parametrize("following", ["https://evil.example/", "//evil.example/", ""])
def test_it_goes_back_only_to_this_site(client, following):
    response = client.post(reverse("set_theme"), {"theme": "dark", "next": following})
    assert response["Location"] == "/"


def test_only_a_post_changes_it(client):
    assert client.get(reverse("set_theme"), {"theme": "dark"}).status_code == 405
