"""The club night's URLs (issue 24), under the club's two links: /c/<token>/nights/… to run a
night, /cv/<view_token>/nights/… to look."""

from django.urls import path, register_converter

from scoresheet.nights import views

READ_ONLY = {"readonly": True}


class NightNumber:
    """A night's number in its club: at most six digits, so an absurd one is a 404 before any
    query."""

    regex = "[0-9]{1,6}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(NightNumber, "night")

FULL = "c/<str:token>/nights/<night:number>/"
VIEW = "cv/<str:token>/nights/<night:number>/"

urlpatterns = [
    path("c/<str:token>/nights/new/", views.night_new, name="night_new"),
    path(FULL, views.night, name="night"),
    path(FULL + "draw/", views.night_draw, name="night_draw"),
    path(FULL + "players/", views.night_players, name="night_players"),
    path(FULL + "screen/", views.night_screen, name="night_screen"),
    path(FULL + "live/", views.night_live, name="night_live"),
    path(FULL + "ranking.csv", views.night_csv, name="night_csv"),
    path(FULL + "night.json", views.night_json, name="night_json"),
    # Read-only: shows the night and changes nothing.
    path(VIEW, views.night, READ_ONLY, name="view_night"),
    path(VIEW + "screen/", views.night_screen, READ_ONLY, name="view_night_screen"),
    path(VIEW + "live/", views.night_live, READ_ONLY, name="view_night_live"),
    path(VIEW + "ranking.csv", views.night_csv, READ_ONLY, name="view_night_csv"),
    path(VIEW + "night.json", views.night_json, READ_ONLY, name="view_night_json"),
]
