"""The migrations stand on their own: none imports the app's code (what a data migration needs
is frozen in it), and a database holding sessions and clubs from before the stored scores and
the stored club results migrates forward to exactly what the app computes today."""

import ast
import dataclasses
import io
import re
import uuid
from decimal import Decimal
from pathlib import Path

import openpyxl
import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone

from scoresheet import scoring, stats, tally
from scoresheet.clubs import results
from scoresheet.models import Club, ClubResult, Hand, Night, Sheet
from scoresheet.sheets import writes

MIGRATIONS = Path(__file__).resolve().parent.parent / "scoresheet" / "migrations"


def app_imports(source: str) -> list[str]:
    """The modules of the app (``scoresheet.…`` but its migrations, or relative) that Python
    source imports, wherever in the file."""
    found = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            found.add("." * node.level + (node.module or ""))
    return sorted(
        module
        for module in found
        if (module == "scoresheet" or module.startswith(("scoresheet.", ".")))
        and not module.startswith("scoresheet.migrations")
    )


def test_no_migration_imports_the_apps_code():
    """A migration that imports app code breaks a fresh ``migrate`` the day that code changes
    shape: what it needs is copied into it, frozen."""
    wrong = {
        path.name: app_imports(path.read_text(encoding="utf-8"))
        for path in sorted(MIGRATIONS.glob("*.py"))
    }
    assert {name: modules for name, modules in wrong.items() if modules} == {}


@pytest.mark.parametrize(
    "source",
    [
        "def fill(apps, schema_editor):\n    from scoresheet import scoring\n",
        "import scoresheet.models\n",
        "from scoresheet.clubs.results import fresh_rows\n",
    ],
)
def test_the_check_sees_an_import_of_the_app(source):
    assert app_imports(source) != []
    assert app_imports("from scoresheet.migrations import frozen\nimport regex\n") == []


def migrate(target: str | None):
    """The database at ``target`` (None: the latest), and its models then."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    nodes = [("scoresheet", target)] if target else executor.loader.graph.leaf_nodes()
    executor.migrate(nodes)
    return executor.loader.project_state(nodes).apps


# The hands stored before scores were: (taker, partner, contract, bouts, points, petit au bout,
# poignées, chelem, defence chelem), None for a deal everyone passed.
FOUR = [
    (2, None, "garde", 2, Decimal(49), "attack", {"2": "simple"}, "", False),
    None,
    (0, None, "prise", 1, Decimal(40), "", {}, "", False),
    (1, None, "garde_sans", 3, Decimal(80), "defence", {"3": "double"}, "", False),
    (3, None, "garde_contre", 3, Decimal(91), "attack", {}, "announced_made", False),
    (0, None, "garde", 1, Decimal(20), "", {}, "", True),
    (1, None, "prise", 2, Decimal(41), "", {}, "announced_failed", False),
]
FIVE = [
    (0, 3, "garde", 2, Decimal("44.5"), "", {"1": "simple"}, "", False),
    (4, None, "prise", 1, Decimal("50.5"), "defence", {}, "", False),
    (2, 1, "garde_sans", 1, Decimal(60), "attack", {}, "unannounced_made", False),
    None,
    (3, 0, "prise", 3, Decimal(36), "", {}, "", False),
]
THREE = [
    (1, None, "garde", 0, Decimal("60.5"), "", {"0": "triple"}, "", False),
    (2, None, "prise", 3, Decimal(30), "attack", {}, "", False),
]


@pytest.mark.django_db(transaction=True)
def test_sessions_and_clubs_from_before_the_stored_scores_migrate_to_todays_figures():
    """Sessions of 4, 5 and 3 players stored at 0003 (no scores stored), two of them counted
    by a club at 0009 (no results stored): after every migration, each stored row, total,
    statistic and club result is what a full re-scoring by today's code gives."""
    old = migrate("0003_sheet_revision_and_orderings")
    OldSheet, OldSeat, OldHand = (
        old.get_model("scoresheet", m) for m in ("Sheet", "Seat", "Hand")
    )
    made = []
    for number, (names, hands, first_dealer) in enumerate(
        [("ABCD", FOUR, 1), ("ABCDE", FIVE, 4), ("ABC", THREE, 0)]
    ):
        sheet = OldSheet.objects.create(
            name=f"Session {number}",
            first_dealer=first_dealer,
            token=f"t{number}",
            view_token=f"v{number}",
        )
        for position, name in enumerate(names):
            OldSeat.objects.create(sheet=sheet, position=position, name=name)
        for hand in hands:
            if hand is None:
                OldHand.objects.create(sheet=sheet, key=uuid.uuid4(), passed=True)
                continue
            taker, partner, contract, bouts, points, petit, poignees, chelem, defence = hand
            OldHand.objects.create(
                sheet=sheet,
                key=uuid.uuid4(),
                taker=taker,
                partner=partner,
                contract=contract,
                bouts=bouts,
                points=points,
                petit_au_bout=petit,
                poignees=poignees,
                chelem=chelem,
                defence_chelem=defence,
            )
        made.append(sheet.pk)

    old = migrate("0009_sheet_restored")
    OldClub, OldPlayer, OldSession = (
        old.get_model("scoresheet", m) for m in ("Club", "ClubPlayer", "ClubSession")
    )
    club = OldClub.objects.create(name="Jeudi", token="c1", view_token="cv1")
    roster = [
        OldPlayer.objects.create(club=club, name=name, key=name.lower()).pk for name in "ABCDEF"
    ]
    OldSession.objects.create(club=club, sheet_id=made[0], players=roster[:4])
    OldSession.objects.create(club=club, sheet_id=made[1], players=roster[1:6])

    migrate(None)
    sheets = {sheet.pk: sheet for sheet in Sheet.objects.filter(pk__in=made)}
    # The first hand of the four-player session, from the rules: garde, 2 bouts, 49 points
    # (made by 8), petit au bout and a simple poignée to the attack: (25 + 8) × 2 + 20 + 20 =
    # 106 per defender, 318 to the taker. Dealt by seat 1, the first dealer.
    first = Hand.objects.get(sheet_id=made[0], position=1)
    assert (first.dealer, first.scores) == (1, [-106, -106, 318, -106])
    # The deal moves on after each hand, passed or not.
    assert list(
        Hand.objects.filter(sheet_id=made[1]).order_by("position").values_list("dealer", flat=True)
    ) == [4, 0, 1, 2, 3]
    assert sheets[made[1]].next_dealer == 4
    for pk in made:
        sheet = sheets[pk]
        assert sheet.hand_count == Hand.objects.filter(sheet=sheet).count()
        assert not writes.rescore(sheet), sheet.name
    stored = ClubResult.objects.filter(club_id=club.pk).count()
    assert stored == 4 + 5
    assert not results.recount(Club.objects.get(pk=club.pk)), "results differ from a recount"


@pytest.mark.django_db(transaction=True)
def test_night_tables_take_their_night_s_name_and_each_night_gets_a_screen_code():
    """The tables drawn before were named "Round r · Table t" (in the organiser's language):
    the night's name goes in front, shortened to fit 80 characters; a table named so already
    stays. Each night gets its own screen code, and counts a passed deal as a deal."""
    old = migrate("0014_club_sheet")
    OldClub, OldSheet, OldClubSheet, OldNight, OldTable = (
        old.get_model("scoresheet", m)
        for m in ("Club", "Sheet", "ClubSheet", "Night", "NightTable")
    )
    club = OldClub.objects.create(name="Jeudi", token="c1", view_token="cv1")
    made = iter(range(100))

    def night(number, name):
        return OldNight.objects.create(
            club=club, number=number, name=name, date="2026-12-04", seed="1", rounds=2, deals=4
        )

    def table(at, round_number, number, name):
        n = next(made)
        sheet = OldSheet.objects.create(
            name=name, first_dealer=0, token=f"t{n}", view_token=f"v{n}"
        )
        counted = OldClubSheet.objects.create(club=club, sheet=sheet, players=[])
        OldTable.objects.create(
            night=at, round=round_number, table=number, players=[], club_sheet=counted
        )
        return sheet.pk

    friday, long = night(1, "Vendredi"), night(2, "N" * 80)
    tables = {
        table(friday, 1, 1, "Round 1 · Table 1"): "Vendredi · Round 1 · Table 1",
        table(friday, 1, 2, "Manche 1 · Table 2"): "Vendredi · Manche 1 · Table 2",
        table(friday, 2, 1, "Vendredi · Round 2 · Table 1"): "Vendredi · Round 2 · Table 1",
        # 80 + 20 characters: the night keeps 59 of its own and "…", 80 in all.
        table(long, 1, 1, "Round 1 · Table 1"): "N" * 59 + "… · Round 1 · Table 1",
    }
    # A session of the club outside any night keeps its name.
    alone = OldSheet.objects.create(name="Mardi", first_dealer=0, token="t-alone", view_token="v")
    OldClubSheet.objects.create(club=club, sheet=alone, players=[])

    migrate(None)
    names = dict(Sheet.objects.values_list("pk", "name"))
    assert {pk: names[pk] for pk in tables} == tables
    assert names[alone.pk] == "Mardi"
    nights = list(Night.objects.values_list("screen", "passed_counts"))
    assert len({code for code, _counts in nights}) == 2
    for code, counts in nights:
        assert re.fullmatch(r"[23456789abcdefghjkmnpqrstuvwxyz]{8}", code)
        assert counts is True


def sessions_of_today() -> list[tuple]:
    """Sessions as players leave them: (name, players, first dealer, rules, hands in play order
    as (dealer, scoring hand or None)). The long one's checkpoints are every 4th hand (301 hands:
    more than 128 twice over), so its pages of earlier hands start from one."""
    five, sits_out = scoring.Rules(misere=10), scoring.Rules(dealer_sits_out=True, rounding=10)
    four = [
        scoring.Hand(4, 2, "garde", 2, 49, petit_au_bout="attack", poignees={2: "simple"}),
        None,
        scoring.Hand(4, 3, "garde_contre", 3, 91, chelem="announced_made"),
        scoring.Hand(4, 0, "garde", 1, 20, defence_chelem=True),
        scoring.Hand(4, 1, "prise", 2, 41, chelem="announced_failed"),
    ]
    long = [
        scoring.Hand(5, n % 5, ("prise", "garde")[n % 2], n % 4, 30 + n % 50, partner=(n + 2) % 5)
        if n % 7
        else None
        for n in range(301)
    ]
    six = [
        scoring.Hand(
            6, (dealer + 1) % 6, "garde", 2, 45 + n, partner=(dealer + 3) % 6, dealer=dealer
        )
        for n, dealer in enumerate([0, 1, 2, 3])
    ]
    return [
        ("Jeudi", ["Ana", "Ben", "Chloé", "Dan"], 1, scoring.FFT, [(None, h) for h in four]),
        (
            "Long",
            ["Ana", "Ben", "Chloé", "Dan", "Élise"],
            0,
            five,
            [(None, hand) for hand in long[:-1]]
            + [(None, scoring.Hand(5, 0, "prise", 1, 51, partner=1, miseres={3: 1}))],
        ),
        (
            "Six",
            ["A", "B", "C", "D", "E", "F"],
            0,
            sits_out,
            [(d, h) for d, h in zip(range(4), six, strict=True)],
        ),
        ("Empty", ["Ana", "Ben", "Chloé"], 2, scoring.FFT, []),
    ]


def old_statistics(counters) -> dict:
    """Counters as the write path stored them before 0019: without the summary's figures, and
    with the zeros a lost contract counted (``made[contract] += 0``)."""
    data = counters.to_data()
    for name in ("chelems", "chelem_hands", "failed", "swing"):
        del data[name]
    for player in data["players"]:
        for contract in player["taken"]:
            player["made"].setdefault(contract, 0)
    return data


def every_page(client, sheet) -> dict[str, object]:
    """Every page and file of a session, as a phone or a spreadsheet reads it: HTML and CSV as
    text with what differs between two sessions (their tokens, the hands' keys, a form's key,
    the page's nonce) taken out, the spreadsheet as its cells."""
    pages = {}
    for name in ("sheet", "statistics", "chart", "summary", "print_sheet", "export_csv"):
        for prefix, token in (("", sheet.token), ("view_", sheet.view_token)):
            pages[prefix + name] = reverse(prefix + name, args=[token])
    pages["earlier"] = reverse("sheet", args=[sheet.token]) + f"?before={sheet.hand_count - 40}"
    pages["earliest"] = reverse("sheet", args=[sheet.token]) + "?before=90"
    pages["json"] = reverse("export_json", args=[sheet.token])
    found = {}
    for name, path in pages.items():
        response = client.get(path)
        assert response.status_code == 200, (name, path, response.status_code)
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text = body.decode("utf-8-sig")
        text = text.replace(sheet.token, "TOKEN").replace(sheet.view_token, "VIEW")
        text = re.sub(
            r"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}", "KEY", text
        )
        text = re.sub(r'(nonce|value)="[A-Za-z0-9+/=_-]{20,}"', r'\1="X"', text)
        text = re.sub(r'"X-CSRFToken": "[A-Za-z0-9]+"', "CSRF", text)
        text = re.sub(r"&quot;rendered&quot;: &quot;[^&]+&quot;", "RENDERED", text)
        found[name] = text
    xlsx = client.get(reverse("export_xlsx", args=[sheet.token]))
    book = openpyxl.load_workbook(io.BytesIO(b"".join(xlsx.streaming_content)))
    found["xlsx"] = [[cell.value for cell in row] for row in book.active.iter_rows()]
    return found


@pytest.mark.django_db(transaction=True)
def test_sessions_stored_with_their_running_totals_migrate_to_the_same_pages(client):
    """Sessions stored at 0014, each hand with its running totals and the sheet with the
    statistics' counters of then: after 0019 (the running totals dropped, the checkpoints and
    the summary's figures derived from what was stored), every page and file of each is the
    one the same session entered today gives, to the character."""
    old = migrate("0014_club_sheet")
    OldSheet, OldSeat, OldHand = (
        old.get_model("scoresheet", m) for m in ("Sheet", "Seat", "Hand")
    )
    made = []
    for name, players, first_dealer, rules, hands in sessions_of_today():
        seats = len(players)
        sheet = OldSheet.objects.create(
            name=name,
            first_dealer=first_dealer,
            rules=rules.to_data(),
            token=f"old-{name}",
            view_token=f"old-view-{name}",
        )
        for position, player in enumerate(players):
            OldSeat.objects.create(sheet=sheet, position=position, name=player, key=player.lower())
        counters = stats.Counters(seats)
        totals, dealer = (0,) * seats, first_dealer
        for number, (dealt_by, hand) in enumerate(hands, start=1):
            dealer = dealer if dealt_by is None else dealt_by
            hand = None if hand is None else dataclasses.replace(hand, dealer=dealer)
            row = tally.row(seats, number, dealer, hand, rules)
            counters.add(row)
            totals = tally.add(totals, row.scores)
            OldHand.objects.create(
                sheet=sheet,
                number=number,
                dealer=dealer,
                key=uuid.uuid4(),
                scores=list(row.scores),
                totals=list(totals),
                **Hand.inputs_of(hand),
            )
            dealer = tally.dealer(dealer, 2, seats)
        sheet.hand_count, sheet.totals, sheet.next_dealer = len(hands), list(totals), dealer
        sheet.statistics = old_statistics(counters)
        sheet.save()
        made.append(sheet.pk)

    migrate(None)
    moment = timezone.now()
    for pk, (name, players, first_dealer, rules, hands) in zip(
        made, sessions_of_today(), strict=True
    ):
        today = writes.create_sheet(name, players, first_dealer, rules=rules, hands=hands)
        pair = Sheet.objects.filter(pk__in=[pk, today.pk])
        pair.update(created=moment)
        Hand.objects.filter(sheet__in=pair).update(created=moment)
        migrated, today = Sheet.objects.get(pk=pk), Sheet.objects.get(pk=today.pk)
        assert not writes.rescore(migrated), name
        assert every_page(client, migrated) == every_page(client, today), name
