"""``manage.py export_club CLUB [-o FILE] [--standings]``: a club's backup, or its standings."""

import re
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError

from scoresheet.clubs import standings as clubs
from scoresheet.files import club_backup, club_csv
from scoresheet.models import Club


def token_of(club: str) -> str:
    """The token in a club's URL or path (…/c/<token>/), or the argument itself."""
    match = re.search(r"(?:^|/)c/([^/]+)/?$", urlsplit(club.strip()).path)
    return match[1] if match else club.strip()


class Command(BaseCommand):
    help = "Write a club's JSON backup (or, with --standings, its all-time standings CSV)."

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's token, URL or path (/c/<token>/)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
        parser.add_argument(
            "--standings", action="store_true", help="write the all-time standings as CSV"
        )

    def handle(self, *args, club, output, standings, **options):
        found = Club.objects.filter(token=token_of(club)).first()
        if found is None:
            raise CommandError(f"No club {club!r}.")
        if standings:
            chunks = club_csv.csv_lines(clubs.standings(found))
        else:
            chunks = [club_backup.dumps(club_backup.dump(found))]
        if output is None or output == "-":
            for chunk in chunks:
                self.stdout.write(chunk, ending="")
            return
        try:
            with open(output, "w", encoding="utf-8", newline="") as file:
                file.writelines(chunks)
        except OSError as error:
            raise CommandError(f"Cannot write {output}: {error.strerror}.") from None
        self.stdout.write(f"Wrote {output}")
