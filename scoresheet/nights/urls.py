"""The club night's URLs, under the club's two links: /c/<token>/nights/… to run a night,
/cv/<view_token>/nights/… to look (its files' are ``files/urls.py``)."""

from django.urls import path

from scoresheet.nights import after_views, views
from scoresheet.routes import CLUB, NIGHT

urlpatterns = [
    CLUB.page("nights/new/", views.night_new, "night_new"),
    *NIGHT.both("", views.night, "night"),
    NIGHT.page("draw/", views.night_draw, "night_draw"),
    NIGHT.page("players/", views.night_players, "night_players"),
    *NIGHT.both("screen/", views.night_screen, "night_screen"),
    *NIGHT.both("live/", views.night_live, "night_live"),
    # After the game: the summary and the ranking on paper.
    *NIGHT.both("summary/", after_views.night_summary, "night_summary"),
    *NIGHT.both("print/", after_views.night_print, "night_print"),
    # The picture a shared link shows: under the read-only link only.
    path(
        NIGHT.read_only + "summary.png",
        after_views.night_summary_png,
        name="view_night_summary_png",
    ),
    path(NIGHT.read_only + "qr.svg", views.night_qr, name="view_night_qr"),
    # The screen's short read-only address, typed on a TV's remote: at most 12 characters
    # after the host.
    path("tv/<screen:code>", views.tv_screen, name="tv"),
    path("tv/<screen:code>/", views.tv_screen, name="tv_slash"),
]
