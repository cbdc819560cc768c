"""The files' URLs: each download under both links of what it holds, and the club backup's
import (a session's is the home page's, ``lists/views.py``)."""

from django.urls import path

from scoresheet.files import views
from scoresheet.routes import CLUB, NIGHT, SHEET

urlpatterns = [
    *SHEET.both("export.csv", views.export_csv, "export_csv"),
    *SHEET.both("backup.json", views.export_json, "export_json"),
    *SHEET.both("export.xlsx", views.export_xlsx, "export_xlsx"),
    path("club/import/", views.club_import, name="club_import"),
    # A large club backup restored outside its request (scoresheet/files/import_jobs.py).
    path("club/import/<str:job>/", views.club_import_progress, name="club_import_job"),
    *CLUB.both("standings.csv", views.standings_csv, "standings_csv"),
    *CLUB.both("standings.xlsx", views.standings_xlsx, "standings_xlsx"),
    *CLUB.both("club.json", views.backup_json, "backup"),
    *NIGHT.both("ranking.csv", views.night_csv, "night_csv"),
    *NIGHT.both("ranking.xlsx", views.night_xlsx, "night_xlsx"),
    *NIGHT.both("night.json", views.night_json, "night_json"),
]
