"""Each hand's number, dealer and row of scores, and each sheet's totals, stored.

Until now hands were numbered by insertion order and dealt in turn from the first dealer, and
every score was computed when shown. This fills the new fields with exactly that: the number
and dealer each hand had, and its row under the FFT rules (the only rules there were).
"""

from django.db import migrations, models


def fill(apps, schema_editor):
    from scoresheet import scoring, stats
    from scoresheet import sheet as sheets

    Sheet = apps.get_model("scoresheet", "Sheet")
    Hand = apps.get_model("scoresheet", "Hand")
    for sheet in Sheet.objects.all().iterator():
        players = sheet.seats.count()
        hands = list(Hand.objects.filter(sheet=sheet).order_by("id"))
        counters = stats.Counters(players)
        totals = (0,) * players
        for number, hand in enumerate(hands, start=1):
            dealer = sheets.dealer(sheet.first_dealer, number, players)
            played = None
            if not hand.passed:
                played = scoring.Hand(
                    seats=players,
                    taker=hand.taker,
                    contract=hand.contract,
                    bouts=hand.bouts,
                    points=hand.points,
                    partner=hand.partner,
                    petit_au_bout=hand.petit_au_bout or None,
                    poignees={int(seat): size for seat, size in hand.poignees.items()},
                    chelem=hand.chelem or None,
                    defence_chelem=hand.defence_chelem,
                )
            row = sheets.row(players, number, dealer, played)
            counters.add(row)
            totals = sheets.add(totals, row.scores)
            hand.number, hand.dealer = number, dealer
            hand.scores, hand.totals = list(row.scores), list(totals)
        Hand.objects.bulk_update(hands, ["number", "dealer", "scores", "totals"], batch_size=500)
        sheet.hand_count = len(hands)
        sheet.totals = list(totals)
        sheet.next_dealer = sheets.dealer(sheet.first_dealer, len(hands) + 1, players)
        sheet.statistics = counters.to_data()
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
