from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Register the Celery tasks by name: notify queues them by name, never by import.
        from . import tasks  # noqa: F401
