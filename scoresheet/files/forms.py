"""The imports' forms: a session's backup and a club's. Cleaning one checks the whole file, so
a valid form restores cleanly; a refused file names the session, the hand and the field."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from scoresheet import limits
from scoresheet.files import club_backup, json_backup, session_backup


class ImportForm(forms.Form):
    """A backup file; cleaning it checks the whole backup, so a valid form restores cleanly."""

    backup = forms.FileField(
        label=_("Import a backup"),
        error_messages={
            "required": _("Choose a backup file."),
            "empty": _("This file is empty: it is not a backup of a session."),
        },
    )

    def clean_backup(self) -> session_backup.Backup:
        upload = self.cleaned_data["backup"]
        try:
            # One byte over the limit is enough for read() to refuse a file too large.
            return session_backup.read(upload.read(limits.SESSION_BACKUP_BYTES + 1))
        except json_backup.BackupError as error:
            raise ValidationError(error.message) from None


class ClubImportForm(forms.Form):
    """A club's backup file; cleaning it checks the whole file, so a valid form restores
    cleanly (club_backup.read refuses it whole, naming the session and the hand)."""

    backup = forms.FileField(
        label=_("Import a club's backup"),
        error_messages={
            "required": _("Choose a club's backup file."),
            "empty": _("This file is empty: it is not a backup of a club."),
            "invalid": _("Choose a club's backup file."),
        },
    )

    def clean_backup(self) -> club_backup.ClubBackup:
        upload = self.cleaned_data["backup"]
        try:
            # One byte over the limit is enough for read() to refuse a file too large.
            return club_backup.read(upload.read(limits.CLUB_BACKUP_BYTES + 1))
        except json_backup.BackupError as error:
            raise ValidationError(error.message) from None
