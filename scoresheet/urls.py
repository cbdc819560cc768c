from django.contrib import admin
from django.urls import include, path, register_converter

from scoresheet import health, theme
from scoresheet.files import views as files
from scoresheet.lists import views as lists
from scoresheet.sheets import after_views, hands, offline, views

READ_ONLY = {"readonly": True}


class HandNumber:
    """A hand's number, from 1: at most nine digits, so an absurd number is a 404 before any
    query (a database cannot skip 10**20 rows)."""

    regex = "[0-9]{1,9}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(HandNumber, "hand")

urlpatterns = [
    path("", lists.home, name="home"),
    # For the proxy's health checks and monitoring (scoresheet/health.py).
    path("healthz", health.healthz, name="healthz"),
    # Installable and offline (scoresheet/sheets/offline.py): the worker's scope is the whole
    # site.
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("new/", views.new_sheet, name="new_sheet"),
    path("import/", files.import_backup, name="import_backup"),
    # This browser's list of sessions and clubs (its session cookie): off the list, and back.
    path("list/remove/", lists.forget, name="forget"),
    path("list/put-back/", lists.put_back, name="put_back"),
    # Full access: the session's secret link lets its holder enter and fix hands.
    path("s/<str:token>/", views.sheet, name="sheet"),
    path("s/<str:token>/hands/new/", hands.hand_new, name="hand_new"),
    path("s/<str:token>/hands/preview/", hands.hand_preview, name="hand_preview"),
    path("s/<str:token>/hands/<hand:number>/edit/", hands.hand_edit, name="hand_edit"),
    path("s/<str:token>/hands/<hand:number>/delete/", hands.hand_delete, name="hand_delete"),
    path("s/<str:token>/undo/", hands.undo, name="undo"),
    path("s/<str:token>/rules/", views.rules, name="rules"),
    path("s/<str:token>/players/", views.players, name="players"),
    path("s/<str:token>/export.csv", files.export_csv, name="export_csv"),
    path("s/<str:token>/backup.json", files.export_json, name="export_json"),
    path("s/<str:token>/stats/", views.statistics, name="statistics"),
    path("s/<str:token>/chart/", views.running_totals, name="chart"),
    path("s/<str:token>/live/", views.live, name="live"),
    path("s/<str:token>/share/", views.share, name="share"),
    path("s/<str:token>/qr.svg", views.qr_code, name="qr"),
    # After the game (issue 23): the summary, the printed sheet, the spreadsheet.
    path("s/<str:token>/summary/", after_views.summary_page, name="summary"),
    path("s/<str:token>/print/", after_views.print_sheet, name="print_sheet"),
    path("s/<str:token>/export.xlsx", files.export_xlsx, name="export_xlsx"),
    # Read-only: a second, independent secret that shows the sheet and changes nothing.
    path("v/<str:token>/", views.sheet, READ_ONLY, name="view_sheet"),
    path("v/<str:token>/export.csv", files.export_csv, READ_ONLY, name="view_export_csv"),
    path("v/<str:token>/backup.json", files.export_json, READ_ONLY, name="view_export_json"),
    path("v/<str:token>/stats/", views.statistics, READ_ONLY, name="view_statistics"),
    path("v/<str:token>/chart/", views.running_totals, READ_ONLY, name="view_chart"),
    path("v/<str:token>/live/", views.live, READ_ONLY, name="view_live"),
    path("v/<str:token>/qr.svg", views.qr_code, READ_ONLY, name="view_qr"),
    path("v/<str:token>/summary/", after_views.summary_page, READ_ONLY, name="view_summary"),
    # The picture a shared link shows: under the read-only link only.
    path("v/<str:token>/summary.png", after_views.summary_png, name="view_summary_png"),
    path("v/<str:token>/print/", after_views.print_sheet, READ_ONLY, name="view_print_sheet"),
    path("v/<str:token>/export.xlsx", files.export_xlsx, READ_ONLY, name="view_export_xlsx"),
    # The club (issue 16): its own module of URLs.
    path("", include("scoresheet.clubs.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("theme/", theme.set_theme, name="set_theme"),
    path("running-totals/", theme.set_running_totals, name="set_running_totals"),
    path("admin/", admin.site.urls),
]
