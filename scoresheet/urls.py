"""The app's URLs: the home page and this browser's lists, then each part's own (a session's,
a club's, a night's, the files'), and what is around them."""

from django.urls import include, path

from scoresheet import health, theme
from scoresheet.lists import views

urlpatterns = [
    path("", views.home, name="home"),
    # For the proxy's health checks and monitoring (scoresheet/health.py).
    path("healthz", health.healthz, name="healthz"),
    path("import/", views.import_backup, name="import_backup"),
    # This browser's list of sessions and clubs (its session cookie): off the list, and back.
    path("list/remove/", views.forget, name="forget"),
    path("list/put-back/", views.put_back, name="put_back"),
    path("", include("scoresheet.sheets.urls")),
    path("", include("scoresheet.clubs.urls")),
    path("", include("scoresheet.nights.urls")),
    path("", include("scoresheet.files.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("theme/", theme.set_theme, name="set_theme"),
    path("running-totals/", theme.set_running_totals, name="set_running_totals"),
]
