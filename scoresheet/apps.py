from django.apps import AppConfig


class ScoresheetConfig(AppConfig):
    name = "scoresheet"
    verbose_name = "Tarot score sheet"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # A change of a sheet updates its club's results in the same transaction: the club
        # follows the sheets' write path, which knows nothing of clubs (docs/architecture.md).
        from scoresheet.clubs import results
        from scoresheet.sheets import writes

        writes.after_change(results.sheet_changed, reads=["club_sheet"])
