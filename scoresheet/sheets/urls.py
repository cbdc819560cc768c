"""A session's URLs: /new/, /s/<token>/… to play it, /v/<view_token>/… to look; and what makes
the app installable and usable offline."""

from django.urls import path

from scoresheet.routes import SHEET
from scoresheet.sheets import after_views, hands, offline, views

urlpatterns = [
    # Installable and offline (scoresheet/sheets/offline.py): the worker's scope is the whole
    # site.
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("new/", views.new_sheet, name="new_sheet"),
    *SHEET.both("", views.sheet, "sheet"),
    SHEET.page("hands/new/", hands.hand_new, "hand_new"),
    SHEET.page("hands/preview/", hands.hand_preview, "hand_preview"),
    SHEET.page("hands/<hand:number>/edit/", hands.hand_edit, "hand_edit"),
    SHEET.page("hands/<hand:number>/delete/", hands.hand_delete, "hand_delete"),
    SHEET.page("undo/", hands.undo, "undo"),
    SHEET.page("rules/", views.rules, "rules"),
    SHEET.page("players/", views.players, "players"),
    *SHEET.both("stats/", views.statistics, "statistics"),
    *SHEET.both("chart/", views.running_totals, "chart"),
    *SHEET.both("live/", views.live, "live"),
    SHEET.page("share/", views.share, "share"),
    *SHEET.both("qr.svg", views.qr_code, "qr"),
    # After the game: the summary and the printed sheet.
    *SHEET.both("summary/", after_views.summary_page, "summary"),
    *SHEET.both("print/", after_views.print_sheet, "print_sheet"),
    # The picture a shared link shows: under the read-only link only.
    path(SHEET.read_only + "summary.png", after_views.summary_png, name="view_summary_png"),
]
