from django.contrib import admin
from django.urls import include, path

from scoresheet import views

urlpatterns = [
    path("", views.home, name="home"),
    path("new/", views.new_sheet, name="new_sheet"),
    path("s/<str:token>/", views.sheet, name="sheet"),
    path("s/<str:token>/hands/new/", views.hand_new, name="hand_new"),
    path("s/<str:token>/hands/preview/", views.hand_preview, name="hand_preview"),
    path("s/<str:token>/hands/<int:number>/edit/", views.hand_edit, name="hand_edit"),
    path("s/<str:token>/hands/<int:number>/delete/", views.hand_delete, name="hand_delete"),
    path("s/<str:token>/undo/", views.undo, name="undo"),
    path("s/<str:token>/export.csv", views.export_csv, name="export_csv"),
    path("s/<str:token>/backup.json", views.export_json, name="export_json"),
    path("import/", views.import_backup, name="import_backup"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
