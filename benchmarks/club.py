"""The club's figures (`make bench` runs it): the club page, its read-only page, the standings
of this year, the standings CSV and a player's page (their latest sessions, the figures over
all of them) at 10 and at 200 sessions of 60 hands, in-process on a temporary database; each
measured cold (the first view right after a hand was added to one of the club's sessions) and
warm (the same view again).

Prints queries, median server time and bytes for each, then the time ratio between the two
sizes; exits non-zero when a ratio is over 1.5 or the queries differ (issue 16). Then, for
information, the cost of the writes: one add_hand in the club's latest session and in its
first one (whose places moving leave every later session's ratings waiting), the latter as a
request makes it (until its answer), and the catch-up of those ratings that follows the
answer (clubs/results.py).

    python benchmarks/club.py                         # SQLite in a temporary file
    python benchmarks/club.py --sizes 10,200 --hands 60
"""

import argparse
import gc
import json
import statistics
import sys
import tempfile
import time
import uuid
from datetime import timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from run import build_sheet, setup_django  # noqa: E402

RATIO = 1.5


def build_club(sessions: int, hands: int, seed: int):
    """A club of 8 players, 5 at each session (attendance varies), ``sessions`` sessions of
    ``hands`` hands, one a day, counted through the club's own path (club_writes.attach)."""
    from django.utils import timezone

    from scoresheet.clubs import writes as club_writes
    from scoresheet.models import Seat, Sheet

    club = club_writes.create_club(
        f"Club {sessions}", players=["Ana", "Ben", "Chloé", "Dan", "Élise", "Fanny", "Gus", "Hugo"]
    ).club
    roster = list(club.players.order_by("id"))
    start = timezone.now() - timedelta(days=sessions)
    for number in range(sessions):
        sheet = build_sheet(5, hands, seed + number)
        Sheet.objects.filter(pk=sheet.pk).update(created=start + timedelta(days=number))
        seated = [roster[(number + k) % len(roster)] for k in range(5)]
        # The seats take the roster's names, as a session started from the club has them.
        for position, player in enumerate(seated):
            Seat.objects.filter(sheet=sheet, position=position).update(name=player.name)
        club_writes.attach(club, Sheet.objects.get(pk=sheet.pk), [p.name for p in seated])
    return club


def hands_to_add():
    """Valid hands at 5 players, each taken by another seat: the places move now and then."""
    from scoresheet import scoring

    number = 0
    while True:
        taker = number % 5
        contract = ("garde", "prise", "garde_sans")[number % 3]
        yield scoring.Hand(5, taker, contract, 2, 51 - 12 * (number % 2), partner=(taker + 1) % 5)
        number += 1


def sample(call, before=None) -> tuple[float, int, bytes, int | None]:
    """One run of ``call`` (``before`` run untimed first): ms, queries, body, status."""
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    if before is not None:
        before()
    reset_queries()
    # As timeit does: no garbage collection of earlier runs' leftovers inside the timing.
    gc.collect()
    gc.disable()
    try:
        with CaptureQueriesContext(connection) as captured:
            started = time.perf_counter()
            response = call()
            body = b""
            if hasattr(response, "status_code"):
                streaming = response.streaming
                body = b"".join(response.streaming_content) if streaming else response.content
            elapsed = (time.perf_counter() - started) * 1000
    finally:
        gc.enable()
    return elapsed, len(captured), body, getattr(response, "status_code", None)


def measured(cases: dict, repeat: int) -> dict:
    """Each case ({size: (call, before)}) run ``repeat`` times, the sizes taking turns (the
    machine's load weighs on both alike): median ms, and the queries and bytes of the first
    run, which is not timed (it warms Python's own caches: templates, imports)."""
    figures = {}
    for size, (call, before) in cases.items():
        _ms, queries, body, status = sample(call, before)
        figures[size] = {"queries": queries, "bytes": len(body), "status": status, "times": []}
    for run in range(repeat):
        # Each size goes first every other round.
        order = list(cases.items())
        for size, (call, before) in order[::-1] if run % 2 else order:
            figures[size]["times"].append(sample(call, before)[0])
    for found in figures.values():
        found["ms"] = statistics.median(found.pop("times"))
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="10,200")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--repeat", type=int, default=31)
    options = parser.parse_args()
    sizes = [int(size) for size in options.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="tarot-club-bench-") as tmp:
        setup_django(tmp)
        from django.test import Client
        from django.urls import reverse

        from scoresheet.clubs import results as club_results
        from scoresheet.sheets import writes

        client = Client()
        views, writing = {}, {}
        for size in sizes:
            club = build_club(size, options.hands, seed=size)
            sessions = list(club.club_sheets.select_related("sheet").order_by("sheet__created"))
            latest, first = sessions[-1].sheet, sessions[0].sheet
            hands = hands_to_add()

            def add_hand(sheet=latest, hands=hands):
                return writes.add_hand(sheet.token, next(hands), uuid.uuid4())

            player = club.players.order_by("id").first()
            pages = {
                "club page": reverse("club", args=[club.token]),
                # Ana sits at 5 sessions in 8: 5 of 10, 125 of 200 (the page shows 20).
                "player page": reverse("club_player", args=[club.token, player.pk]),
                "read-only club page": reverse("view_club", args=[club.view_token]),
                "standings this year": reverse("club", args=[club.token]) + "?period=year",
                "standings CSV": reverse("standings_csv", args=[club.token]),
            }
            for name, url in pages.items():
                view = lambda url=url: client.get(url)  # noqa: E731
                views.setdefault(f"{name}, cold", {})[size] = (view, add_hand)
                views.setdefault(f"{name}, warm", {})[size] = (view, None)

            def answered(add=add_hand, sheet=first):
                # A request's part: its catch-up waits for the answer (request_finished).
                club_results.request_started()
                return add(sheet)

            cases = {
                "add_hand, latest session": (add_hand, None),
                # Each run's catch-up is made before the next (untimed).
                "add_hand, first session": (answered, club_results.request_finished),
                "ratings caught up after it": (club_results.request_finished, answered),
            }
            for name, case in cases.items():
                writing.setdefault(name, {})[size] = case
        figures = {name: measured(cases, options.repeat) for name, cases in views.items()}
        extra = {name: measured(cases, options.repeat) for name, cases in writing.items()}
        club_results.request_finished()
    small, large = sizes[0], sizes[-1]
    print(f"{'':34} {'queries':>14} {'ms':>18} {'KB':>14}   ratio")
    failed = False

    def line(name, a, b):
        ratio = b["ms"] / a["ms"]
        print(
            f"{name:34} {a['queries']:>6} → {b['queries']:<6} {a['ms']:>7.2f} → {b['ms']:<7.2f}"
            f" {a['bytes'] / 1024:>5.1f} → {b['bytes'] / 1024:<5.1f}   {ratio:.2f}"
        )
        return ratio

    for name, found in figures.items():
        a, b = found[small], found[large]
        ratio = line(name, a, b)
        failed |= ratio > RATIO or a["queries"] != b["queries"] or a["status"] != 200
    print(
        f"sessions of {options.hands} hands: {small} → {large}; "
        f"time ratio at most {RATIO}, queries constant: {'FAIL' if failed else 'ok'}"
    )
    print("for information (not in the budget):")
    for name, found in extra.items():
        line(name, found[small], found[large])
    print(json.dumps({"views": figures, "writes": extra}))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
