"""Settings for pytest (pyproject's DJANGO_SETTINGS_MODULE): a strong random SECRET_KEY
and a VAPID key for web push, put in the environment so that the site processes the tests
start share them; computer players move without a pace (BOT_PACE_SECONDS 0) here and in
those processes, unless a test sets one."""

import base64
import os
import secrets

from cryptography.hazmat.primitives.asymmetric import ec

os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
os.environ.setdefault("VAPID_PRIVATE_KEY", base64.urlsafe_b64encode(
    ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value.to_bytes(32, "big")
).decode().rstrip("="))

os.environ.setdefault("BOT_PACE_SECONDS", "0")

# A tier run in pytest-xdist's workers (-n) on Redis: each worker, and the servers it
# starts, gets a channel-layer prefix of its own (pub/sub ignores the database number).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
if XDIST_WORKER and os.environ.get("REDIS_URL"):
    os.environ["CHANNEL_LAYER_PREFIX"] = (
        f"{os.environ.get('CHANNEL_LAYER_PREFIX', 'asgi')}-{XDIST_WORKER}")

from .settings import *  # noqa: E402, F403

if XDIST_WORKER and REDIS_URL:  # noqa: F405 - and a cache of its own on the same Redis
    CACHES["default"]["KEY_PREFIX"] = f"durak-{XDIST_WORKER}"  # noqa: F405
