"""The migrations stand on their own: none imports the app's code (what a data migration needs
is frozen in it), and a database holding sessions and clubs from before the stored scores and
the stored club results migrates forward to exactly what the app computes today."""

import ast
import re
import uuid
from decimal import Decimal
from pathlib import Path

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

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
    first = Hand.objects.get(sheet_id=made[0], number=1)
    assert (first.dealer, first.scores) == (1, [-106, -106, 318, -106])
    # The deal moves on after each hand, passed or not.
    assert list(
        Hand.objects.filter(sheet_id=made[1]).order_by("number").values_list("dealer", flat=True)
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
