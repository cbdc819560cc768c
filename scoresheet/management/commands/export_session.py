"""``manage.py export_session SESSION [-o FILE] [--csv]``: a session's backup, or its CSV."""

from django.core.management.base import BaseCommand, CommandError

from scoresheet.files import commands, session_backup, session_csv
from scoresheet.models import Sheet


class Command(BaseCommand):
    help = "Write a session's JSON backup (or, with --csv, its CSV) to a file or to stdout."

    def add_arguments(self, parser):
        parser.add_argument("session", help="the session's token, URL or path (/s/<token>/)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
        parser.add_argument("--csv", action="store_true", help="write the CSV export instead")

    def handle(self, *args, session, output, csv, **options):
        sheet = Sheet.objects.filter(token=commands.token_in(session, "s")).first()
        if sheet is None:
            raise CommandError(f"No session {session!r}.")
        chunks = (
            session_csv.csv_lines(sheet)
            if csv
            else [session_backup.dumps(session_backup.dump(sheet))]
        )
        commands.write(self, output, chunks)
