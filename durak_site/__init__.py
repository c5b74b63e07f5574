"""The durak_site project. The Celery app loads with Django so that tasks are registered."""

from .celery import app as celery_app

__all__ = ("celery_app",)
