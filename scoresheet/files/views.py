"""The files' views: a session's CSV, backup and spreadsheet, a club's standings (CSV and
spreadsheet) and backup, and restoring a session's or a club's backup."""

import time

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import HttpResponseClientRedirect

from scoresheet.clubs import standings as clubs
from scoresheet.clubs.forms import ClubImportForm, NewClubForm
from scoresheet.clubs.views import chosen_period, get_club
from scoresheet.files import club_backup, club_csv, filenames, session_csv, xlsx
from scoresheet.files import club_import as club_import_job
from scoresheet.files import session_backup as backup
from scoresheet.files.filenames import attachment
from scoresheet.lists import recent
from scoresheet.lists.views import home_context
from scoresheet.sessions.forms import ImportForm
from scoresheet.sessions.views import get_sheet, seat_names


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
        backup.dump_lines(sheet), content_type="application/json; charset=utf-8"
    )
    response["Content-Disposition"] = attachment(filenames.filename(sheet, "json"))
    return response


@require_POST
def import_backup(request):
    """Restore a backup file as a new session, or show the home page with why it was refused."""
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        sheet = backup.restore(form.cleaned_data["backup"])
        recent.remember(request, recent.SHEETS, sheet)
        messages.success(request, _("Backup restored: “%(name)s”.") % {"name": sheet.name})
        return to(request, sheet.get_absolute_url())
    return render(request, "scoresheet/home.html", home_context(request, form))


@require_POST
def club_import(request):
    """Restore a club's backup as a new club (a large one outside this request: its page says
    how it goes), or show the new club page with why it was refused (the whole file, nothing
    written)."""
    import_form = ClubImportForm(request.POST, request.FILES)
    if import_form.is_valid():
        checked = import_form.cleaned_data["backup"]
        if request.FILES["backup"].size > club_import_job.BACKGROUND_BYTES:
            return to(request, reverse("club_import_job", args=[club_import_job.start(checked)]))
        return restored(request, club_backup.restore(checked))
    context = {"form": NewClubForm(), "import_form": import_form}
    return render(request, "scoresheet/club_new.html", context)


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
    found = club_import_job.state(job)
    if found is None:
        raise Http404
    if found["state"] == club_import_job.DONE:
        return restored(request, get_club(found["club"], False))
    seconds = int(time.time() - found["started"])
    context = {"job": found, "seconds": seconds}
    return render(request, "scoresheet/club_import.html", context)


@require_safe
def standings_csv(request, token, readonly=False):
    """The standings of the period as CSV, with the session CSV's conventions."""
    club = get_club(token, readonly)
    period, _error = chosen_period(request)
    result = clubs.standings(club, period, request.GET.get("sort", "points"))
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
    result = clubs.standings(club, period, request.GET.get("sort", "points"))
    names = [row.player.name for row in result.rows]
    workbook = xlsx.standings_file(club, club_csv.csv_rows(result), names)
    response = FileResponse(workbook, content_type=xlsx.CONTENT_TYPE)
    response["Content-Disposition"] = attachment(filenames.filename(club, "xlsx", _("Standings")))
    return response
