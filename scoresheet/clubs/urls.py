"""The club's URLs (issue 16): /club/new/, /c/<token>/ to run a club, /cv/<token>/ to look."""

from django.urls import include, path

from scoresheet.clubs import views as club_views
from scoresheet.files import views as files

READ_ONLY = {"readonly": True}

urlpatterns = [
    path("club/new/", club_views.club_new, name="club_new"),
    path("club/import/", files.club_import, name="club_import"),
    # A large club backup restored outside its request (scoresheet/files/club_import.py).
    path("club/import/<str:job>/", files.club_import_progress, name="club_import_job"),
    path("c/<str:token>/", club_views.club, name="club"),
    path("c/<str:token>/standings.csv", files.standings_csv, name="standings_csv"),
    path("c/<str:token>/standings.xlsx", files.standings_xlsx, name="standings_xlsx"),
    path("c/<str:token>/club.json", files.backup_json, name="backup"),
    path("c/<str:token>/players/", club_views.club_players, name="club_players"),
    path("c/<str:token>/players/<int:pk>/", club_views.club_player, name="club_player"),
    path("c/<str:token>/new/", club_views.club_new_sheet, name="club_new_sheet"),
    path("c/<str:token>/settings/", club_views.club_settings, name="club_settings"),
    path("c/<str:token>/attach/", club_views.club_attach, name="club_attach"),
    path("c/<str:token>/sessions/<int:pk>/detach/", club_views.club_detach, name="club_detach"),
    # Read-only: shows the club and changes nothing.
    path("cv/<str:token>/", club_views.club, READ_ONLY, name="view_club"),
    # The club night (issue 24): its own package.
    path("", include("scoresheet.nights.urls")),
    path(
        "cv/<str:token>/standings.csv",
        files.standings_csv,
        READ_ONLY,
        name="view_standings_csv",
    ),
    path(
        "cv/<str:token>/standings.xlsx",
        files.standings_xlsx,
        READ_ONLY,
        name="view_standings_xlsx",
    ),
    path("cv/<str:token>/club.json", files.backup_json, READ_ONLY, name="view_backup"),
    path(
        "cv/<str:token>/players/<int:pk>/",
        club_views.club_player,
        READ_ONLY,
        name="view_club_player",
    ),
]
