"""``manage.py import_club FILE``: restore a club's JSON backup as a new club."""

from django.core.management.base import BaseCommand, CommandError

from scoresheet import limits
from scoresheet.files import club_backup, commands, json_backup


class Command(BaseCommand):
    help = (
        "Restore a club's JSON backup (tarot-club/1) as a new club and print its URL path on "
        "the last line; a refused backup writes nothing and exits non-zero."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the club's backup file, or - for stdin")

    def handle(self, *args, file, **options):
        try:
            club = club_backup.load(commands.read(file, limits.CLUB_BACKUP_BYTES))
        except json_backup.BackupError as error:
            raise CommandError(error.message) from None
        players = club.players.count()
        sessions = club.club_sheets.count()
        self.stdout.write(f"Restored “{club.name}”: {players} players, {sessions} sessions.")
        self.stdout.write(club.get_absolute_url())
