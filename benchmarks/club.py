"""The club's figures (`make bench` runs it): the club page, its read-only page and the
standings CSV at 10 and at 200 sessions of 60 hands, in-process on a temporary database.

Prints queries, median server time and bytes for each, then the time ratio between the two
sizes; exits non-zero when a ratio is over 1.5 or the queries differ (issue 16).

    python benchmarks/club.py                         # SQLite in a temporary file
    python benchmarks/club.py --sizes 10,200 --hands 60
"""

import argparse
import json
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from run import build_sheet, measure, setup_django  # noqa: E402

RATIO = 1.5


def build_club(sessions: int, hands: int, seed: int):
    """A club of 8 players, 5 at each session (attendance varies), ``sessions`` sessions of
    ``hands`` hands, one a day."""
    from django.utils import timezone

    from scoresheet import clubs
    from scoresheet.models import ClubSession, Seat, Sheet

    club = clubs.create_club(
        f"Club {sessions}", players=["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny", "Gus", "Hugo"]
    )
    roster = list(club.players.order_by("id"))
    start = timezone.now() - timedelta(days=sessions)
    for number in range(sessions):
        sheet = build_sheet(5, hands, seed + number)
        Sheet.objects.filter(pk=sheet.pk).update(created=start + timedelta(days=number))
        seated = [roster[(number + k) % len(roster)] for k in range(5)]
        # The seats take the roster's names, as a session started from the club has them.
        for position, player in enumerate(seated):
            Seat.objects.filter(sheet=sheet, position=position).update(name=player.name)
        ClubSession.objects.create(club=club, sheet=sheet, players=[p.pk for p in seated])
    return club


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10,200")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=15)
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="tarot-club-bench-") as tmp:
        setup_django(tmp)
        from django.test import Client
        from django.urls import reverse

        client = Client()
        figures = {}
        for size in sizes:
            club = build_club(size, options.hands, seed=size)
            pages = {
                "club page": reverse("club", args=[club.token]),
                "read-only club page": reverse("view_club", args=[club.view_token]),
                "standings this year": reverse("club", args=[club.token]) + "?period=year",
                "standings CSV": reverse("standings_csv", args=[club.token]),
            }
            figures[size] = {
                name: measure(lambda url=url: client.get(url), options.repeat)
                for name, url in pages.items()
            }
    small, large = sizes[0], sizes[-1]
    print(f"{'':24} {'queries':>14} {'ms':>18} {'KB':>14}   ratio")
    failed = False
    for name in figures[small]:
        a, b = figures[small][name], figures[large][name]
        ratio = b["ms"] / a["ms"]
        failed |= ratio > RATIO or a["queries"] != b["queries"]
        print(
            f"{name:24} {a['queries']:>6} → {b['queries']:<6} {a['ms']:>7.1f} → {b['ms']:<7.1f}"
            f" {a['bytes'] / 1024:>5.1f} → {b['bytes'] / 1024:<5.1f}   {ratio:.2f}"
        )
    print(
        f"sessions of {options.hands} hands: {small} → {large}; "
        f"time ratio at most {RATIO}, queries constant: {'FAIL' if failed else 'ok'}"
    )
    print(json.dumps({str(size): figures[size] for size in sizes}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
