"""Each hand's number, dealer and row of scores, and each sheet's totals, stored.

Until now hands were numbered by insertion order and dealt in turn from the first dealer, and
every score was computed when shown. This fills the new fields with exactly that: the number
and dealer each hand had, and its row under the FFT rules (the only rules there were).
"""

import math
from decimal import Decimal

from django.db import migrations, models

# What this migration needs of the rules and the statistics, frozen as they were when it was
# written (scoresheet/scoring.py, tally.py, stats.py): no migration imports the app's code, so
# that code can change shape without breaking a fresh ``migrate``. Every session then played
# the FFT's rules at 3, 4 or 5 players, without misère; its stored hands had passed the rules.
TARGETS = {0: 56, 1: 51, 2: 41, 3: 36}
MULTIPLIERS = {"prise": 1, "garde": 2, "garde_sans": 4, "garde_contre": 6}
POIGNEES = {"simple": 20, "double": 30, "triple": 40}
CHELEMS = {"announced_made": 400, "unannounced_made": 200, "announced_failed": -200}
MADE_CHELEMS = ("announced_made", "unannounced_made")


def scored(players: int, hand) -> tuple[bool, int, list[int]]:
    """A stored hand under the FFT's rules: made, the value per defender, each seat's score."""
    target = TARGETS[hand.bouts]
    points = Decimal(hand.points)
    made = points >= target
    # The half point goes to the winning camp: the difference is rounded up.
    diff = math.ceil(abs(points - target))
    sign = 1 if made else -1
    multiplier = MULTIPLIERS[hand.contract]
    petit = {"": 0, "attack": 10, "defence": -10}[hand.petit_au_bout or ""] * multiplier
    poignees = sign * sum(POIGNEES[size] for size in hand.poignees.values() if size)
    chelem = CHELEMS.get(hand.chelem or "", 0)
    defence_chelem = -200 if hand.defence_chelem else 0
    value = sign * (25 + diff) * multiplier + petit + poignees + chelem + defence_chelem
    scores = [-value] * players
    if hand.partner is not None:
        scores[hand.taker] = 2 * value
        scores[hand.partner] = value
    else:
        scores[hand.taker] = (players - 1) * value
    return made, value, scores


def no_counters(players: int) -> dict:
    """The statistics' counters of a session without a hand (stats.Counters.to_data())."""
    return {
        "players": [new_tally() for _seat in range(players)],
        "contracts": {},
        "hands": 0,
        "passed": 0,
        "biggest": None,
    }


def new_tally() -> dict:
    """One player's counters before any hand."""
    return {
        "taken": {},
        "made": {},
        "taker_total": 0,
        "defended": 0,
        "defender_total": 0,
        "called": 0,
        "petits_won": 0,
        "petits_lost": 0,
        "poignees": {},
        "chelems_made": 0,
        "chelems_failed": 0,
        "defence_chelems": 0,
        # The current run of positive scores, and the longest one: [length, first, last].
        "run": 0,
        "run_first": 0,
        "best": [0, 0, 0],
    }


def count(counters: dict, number: int, hand, made: bool, value: int, scores: list[int]) -> None:
    """Fold hand ``number`` (the next in play order; None: passed) into the counters, as
    stats.Counters.add did."""
    counters["hands"] += 1
    if hand is None:
        counters["passed"] += 1
        return
    contract, taker, partner = hand.contract, hand.taker, hand.partner
    counters["contracts"][contract] = counters["contracts"].get(contract, 0) + 1
    biggest = counters["biggest"]
    if biggest is None or abs(value) > abs(biggest["per_defender"]):
        counters["biggest"] = {
            "number": number,
            "taker": taker,
            "partner": partner,
            "contract": contract,
            "made": made,
            "per_defender": value,
            "scores": list(scores),
        }
    tallies = counters["players"]
    for seat, size in hand.poignees.items():
        if size:
            poignees = tallies[int(seat)]["poignees"]
            poignees[size] = poignees.get(size, 0) + 1
    for seat, (tally, score) in enumerate(zip(tallies, scores, strict=True)):
        count_seat(tally, seat, hand, made, score)
        count_run(tally, number, score)


def count_seat(tally: dict, seat: int, hand, made: bool, score: int) -> None:
    """One seat's counters after a played hand: its role, the petit au bout and the chelems."""
    contract, taker, partner = hand.contract, hand.taker, hand.partner
    attack = seat in (taker, partner)
    if seat == taker:
        tally["taken"][contract] = tally["taken"].get(contract, 0) + 1
        tally["made"][contract] = tally["made"].get(contract, 0) + made
        tally["taker_total"] += score
    elif seat == partner:
        tally["called"] += 1
    else:
        tally["defended"] += 1
        tally["defender_total"] += score
    if hand.petit_au_bout:
        won = hand.petit_au_bout == ("attack" if attack else "defence")
        tally["petits_won"] += won
        tally["petits_lost"] += not won
    if attack:
        tally["chelems_made"] += hand.chelem in MADE_CHELEMS
        tally["chelems_failed"] += hand.chelem == "announced_failed"
    else:
        tally["defence_chelems"] += hand.defence_chelem


def count_run(tally: dict, number: int, score: int) -> None:
    """A seat's current run of positive scores, and its longest: [length, first, last]."""
    if score <= 0:
        tally["run"] = 0
        return
    if not tally["run"]:
        tally["run_first"] = number
    tally["run"] += 1
    if tally["run"] > tally["best"][0]:
        tally["best"] = [tally["run"], tally["run_first"], number]


def fill(apps, schema_editor):
    Sheet = apps.get_model("scoresheet", "Sheet")
    Hand = apps.get_model("scoresheet", "Hand")
    for sheet in Sheet.objects.all().iterator():
        players = sheet.seats.count()
        hands = list(Hand.objects.filter(sheet=sheet).order_by("id"))
        counters = no_counters(players)
        totals = [0] * players
        for number, hand in enumerate(hands, start=1):
            # Dealt in turn from the first dealer.
            dealer = (sheet.first_dealer + number - 1) % players
            if hand.passed:
                scores = [0] * players
                count(counters, number, None, False, 0, scores)
            else:
                made, value, scores = scored(players, hand)
                count(counters, number, hand, made, value, scores)
            totals = [total + score for total, score in zip(totals, scores, strict=True)]
            hand.number, hand.dealer = number, dealer
            hand.scores, hand.totals = scores, list(totals)
        Hand.objects.bulk_update(hands, ["number", "dealer", "scores", "totals"], batch_size=500)
        sheet.hand_count = len(hands)
        sheet.totals = totals
        sheet.next_dealer = (sheet.first_dealer + len(hands)) % players
        sheet.statistics = counters
        sheet.save(update_fields=["hand_count", "totals", "next_dealer", "statistics"])


class Migration(migrations.Migration):
    dependencies = [("scoresheet", "0003_sheet_revision_and_orderings")]

    operations = [
        migrations.AddField("sheet", "rules", models.JSONField(blank=True, default=dict, editable=False)),
        migrations.AddField("sheet", "hand_count", models.PositiveIntegerField(default=0, editable=False)),
        migrations.AddField("sheet", "totals", models.JSONField(default=list, editable=False)),
        migrations.AddField("sheet", "next_dealer", models.PositiveSmallIntegerField(default=0, editable=False)),
        migrations.AddField("sheet", "statistics", models.JSONField(default=dict, editable=False)),
        migrations.AddField("hand", "number", models.PositiveIntegerField(default=0, editable=False), preserve_default=False),
        migrations.AddField("hand", "dealer", models.PositiveSmallIntegerField(default=0, verbose_name="dealer"), preserve_default=False),
        migrations.AddField("hand", "scores", models.JSONField(default=list, editable=False)),
        migrations.AddField("hand", "totals", models.JSONField(default=list, editable=False)),
        migrations.RunPython(fill, migrations.RunPython.noop, elidable=True),
        migrations.RemoveIndex("hand", "hand_play_order"),
        migrations.AddIndex("hand", models.Index(fields=["sheet", "number"], name="hand_number")),
        migrations.AlterModelOptions("hand", {"ordering": ["number"]}),
    ]
