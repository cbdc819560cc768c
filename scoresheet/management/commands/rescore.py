"""``manage.py rescore [SESSION ...]``: recompute the stored scores and totals from the hands,
and the clubs' stored results from their sessions."""

from django.core.management.base import BaseCommand, CommandError

from scoresheet.clubs import results
from scoresheet.files.commands import token_in
from scoresheet.models import Club, Sheet
from scoresheet.sheets import writes


class Command(BaseCommand):
    help = (
        "Recompute every session's stored rows, totals and statistics from its hands and "
        "rules (they are derived data), one transaction per session, then the stored results "
        "and ratings of the clubs counting them, one transaction per club. Prints how many "
        "differed."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "sessions", nargs="*", help="tokens, URLs or paths (/s/<token>/); all when none"
        )

    def handle(self, *args, sessions, **options):
        sheets = Sheet.objects.order_by("pk")
        if sessions:
            tokens = [token_in(session, "s") for session in sessions]
            sheets = sheets.filter(token__in=tokens)
            missing = set(tokens) - set(sheets.values_list("token", flat=True))
            if missing:
                raise CommandError(f"No session {sorted(missing)[0]!r}.")
        checked = fixed = 0
        for sheet in sheets.iterator():
            checked += 1
            fixed += writes.rescore(sheet)
        self.stdout.write(
            f"{checked} sessions re-scored, {fixed} had stored scores that differed."
        )
        clubs = Club.objects.order_by("pk")
        if sessions:
            clubs = clubs.filter(club_sheets__sheet__in=sheets).distinct()
        counted = differed = 0
        for club in clubs.iterator():
            counted += 1
            differed += results.recount(club)
        self.stdout.write(
            f"{counted} clubs recounted, {differed} had stored results that differed."
        )
