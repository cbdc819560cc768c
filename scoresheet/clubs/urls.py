"""The club's URLs: /club/new/, /c/<token>/ to run a club, /cv/<token>/ to look (its files'
are ``files/urls.py``, its nights' ``nights/urls.py``)."""

from django.urls import path

from scoresheet.clubs import views
from scoresheet.routes import CLUB

urlpatterns = [
    path("club/new/", views.club_new, name="club_new"),
    *CLUB.both("", views.club, "club"),
    CLUB.page("players/", views.club_players, "club_players"),
    *CLUB.both("players/<id:pk>/", views.club_player, "club_player"),
    CLUB.page("new/", views.club_new_sheet, "club_new_sheet"),
    CLUB.page("settings/", views.club_settings, "club_settings"),
    CLUB.page("attach/", views.club_attach, "club_attach"),
    CLUB.page("sessions/<id:pk>/detach/", views.club_detach, "club_detach"),
]
