"""The app's links (scoresheet/routes.py and each part's urls.py): every URL name and path as
they were before each page was declared once under both links (the app's URL contract: a link
a person keeps must keep working), the read-only twins passing ``readonly=True`` to the same
view, and the numbers a link holds."""

import pytest
from django.urls import URLResolver, get_resolver, resolve, reverse
from django.urls.exceptions import NoReverseMatch, Resolver404

# (name, path) of every URL, as the app answered them before the routes were declared once.
URLS = [
    ("backup", "c/<str:token>/club.json"),
    ("chart", "s/<str:token>/chart/"),
    ("club", "c/<str:token>/"),
    ("club_attach", "c/<str:token>/attach/"),
    ("club_detach", "c/<str:token>/sessions/<id:pk>/detach/"),
    ("club_import", "club/import/"),
    ("club_import_job", "club/import/<str:job>/"),
    ("club_new", "club/new/"),
    ("club_new_sheet", "c/<str:token>/new/"),
    ("club_player", "c/<str:token>/players/<id:pk>/"),
    ("club_players", "c/<str:token>/players/"),
    ("club_settings", "c/<str:token>/settings/"),
    ("export_csv", "s/<str:token>/export.csv"),
    ("export_json", "s/<str:token>/backup.json"),
    ("export_xlsx", "s/<str:token>/export.xlsx"),
    ("forget", "list/remove/"),
    ("hand_delete", "s/<str:token>/hands/<hand:number>/delete/"),
    ("hand_edit", "s/<str:token>/hands/<hand:number>/edit/"),
    ("hand_new", "s/<str:token>/hands/new/"),
    ("hand_preview", "s/<str:token>/hands/preview/"),
    ("healthz", "healthz"),
    ("home", ""),
    ("import_backup", "import/"),
    ("live", "s/<str:token>/live/"),
    ("manifest", "manifest.webmanifest"),
    ("new_sheet", "new/"),
    ("night", "c/<str:token>/nights/<night:number>/"),
    ("night_csv", "c/<str:token>/nights/<night:number>/ranking.csv"),
    ("night_draw", "c/<str:token>/nights/<night:number>/draw/"),
    ("night_json", "c/<str:token>/nights/<night:number>/night.json"),
    ("night_live", "c/<str:token>/nights/<night:number>/live/"),
    ("night_new", "c/<str:token>/nights/new/"),
    ("night_players", "c/<str:token>/nights/<night:number>/players/"),
    ("night_print", "c/<str:token>/nights/<night:number>/print/"),
    ("night_screen", "c/<str:token>/nights/<night:number>/screen/"),
    ("night_summary", "c/<str:token>/nights/<night:number>/summary/"),
    ("night_xlsx", "c/<str:token>/nights/<night:number>/ranking.xlsx"),
    ("players", "s/<str:token>/players/"),
    ("print_sheet", "s/<str:token>/print/"),
    ("put_back", "list/put-back/"),
    ("qr", "s/<str:token>/qr.svg"),
    ("rules", "s/<str:token>/rules/"),
    ("service_worker", "sw.js"),
    ("set_language", "i18n/setlang/"),
    ("set_running_totals", "running-totals/"),
    ("set_theme", "theme/"),
    ("share", "s/<str:token>/share/"),
    ("sheet", "s/<str:token>/"),
    ("standings_csv", "c/<str:token>/standings.csv"),
    ("standings_xlsx", "c/<str:token>/standings.xlsx"),
    ("statistics", "s/<str:token>/stats/"),
    ("summary", "s/<str:token>/summary/"),
    ("tv", "tv/<screen:code>"),
    ("tv_slash", "tv/<screen:code>/"),
    ("undo", "s/<str:token>/undo/"),
    ("view_backup", "cv/<str:token>/club.json"),
    ("view_chart", "v/<str:token>/chart/"),
    ("view_club", "cv/<str:token>/"),
    ("view_club_player", "cv/<str:token>/players/<id:pk>/"),
    ("view_export_csv", "v/<str:token>/export.csv"),
    ("view_export_json", "v/<str:token>/backup.json"),
    ("view_export_xlsx", "v/<str:token>/export.xlsx"),
    ("view_live", "v/<str:token>/live/"),
    ("view_night", "cv/<str:token>/nights/<night:number>/"),
    ("view_night_csv", "cv/<str:token>/nights/<night:number>/ranking.csv"),
    ("view_night_json", "cv/<str:token>/nights/<night:number>/night.json"),
    ("view_night_live", "cv/<str:token>/nights/<night:number>/live/"),
    ("view_night_print", "cv/<str:token>/nights/<night:number>/print/"),
    ("view_night_qr", "cv/<str:token>/nights/<night:number>/qr.svg"),
    ("view_night_screen", "cv/<str:token>/nights/<night:number>/screen/"),
    ("view_night_summary", "cv/<str:token>/nights/<night:number>/summary/"),
    ("view_night_summary_png", "cv/<str:token>/nights/<night:number>/summary.png"),
    ("view_night_xlsx", "cv/<str:token>/nights/<night:number>/ranking.xlsx"),
    ("view_print_sheet", "v/<str:token>/print/"),
    ("view_qr", "v/<str:token>/qr.svg"),
    ("view_sheet", "v/<str:token>/"),
    ("view_standings_csv", "cv/<str:token>/standings.csv"),
    ("view_standings_xlsx", "cv/<str:token>/standings.xlsx"),
    ("view_statistics", "v/<str:token>/stats/"),
    ("view_summary", "v/<str:token>/summary/"),
    ("view_summary_png", "v/<str:token>/summary.png"),
]


def listed(patterns, prefix=""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from listed(pattern.url_patterns, prefix + str(pattern.pattern))
        else:
            yield pattern.name, prefix + str(pattern.pattern), pattern


def test_every_url_name_and_path_is_kept():
    assert sorted((name, path) for name, path, _ in listed(get_resolver().url_patterns)) == URLS


def test_a_read_only_twin_is_the_same_view_with_readonly():
    patterns = {name: pattern for name, _path, pattern in listed(get_resolver().url_patterns)}
    twins = [name for name in patterns if name.startswith("view_") and name[5:] in patterns]
    assert len(twins) == 10 + 5 + 8  # a session's pages, a club's, a night's
    for name in twins:
        full, read_only = patterns[name[5:]], patterns[name]
        assert read_only.callback is full.callback, name
        assert read_only.default_args == {"readonly": True}, name
        assert full.default_args == {}, name
    # The summary's picture exists under the read-only link alone, and reads its token itself.
    assert patterns["view_summary_png"].default_args == {}


def test_the_read_only_link_reaches_no_change():
    for name in ("hand_new", "undo", "rules", "players", "share", "club_settings", "night_draw"):
        with pytest.raises(NoReverseMatch):
            reverse("view_" + name, args=["t"] if "night" not in name else ["t", 1])


@pytest.mark.parametrize(
    ("path", "number"),
    [("/s/t/hands/1/edit/", 1), ("/s/t/hands/999999999/edit/", 999_999_999)],
)
def test_a_hand_number_is_nine_digits_at_most(path, number):
    assert resolve(path).kwargs == {"token": "t", "number": number}
    with pytest.raises(Resolver404):
        resolve("/s/t/hands/1000000000/edit/")


def test_a_night_number_is_six_digits_at_most():
    assert resolve("/cv/t/nights/999999/").kwargs == {
        "token": "t",
        "number": 999_999,
        "readonly": True,
    }
    with pytest.raises(Resolver404):
        resolve("/c/t/nights/1000000/")
