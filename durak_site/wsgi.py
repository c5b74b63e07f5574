"""WSGI entry point (plain HTTP only; the site normally runs under Daphne via asgi.py)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")

application = get_wsgi_application()
