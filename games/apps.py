"""The games app: on start it registers the Celery tasks (queued by name) and connects
the signals that close a user's sockets on log-out or a change to the account."""

from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self):
        # Register the Celery tasks by name: notify queues them by name, never by import.
        # Log-out, a new password or a closed account closes the user's sockets.
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save

        from . import tasks  # noqa: F401
        from .notify import logged_out, user_saved

        user_logged_out.connect(logged_out, dispatch_uid="games-sockets-logout")
        post_save.connect(user_saved, sender=get_user_model(), dispatch_uid="games-sockets-user")
