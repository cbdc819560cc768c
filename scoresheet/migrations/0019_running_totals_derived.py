"""A hand's running totals are no longer stored: a page adds them up from the sheet's totals,
or from its checkpoints (the running totals after every k-th hand, kept with the sheet), so
that a correction, a deletion or an undo writes nothing of the hands after it.

Each sheet gets its checkpoints from the running totals its hands stored, and its statistics'
counters the summary's figures they now keep (the hands with a chelem made and their numbers,
those announced and failed, the biggest swing), from its stored rows, and the form they now have (no zero counted,
no first hand for a run that ended); then ``Hand.totals`` goes, and with it the
index of ``Hand.sheet`` alone, which the index (sheet, number) serves. What this computes is
frozen here (``tally.Checkpoints``, ``stats.Counters``): the migration imports nothing of the
app. Going back fills ``Hand.totals`` again from the scores.
"""

from django.db import migrations, models

# tally.CHECKPOINTS
CHECKPOINTS = 128
MADE_CHELEMS = ("announced_made", "unannounced_made")


def every_for(count: int) -> int:
    """The smallest power of two that keeps at most CHECKPOINTS checkpoints (tally.Checkpoints:
    it doubles when a hand would make one more)."""
    every = 1
    while count // every > CHECKPOINTS:
        every *= 2
    return every


def counted(value):
    """stats.Counters.to_data: a counter keeps what was counted at least once."""
    if isinstance(value, dict):
        return {key: count for key, count in value.items() if count}
    return value


def seat_counts(player: dict) -> dict:
    """stats.SeatCounts.to_data: no zero counted, and no first hand for a run that ended."""
    found = {name: counted(value) for name, value in player.items()}
    if not found["run"]:
        found["run_first"] = 0
    return found


def forward(apps, schema_editor):
    Sheet = apps.get_model("scoresheet", "Sheet")
    Hand = apps.get_model("scoresheet", "Hand")
    for sheet in Sheet.objects.all().iterator():
        hands = Hand.objects.filter(sheet_id=sheet.pk).order_by("number", "id")
        columns = ("number", "dealer", "passed", "chelem", "defence_chelem", "scores", "totals")
        rows = list(hands.values_list(*columns))
        every = every_for(len(rows))
        sheet.checkpoints = {
            "every": every,
            "totals": [list(row[-1]) for row in rows[every - 1 :: every]][:CHECKPOINTS],
        }
        if sheet.statistics:
            sits_out = bool((sheet.rules or {}).get("dealer_sits_out", False))
            chelems = failed = 0
            chelem_hands = []
            swing = None
            for number, dealer, passed, chelem, defence, scores, _totals in rows:
                if chelem in MADE_CHELEMS or bool(defence):
                    chelems += 1
                    chelem_hands.append(number)
                failed += chelem == "announced_failed"
                if passed:
                    continue
                # stats.Swing: the widest gap, the earliest on a tie.
                gap = max(scores) - min(scores)
                if swing is None or gap > max(swing[1]) - min(swing[1]):
                    swing = [number, list(scores), dealer if sits_out else None]
            sheet.statistics = {
                **sheet.statistics,
                "players": [seat_counts(player) for player in sheet.statistics["players"]],
                "contracts": counted(sheet.statistics["contracts"]),
                "chelems": chelems,
                "chelem_hands": chelem_hands,
                "failed": failed,
                "swing": swing,
            }
        sheet.save(update_fields=["checkpoints", "statistics"])


def backward(apps, schema_editor):
    Sheet = apps.get_model("scoresheet", "Sheet")
    Hand = apps.get_model("scoresheet", "Hand")
    for sheet in Sheet.objects.all().iterator():
        totals = None
        for hand in Hand.objects.filter(sheet_id=sheet.pk).order_by("number", "id"):
            totals = [t + s for t, s in zip(totals or [0] * len(hand.scores), hand.scores)]
            hand.totals = totals
            hand.save(update_fields=["totals"])
        statistics = {
            name: value
            for name, value in (sheet.statistics or {}).items()
            if name not in ("chelems", "chelem_hands", "failed", "swing")
        }
        Sheet.objects.filter(pk=sheet.pk).update(statistics=statistics)


class Migration(migrations.Migration):
    dependencies = [
        ("scoresheet", "0018_club_ratings_rated_later"),
    ]

    operations = [
        migrations.AddField(
            model_name="sheet",
            name="checkpoints",
            field=models.JSONField(default=dict, editable=False),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(model_name="hand", name="totals"),
        migrations.AlterField(
            model_name="hand",
            name="sheet",
            field=models.ForeignKey(
                db_index=False,
                on_delete=models.deletion.CASCADE,
                related_name="hands",
                to="scoresheet.sheet",
            ),
        ),
    ]
