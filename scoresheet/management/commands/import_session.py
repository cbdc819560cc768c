"""``manage.py import_session FILE``: restore a JSON backup as a new session."""

from django.core.management.base import BaseCommand, CommandError

from scoresheet import limits
from scoresheet.files import commands, json_backup, session_backup


class Command(BaseCommand):
    help = (
        "Restore a JSON backup as a new session and print its URL path on the last line; "
        "a refused backup writes nothing and exits non-zero."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file, or - for stdin")

    def handle(self, *args, file, **options):
        try:
            sheet = session_backup.load(commands.read(file, limits.SESSION_BACKUP_BYTES))
        except json_backup.BackupError as error:
            raise CommandError(error.message) from None
        self.stdout.write(
            f"Restored “{sheet.name}”: {sheet.seats.count()} players, {sheet.hands.count()} hands."
        )
        self.stdout.write(sheet.get_absolute_url())
