"""Settings for pytest (pyproject's DJANGO_SETTINGS_MODULE): a strong random SECRET_KEY,
put in the environment so that the site processes the tests start share it."""

import os
import secrets

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))

from .settings import *  # noqa: E402, F403
