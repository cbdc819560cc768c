from django.apps import AppConfig


class ScoresheetConfig(AppConfig):
    name = "scoresheet"
    verbose_name = "Tarot score sheet"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # A change of a sheet updates its club's results in the same transaction: the club
        # follows the sheets' write path, which knows nothing of clubs (docs/architecture.md).
        from django.core import signals

        from scoresheet.clubs import results
        from scoresheet.nights import tables
        from scoresheet.sheets import around, writes

        writes.after_change(results.sheet_changed, reads=["club_sheet"])
        # A club night's table plays so many deals a round, and its pages show the night:
        # the night tells the sheets which sheets are its tables (docs/club-night.md).
        around.planned_by(tables.plan_of, reads=tables.READS, follows=tables.FOLLOWS)
        # A club's ratings left waiting by a write are caught up once its request is answered.
        signals.request_started.connect(results.request_started, dispatch_uid="club-ratings")
        signals.request_finished.connect(results.request_finished, dispatch_uid="club-ratings")
