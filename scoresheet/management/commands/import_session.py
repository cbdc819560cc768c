"""``manage.py import_session FILE``: restore a JSON backup as a new session."""

import sys

from django.core.management.base import BaseCommand, CommandError

from scoresheet.files import json_backup
from scoresheet.files import session_backup as backup


class Command(BaseCommand):
    help = (
        "Restore a JSON backup as a new session and print its URL path on the last line; "
        "a refused backup writes nothing and exits non-zero."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the backup file, or - for stdin")

    def handle(self, *args, file, **options):
        # One byte more than the limit is enough to know the file is too large.
        try:
            if file == "-":
                data = sys.stdin.buffer.read(backup.MAX_BYTES + 1)
            else:
                with open(file, "rb") as source:
                    data = source.read(backup.MAX_BYTES + 1)
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror}.") from None
        try:
            sheet = backup.load(data)
        except json_backup.BackupError as error:
            raise CommandError(error.message) from None
        players = sheet.seats.count()
        hands = sheet.hands.count()
        self.stdout.write(f"Restored “{sheet.name}”: {players} players, {hands} hands.")
        self.stdout.write(sheet.get_absolute_url())
