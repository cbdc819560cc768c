"""The club night's figures (`make bench` runs it, issue 24): the night's page, its read-only
page, the big screen, a poll that finds nothing new and one that finds a hand, and the ranking
CSV, for a night of 8 players (2 tables) and one of 60 (15 tables), 5 rounds of 4 deals each,
every deal played; in-process on a temporary database.

Prints queries, median server time and bytes for each, then the time ratio between the two;
exits non-zero when a ratio is over 1.5 or the queries differ.

    python benchmarks/night.py                 # SQLite in a temporary file
    scripts/with-postgres python benchmarks/night.py
"""

import argparse
import json
import sys
import tempfile
import uuid
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from club import measured  # noqa: E402
from run import setup_django  # noqa: E402

RATIO = 1.5


def garde(seats: int, number: int):
    from scoresheet import scoring

    taker = number % seats
    partner = (taker + 1) % seats if seats == 5 else None
    return scoring.Hand(seats, taker, "garde", 2, 51 - 12 * (number % 2), partner=partner)


def build_night(players: int, rounds: int, deals: int):
    """A club night of ``players``, every round drawn and every deal entered through the
    write path, as the tables' phones enter them."""
    from scoresheet.clubs import writes as club_writes
    from scoresheet.nights import writes as night_writes
    from scoresheet.sheets import writes

    club = club_writes.create_club(f"Club {players}").club
    names = [f"Joueur {n:02d}" for n in range(players)]
    night = night_writes.create_night(
        club, "Tournoi", date(2026, 12, 4), names, rounds, deals, 60
    ).night
    for number in range(1, rounds + 1):
        if number > 1:
            night_writes.draw_round(club, night, number)
        for table in night.tables.filter(round=number).select_related("club_sheet__sheet"):
            sheet = table.club_sheet.sheet
            for deal in range(deals):
                writes.add_hand(sheet.token, garde(len(table.players), deal), uuid.uuid4())
    night.refresh_from_db()
    return club, night


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="8,60")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=31)
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="tarot-night-bench-") as tmp:
        setup_django(tmp)
        from django.test import Client
        from django.urls import reverse

        from scoresheet.nights import ranking
        from scoresheet.sheets import writes

        client = Client()
        views = {}
        for size in sizes:
            club, night = build_night(size, options.rounds, options.deals)
            last = night.tables.filter(round=night.drawn).select_related("club_sheet__sheet")
            table = last.first()
            numbers = iter(range(10**6))

            seats = len(table.players)

            def add_hand(sheet=table.club_sheet.sheet, seats=seats, numbers=numbers):
                return writes.add_hand(sheet.token, garde(seats, next(numbers)), uuid.uuid4())

            args, view_args = [club.token, night.number], [club.view_token, night.number]
            live = reverse("night_live", args=args)
            pages = {
                "night page": reverse("night", args=args),
                "read-only night page": reverse("view_night", args=view_args),
                "screen": reverse("night_screen", args=args),
                "read-only screen": reverse("view_night_screen", args=view_args),
                "ranking CSV": reverse("night_csv", args=args),
            }
            for name, url in pages.items():
                view = lambda url=url: client.get(url)  # noqa: E731
                views.setdefault(f"{name}, cold", {})[size] = (view, add_hand)
                views.setdefault(f"{name}, warm", {})[size] = (view, None)

            shown = {}

            def current(night=night, shown=shown):
                # The version the screen shows: read before each poll, untimed.
                night.refresh_from_db()
                shown["version"] = ranking.read(night).version

            views.setdefault("poll, nothing new", {})[size] = (
                lambda live=live, shown=shown: client.get(
                    live, {"version": shown["version"], "screen": "1"}
                ),
                current,
            )
            views.setdefault("poll, a hand entered", {})[size] = (
                lambda live=live: client.get(live, {"version": "0.0", "screen": "1"}),
                add_hand,
            )
        figures = {name: measured(cases, options.repeat) for name, cases in views.items()}
    small, large = sizes[0], sizes[-1]
    print(f"{'':30} {'queries':>14} {'ms':>18} {'KB':>14}   ratio")
    failed = False
    for name, found in figures.items():
        a, b = found[small], found[large]
        ratio = b["ms"] / a["ms"]
        print(
            f"{name:30} {a['queries']:>6} → {b['queries']:<6} {a['ms']:>7.2f} → {b['ms']:<7.2f}"
            f" {a['bytes'] / 1024:>5.1f} → {b['bytes'] / 1024:<5.1f}   {ratio:.2f}"
        )
        failed |= ratio > RATIO or a["queries"] != b["queries"] or a["status"] not in (200, 204)
    print(
        f"club night of {small} → {large} players, {options.rounds} rounds of {options.deals} "
        f"deals: time ratio at most {RATIO}, queries constant: {'FAIL' if failed else 'ok'}"
    )
    print(json.dumps(figures))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
