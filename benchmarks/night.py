"""The club night's figures (`make bench` runs it), in two parts.

Pages (issue 24): the night's page, its read-only page, the big screen, a poll that finds
nothing new and one that finds a hand, and the ranking CSV, for a night of 8 players (2 tables)
and one of 60 (15 tables), 5 rounds of 4 deals each, every deal played; in-process on a
temporary database. Prints queries, median server time and bytes for each, then the time ratio
between the two; fails when a ratio is over 1.5 or the queries differ.

A club's history (issue 34), over HTTP against `manage.py serve` (3 workers, as `make run`), in
a club restored from a backup of 600 sessions of 60 hands (240 players, five at each session):
nights of 16, 60 and 200 of its players created (round 1 drawn) and their round 2 drawn, each
within 1 s, while another phone saves hands at a table (of the club's latest night; for a draw,
of that night's round 1), whose longest wait meanwhile must stay within 0.2 s; and hand 3
corrected in the club's first session and in its latest, both moving the session's places,
within 1.5× of each other. For information: the catch-up of the ratings that the correction
in the first session leaves waiting (clubs/results.py), which runs once the request is
answered.

    python benchmarks/night.py                      # SQLite in a temporary file
    scripts/with-postgres python benchmarks/night.py
    python benchmarks/night.py --part club --nights 3
"""

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from datetime import date, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from club import measured  # noqa: E402
from harness import Report, Server, commit_floor  # noqa: E402
from over_http import Browser  # noqa: E402
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


def pages(options) -> int:
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


# A club's history

HISTORY_PLAYERS = [f"Joueur {n:03d}" for n in range(240)]
# Seconds (issue 34).
NIGHT_TARGET = 1.0
SAVE_TARGET = 0.2
CORRECTION_RATIO = 1.5


def history_backup(sessions: int, hands: int, seed: int = 1) -> bytes:
    """A club's backup: ``sessions`` sessions of ``hands`` hands, one a day, five players of
    the roster at each, drawn at random."""
    from writes import session_data

    from scoresheet.files import club_backup

    rng = random.Random(seed)
    start = datetime(2024, 1, 1, 20, 30)
    played = [
        session_data(
            hands, seed + number, rng.sample(HISTORY_PLAYERS, 5), start + timedelta(days=number)
        )
        for number in range(sessions)
    ]
    data = {
        "format": "tarot-club/1",
        "name": f"Club of {sessions} sessions",
        "created": start.astimezone().isoformat(),
        "players": HISTORY_PLAYERS,
        "rules": {},
        "sessions": played,
    }
    return club_backup.dumps(data).encode()


def hand_fields(seats: int, number: int) -> dict:
    """A hand as the hand form posts it: a garde made or lost, each taken by another seat."""
    taker = number % seats
    fields = {"taker": taker, "contract": "garde", "bouts": 2, "points": 51 - 12 * (number % 2)}
    if seats == 5:
        fields["partner"] = (taker + 1) % seats
    return fields


class Table:
    """A phone saving hands at a table, one after the other, until stopped: when each save
    started and how long it took. ``token`` and ``seats`` say which table; they may change."""

    def __init__(self, port: int, token: str, seats: int):
        self.browser = Browser(port)
        self.token, self.seats = token, seats
        self.saves: list[tuple[float, float, int]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.play, daemon=True)

    def play(self):
        number = 0
        while not self.stop.is_set():
            token, seats = self.token, self.seats
            if "csrftoken" not in self.browser.cookies:
                self.browser.get(f"/s/{token}/")
            # Past its planned deals, a table confirms each deal more ("Yes, save it").
            fields = {"key": str(uuid.uuid4()), "beyond_plan": "1", **hand_fields(seats, number)}
            started = time.perf_counter()
            answer = self.browser.post(f"/s/{token}/hands/new/", fields, htmx=True)
            self.saves.append((started, answer.seconds, answer.status))
            number += 1
            self.stop.wait(0.05)

    def during(self, start: float, end: float) -> list[float]:
        """How long each save that was waiting at some moment between ``start`` and ``end``
        took."""
        return [took for at, took, _status in self.saves if at < end and at + took > start]


def first_table(night) -> tuple[str, int]:
    """The token and seats of table 1 of the night's latest round."""
    table = night.tables.filter(round=night.drawn, table=1).select_related("club_sheet__sheet")
    table = table.get()
    return table.club_sheet.sheet.token, len(table.players)


def big_hand(taker: int) -> dict:
    """A garde contre with an announced chelem made, at 5 players (docs/rules.md §5): (25 + 40)
    × 6 + 400 = 790 from each defender, the taker +1,580 and the partner +790, more than
    the other 59 hands of the session move: the session's first place goes to the taker."""
    return {
        "taker": taker,
        "partner": (taker + 1) % 5,
        "contract": "garde_contre",
        "bouts": 3,
        "points": 91,
        "chelem": "announced_made",
    }


def club_history(options) -> int:
    server = Server(workers=3)
    server.env["ALLOWED_HOSTS"] += ",testserver"
    figures: dict = {"database": server.database}
    try:
        server.manage("migrate", "--no-input", "-v0")
        server.django()
        from django.db import connections

        from scoresheet.files import club_backup
        from scoresheet.models import Club, Night, Sheet

        started = time.perf_counter()
        club = club_backup.load(history_backup(options.sessions, 60))
        figures["built_s"] = time.perf_counter() - started
        sheets = list(
            Sheet.objects.filter(club_sheet__club=club).order_by("created", "club_sheet__id")
        )
        oldest, newest = sheets[0], sheets[-1]
        floor = commit_floor()
        connections.close_all()
        server.start()
        organiser = Browser(server.port)
        club_path = f"/c/{club.token}/"
        organiser.get(club_path)

        # Hand 3 corrected, in turn in the club's first session and in its latest: each time
        # the first place changes hands. The ratings that the first session's correction
        # leaves waiting are caught up by the worker once it has answered: how long after the
        # answer, read in this process; the next correction waits for it.
        corrections = {"first session": [], "latest session": []}
        caught_up = []
        phone = Browser(server.port)
        phone.get(f"/s/{oldest.token}/")
        for run in range(options.corrections):
            for name, sheet in (("first session", oldest), ("latest session", newest)):
                hand = sheet.numbered_hands().get(position=sheet.position(3))
                fields = {"key": str(hand.key), "version": hand.version, **big_hand(2 * (run % 2))}
                answer = phone.post(f"/s/{sheet.token}/hands/3/edit/", fields)
                answered = time.perf_counter()
                assert answer.status == 302, (answer.status, answer.body[:2000])
                corrections[name].append(answer.seconds)
                while Club.objects.filter(pk=club.pk, rate_from_played__isnull=False).exists():
                    assert time.perf_counter() - answered < 30, "the ratings were not caught up"
                    time.sleep(0.01)
                if name == "first session":
                    caught_up.append(time.perf_counter() - answered)
                time.sleep(0.2)
        figures["corrections"] = {name: statistics.median(t) for name, t in corrections.items()}
        figures["caught_up_s"] = statistics.median(caught_up)
        connections.close_all()

        # The nights: created, then round 2 drawn, while a phone saves at a table.
        table = Table(server.port, newest.token, 5)
        table.thread.start()
        nights = {}
        for size in options.night_sizes:
            found = nights[size] = {"created": [], "drawn": [], "waits": []}
            for _run in range(options.nights):
                organiser.get(club_path + "nights/new/")
                fields = [
                    ("name", f"Tournoi de {size}"),
                    ("date", "2026-12-04"),
                    ("rounds", "5"),
                    ("deals", "4"),
                    ("minutes", ""),
                    ("new_players", ""),
                    ("key", str(uuid.uuid4())),
                    ("csrfmiddlewaretoken", organiser.csrf()),
                    *(("players", name) for name in HISTORY_PLAYERS[:size]),
                ]
                time.sleep(0.3)
                started = time.perf_counter()
                answer = organiser.request("POST", club_path + "nights/new/", fields=fields)
                ended = time.perf_counter()
                assert answer.status == 302, (answer.status, answer.body[:2000])
                found["created"].append(ended - started)
                found["waits"].extend(table.during(started, ended))
                night_path = answer.headers["Location"]
                night = Night.objects.get(
                    club=club, number=int(night_path.rstrip("/").split("/")[-1])
                )
                # A table of this night's round 1 saves while round 2 is drawn.
                table.token, table.seats = first_table(night)
                time.sleep(0.5)
                started = time.perf_counter()
                answer = organiser.post(night_path + "draw/", {"round": "2"})
                ended = time.perf_counter()
                assert answer.status == 302, answer.status
                found["drawn"].append(ended - started)
                found["waits"].extend(table.during(started, ended))
                night.refresh_from_db()
                assert night.drawn == 2, night.drawn
                # The next night is created while a table of this one's round 2 saves.
                table.token, table.seats = first_table(night)
                time.sleep(0.3)
            connections.close_all()
        table.stop.set()
        table.thread.join(timeout=30)
        saves = [took for _at, took, _status in table.saves]
        figures["usual_save_s"] = statistics.median(saves)
        figures["refused_saves"] = sum(status != 200 for _a, _t, status in table.saves)
        for found in nights.values():
            found["waits"] = max(found["waits"], default=0.0)
        figures["nights"] = nights
    finally:
        server.close()
    report = Report(
        f"A club of {options.sessions} past sessions, over HTTP ({figures['database']},"
        " manage.py serve, 3 workers)",
        floor=floor,
    )
    for size, found in figures["nights"].items():
        report.time(
            f"night of {size}: created, round 1 drawn",
            statistics.median(found["created"]),
            NIGHT_TARGET,
        )
        report.time(
            f"night of {size}: round 2 drawn", statistics.median(found["drawn"]), NIGHT_TARGET
        )
        report.time(
            f"night of {size}: a table's save meanwhile, longest", found["waits"], SAVE_TARGET
        )
    first, latest = (
        figures["corrections"]["first session"],
        figures["corrections"]["latest session"],
    )
    report.time("correct hand 3, the club's first session", first, 1.0)
    report.time("correct hand 3, the club's latest session", latest, 1.0)
    report.ratio("correct hand 3, first / latest session", first / latest, CORRECTION_RATIO)
    report.add(
        "a save at the table, usually", f"{figures['usual_save_s'] * 1000:.1f} ms", "—", True
    )
    report.add(
        "the first session's correction: ratings caught up",
        f"{figures['caught_up_s'] * 1000:.1f} ms",
        "after the answer",
        True,
    )
    if figures["refused_saves"]:
        report.add("the table's saves refused", str(figures["refused_saves"]), "0", False)
    report.print()
    print(f"club restored from its backup in {figures['built_s']:.1f} s")
    print(json.dumps(figures))
    return 1 if report.missed else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=["pages", "club", "all"], default="all")
    parser.add_argument("--sizes", default="8,60", help="the pages' nights, in players")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=31, help="runs of each page")
    parser.add_argument("--sessions", type=int, default=600, help="the club's past sessions")
    parser.add_argument("--nights", type=int, default=3, help="nights created of each size")
    parser.add_argument("--corrections", type=int, default=7, help="in each session")
    options = parser.parse_args()
    options.night_sizes = (16, 60, 200)
    if options.part == "pages":
        return pages(options)
    if options.part == "club":
        return club_history(options)
    # The club's part in a process of its own: Django is set up once a process, here on the
    # pages' temporary database.
    club = [sys.executable, __file__, "--part", "club", "--sessions", str(options.sessions)]
    club += ["--nights", str(options.nights), "--corrections", str(options.corrections)]
    failed = pages(options)
    return failed | subprocess.run(club, check=False).returncode


if __name__ == "__main__":
    sys.exit(main())
