"""The home page: this browser's sessions and clubs, taking an entry off a list and back
(nothing is deleted, and its link still opens it), and restoring a session's backup."""

from http import HTTPStatus

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from scoresheet import recent
from scoresheet.files import session_backup
from scoresheet.files.forms import ImportForm
from scoresheet.files.views import to

# A refused backup: the page again, with why, as the hand form answers a refused hand.
REFUSED = HTTPStatus.UNPROCESSABLE_ENTITY


def home_context(request, import_form: ImportForm) -> dict:
    """The home page: this browser's sessions and clubs, and what it just took off its list."""
    return {
        "recent": recent.recent_sheets(request),
        "clubs": recent.recent_clubs(request),
        "import_form": import_form,
        "forgotten": shown_once(request),
    }


def shown_once(request) -> dict | None:
    """What ``forget`` just took off the list, the first time the home page shows it (with its
    undo); kept for ``put_back`` until the next removal."""
    forgotten = request.session.get("forgotten")
    if not forgotten or forgotten.get("shown"):
        return None
    request.session["forgotten"] = forgotten | {"shown": True}
    return forgotten


@require_safe
def home(request):
    """The sessions this browser created or opened, newest first, and the backup import."""
    return render(request, "scoresheet/home.html", home_context(request, ImportForm()))


@require_POST
def import_backup(request):
    """Restore a backup file as a new session, or show the home page with why it was refused."""
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        sheet = session_backup.restore(form.cleaned_data["backup"])
        recent.remember(request, recent.SHEETS, sheet)
        messages.success(request, _("Backup restored: “%(name)s”.") % {"name": sheet.name})
        return to(request, sheet.get_absolute_url())
    return render(request, "scoresheet/home.html", home_context(request, form), status=REFUSED)


@require_POST
def forget(request):
    """Take a session (or a club) off this browser's list; it stays reachable by its link."""
    kind = recent.LISTS.get(request.POST.get("list"))
    entries = request.session.get(kind.key, []) if kind else []
    gone = [e for e in request.POST.getlist("entry") if e in entries]
    if gone:
        request.session[kind.key] = [e for e in entries if e not in gone]
        request.session["forgotten"] = {
            "list": kind.key,
            "entries": [[entries.index(e), e] for e in gone],
            "name": recent.found(kind, gone).values_list("name", flat=True).first() or "",
        }
    return redirect("home")


@require_POST
def put_back(request):
    """Undo ``forget``: the entries it took off go back where they were in the list."""
    forgotten = request.session.pop("forgotten", None) or {}
    kind = recent.LISTS.get(forgotten.get("list"))
    if kind:
        entries = list(request.session.get(kind.key, []))
        for position, entry in forgotten.get("entries", []):
            if entry not in entries:
                entries.insert(position, entry)
        request.session[kind.key] = entries[: kind.most]
    return redirect("home")
