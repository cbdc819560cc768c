"""``manage.py export_session SESSION [-o FILE] [--csv]``: a session's backup, or its CSV."""

import re
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from scoresheet.files import session_backup as backup
from scoresheet.files import session_csv
from scoresheet.models import Sheet


def token_of(session: str) -> str:
    """The token in a session's URL or path (…/s/<token>/), or the argument itself."""
    match = re.search(r"(?:^|/)s/([^/]+)/?$", urlsplit(session.strip()).path)
    return match[1] if match else session.strip()


class Command(BaseCommand):
    help = "Write a session's JSON backup (or, with --csv, its CSV) to a file or to stdout."

    def add_arguments(self, parser):
        parser.add_argument("session", help="the session's token, URL or path (/s/<token>/)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
        parser.add_argument("--csv", action="store_true", help="write the CSV export instead")

    def handle(self, *args, session, output, csv, **options):
        sheet = Sheet.objects.filter(token=token_of(session)).first()
        if sheet is None:
            raise CommandError(f"No session {session!r}.")
        chunks = session_csv.csv_lines(sheet) if csv else [backup.dumps(backup.dump(sheet))]
        if output is None or output == "-":
            for chunk in chunks:
                self.stdout.write(chunk, ending="")
            return
        # newline="": the CSV's own \r\n line ends are written as they are.
        try:
            with open(output, "w", encoding="utf-8", newline="") as file:
                file.writelines(chunks)
        except OSError as error:
            raise CommandError(f"Cannot write {output}: {error.strerror}.") from None
        self.stdout.write(f"Wrote {output}")
