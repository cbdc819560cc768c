from django.apps import AppConfig


class ScoresheetConfig(AppConfig):
    name = "scoresheet"
    verbose_name = "Tarot score sheet"
    default_auto_field = "django.db.models.BigAutoField"
