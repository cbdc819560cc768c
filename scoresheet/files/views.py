"""The files' views: a session's CSV, backup and spreadsheet, a club's standings (CSV and
spreadsheet) and backup, a club night's ranking (CSV) and file, and restoring a club's backup
(a session's is restored from the home page, ``lists/views.py``)."""

import time
from http import HTTPStatus

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scoresheet import filenames, recent
from scoresheet.clubs import standings
from scoresheet.clubs.forms import NewClubForm
from scoresheet.clubs.views import chosen_period, get_club
from scoresheet.filenames import attachment
from scoresheet.files import (
    club_backup,
    club_csv,
    import_jobs,
    night_files,
    session_backup,
    session_csv,
    xlsx,
)
from scoresheet.files.forms import ClubImportForm
from scoresheet.nights import ranking
from scoresheet.nights.views import get_night
from scoresheet.sheets.views import get_sheet, seat_names

# A refused backup: the page again, with why, as the hand form answers a refused hand.
REFUSED = HTTPStatus.UNPROCESSABLE_ENTITY


@require_safe
def export_csv(request, token, readonly=False):
    """The sheet as CSV for a spreadsheet, streamed row by row."""
    sheet = get_sheet(token, readonly)
    language = translation.get_language()

    def lines():
        # The body is produced after the view returns: keep the request's language for it.
        with translation.override(language):
            yield from session_csv.csv_lines(sheet)

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = attachment(filenames.filename(sheet, "csv"))
    return response


@require_safe
def export_json(request, token, readonly=False):
    """The sheet's backup: a JSON file that restores it exactly, streamed a hand a line."""
    sheet = get_sheet(token, readonly)
    response = StreamingHttpResponse(
        session_backup.dump_lines(sheet), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = attachment(filenames.filename(sheet, "json"))
    return response


@require_POST
def club_import(request):
    """Restore a club's backup as a new club (a large one outside this request: its page says
    how it goes), or show the new club page with why it was refused (the whole file, nothing
    written)."""
    import_form = ClubImportForm(request.POST, request.FILES)
    if import_form.is_valid():
        checked = import_form.cleaned_data["backup"]
        if request.FILES["backup"].size > import_jobs.BACKGROUND_BYTES:
            return to(request, reverse("club_import_job", args=[import_jobs.start(checked)]))
        return restored(request, club_backup.restore(checked))
    context = {"form": NewClubForm(), "import_form": import_form}
    return render(request, "scoresheet/club_new.html", context, status=REFUSED)


def to(request, url: str):
    """A redirect; to an htmx request (the import forms, for their upload's progress), one the
    browser follows as a page."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def restored(request, club):
    """The new club in this browser's list, and the browser sent to it."""
    recent.remember(request, recent.CLUBS, club)
    messages.success(
        request,
        _("Club backup restored: “%(name)s”. Its link is its key: keep it.") % {"name": club.name},
    )
    return to(request, club.get_absolute_url())


@require_safe
def club_import_progress(request, job):
    """A large club import's page, asked again every second until it is done (then the club)."""
    found = import_jobs.state(job)
    if found is None:
        raise Http404
    if found["state"] == import_jobs.DONE:
        return restored(request, get_club(found["club"], False))
    seconds = int(time.time() - found["started"])
    context = {"job": found, "seconds": seconds}
    return render(request, "scoresheet/club_import.html", context)


@require_safe
def standings_csv(request, token, readonly=False):
    """The standings of the period as CSV, with the session CSV's conventions."""
    club = get_club(token, readonly)
    period, _error = chosen_period(request)
    result = standings.standings(club, period, request.GET.get("sort", "points"))
    language = translation.get_language()

    def lines():
        with translation.override(language):
            yield from club_csv.csv_lines(result)

    response = StreamingHttpResponse(lines(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = attachment(filenames.filename(club, "csv", _("Standings")))
    return response


@require_safe
def backup_json(request, token, readonly=False):
    """The club's backup: its roster, rules and sessions, as one JSON file."""
    club = get_club(token, readonly)
    response = HttpResponse(
        club_backup.dumps(club_backup.dump(club)), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = attachment(filenames.filename(club, "json"))
    return response


@require_safe
def export_xlsx(request, token, readonly=False):
    """The sheet as a spreadsheet file: the CSV's cells, numbers as numbers, names as text."""
    sheet = get_sheet(token, readonly)
    names = seat_names(sheet)
    workbook = xlsx.session_file(sheet, session_csv.csv_rows(sheet), names)
    response = FileResponse(workbook, content_type=xlsx.CONTENT_TYPE)
    response["Content-Disposition"] = attachment(filenames.filename(sheet, "xlsx"))
    return response


@require_safe
def standings_xlsx(request, token, readonly=False):
    """The club's standings of the period as a spreadsheet file."""
    club = get_club(token, readonly)
    period, _error = chosen_period(request)
    result = standings.standings(club, period, request.GET.get("sort", "points"))
    names = [row.player.name for row in result.rows]
    workbook = xlsx.standings_file(club, club_csv.csv_rows(result), names)
    response = FileResponse(workbook, content_type=xlsx.CONTENT_TYPE)
    response["Content-Disposition"] = attachment(filenames.filename(club, "xlsx", _("Standings")))
    return response


@require_safe
def night_csv(request, token, number, readonly=False):
    """The ranking as CSV: Place, Player, Round 1…k, Total."""
    night = get_night(token, number, readonly)
    view = ranking.read(night)
    response = HttpResponse(
        "".join(night_files.csv_lines(view)), content_type="text/csv; charset=utf-8"
    )
    response["Content-Disposition"] = attachment(night_files.filename(night, "csv"))
    return response


@require_safe
def night_xlsx(request, token, number, readonly=False):
    """The ranking as a spreadsheet file: the CSV's cells, numbers as numbers."""
    night = get_night(token, number, readonly)
    view = ranking.read(night)
    names = [line.name for line in view.lines]
    workbook = xlsx.ranking_file(night, night_files.csv_rows(view), names)
    response = FileResponse(workbook, content_type=xlsx.CONTENT_TYPE)
    response["Content-Disposition"] = attachment(night_files.filename(night, "xlsx"))
    return response


@require_safe
def night_json(request, token, number, readonly=False):
    """The night as its club's backup holds it (``night_files.dump``), as one JSON file."""
    night = get_night(token, number, readonly)
    response = HttpResponse(
        night_files.dumps_night(night), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = attachment(night_files.filename(night, "json"))
    return response
