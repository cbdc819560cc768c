"""``manage.py export_club CLUB [-o FILE] [--standings]``: a club's backup, or its standings."""

from django.core.management.base import BaseCommand, CommandError

from scoresheet.clubs import standings
from scoresheet.files import club_backup, club_csv, commands
from scoresheet.models import Club


class Command(BaseCommand):
    help = "Write a club's JSON backup (or, with --standings, its all-time standings CSV)."

    def add_arguments(self, parser):
        parser.add_argument("club", help="the club's token, URL or path (/c/<token>/)")
        parser.add_argument("-o", "--output", metavar="FILE", help="write here, not to stdout")
        parser.add_argument(
            "--standings", action="store_true", help="write the all-time standings as CSV"
        )

    def handle(self, *args, club, output, **options):
        found = Club.objects.filter(token=commands.token_in(club, "c")).first()
        if found is None:
            raise CommandError(f"No club {club!r}.")
        if options["standings"]:
            chunks = club_csv.csv_lines(standings.standings(found))
        else:
            chunks = [club_backup.dumps(club_backup.dump(found))]
        commands.write(self, output, chunks)
