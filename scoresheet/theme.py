"""This phone's display choices, kept in cookies. The theme: Auto follows the phone's dark mode,
Light or Dark overrides it. The running totals: each player's total under every row, as on paper.

Kept in a cookie, like the language, so that the server writes it on <html> (no flash of the
other theme, and it works without JavaScript); base.html's first script re-reads the cookie for
a page the service worker kept from before the choice."""

from django.http import HttpRequest, HttpResponseRedirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import pgettext_lazy
from django.views.decorators.http import require_POST, require_safe

COOKIE = "theme"
AUTO = "auto"
CHOICES = {
    AUTO: pgettext_lazy("theme", "Auto"),
    "light": pgettext_lazy("theme", "Light"),
    "dark": pgettext_lazy("theme", "Dark"),
}
# A year, as Django's language cookie is kept for the session's browser.
MAX_AGE = 365 * 24 * 3600


def chosen(request: HttpRequest) -> str:
    """The theme this phone chose, or "auto" (a cookie may hold anything)."""
    value = request.COOKIES.get(COOKIE, AUTO)
    return value if value in CHOICES else AUTO


RUNNING = "running"


def running_totals(request: HttpRequest) -> bool:
    """Whether this phone shows each player's running total under every row."""
    return request.COOKIES.get(RUNNING) == "1"


def context(request: HttpRequest) -> dict:
    """Template context processor: the theme for <html data-theme> and the footer's choice,
    the running totals for <html data-running>."""
    return {
        "theme": chosen(request),
        "theme_choices": CHOICES,
        "running_totals": running_totals(request),
    }


def back_to(request: HttpRequest, following: str) -> str:
    """``following`` when it is a page of this site, else the home page."""
    if url_has_allowed_host_and_scheme(
        following, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return following
    return "/"


@require_safe
def set_running_totals(request: HttpRequest) -> HttpResponseRedirect:
    """The sheet's "Running totals" switch without JavaScript (a link): remember it on this
    phone and go back to the sheet. A display choice only, like the language: a GET may set it."""
    response = HttpResponseRedirect(back_to(request, request.GET.get("next", "/")))
    if request.GET.get("show") == "1":
        response.set_cookie(
            RUNNING, "1", max_age=MAX_AGE, samesite="Lax", secure=request.is_secure()
        )
    else:
        response.delete_cookie(RUNNING, samesite="Lax")
    return response


@require_POST
def set_theme(request: HttpRequest) -> HttpResponseRedirect:
    """Remember the chosen theme on this phone and go back to the page it was chosen on."""
    response = HttpResponseRedirect(back_to(request, request.POST.get("next", "/")))
    value = request.POST.get("theme", AUTO)
    if value in CHOICES and value != AUTO:
        response.set_cookie(
            COOKIE, value, max_age=MAX_AGE, samesite="Lax", secure=request.is_secure()
        )
    else:
        response.delete_cookie(COOKIE, samesite="Lax")
    return response
