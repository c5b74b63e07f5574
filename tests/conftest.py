"""Shared fixtures: personas in the style of healthchecks' hc/test.py."""

import pytest
from django.conf import settings
from django.utils import translation

PASSWORD = "correct-horse-battery-staple"


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's language (a request in another one may have left it
    active in this thread)."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.deactivate()


@pytest.fixture
def password():
    return PASSWORD


@pytest.fixture
def alice(django_user_model):
    """A registered player with an email address."""
    return django_user_model.objects.create_user(
        username="alice", email="alice@example.org", password=PASSWORD
    )


@pytest.fixture
def bob(django_user_model):
    """Another registered player, the outsider to alice's things."""
    return django_user_model.objects.create_user(
        username="bob", email="bob@example.org", password=PASSWORD
    )


@pytest.fixture
def alice_client(client, alice):
    """A test client logged in as alice (force_login bypasses the axes backend)."""
    client.force_login(alice)
    return client


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    # PBKDF2's deliberate slowness buys nothing in tests.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _fresh_caches():
    """Every cache a process keeps (games.kept) is emptied: game ids come back in a new
    test."""
    from games import kept

    kept.forget_all()


@pytest.fixture(autouse=True)
def _fresh_limit_counts():
    """The limits (games.limits) count by player id in the cache, and ids come back in a
    new test: each test starts with an empty in-memory cache (a shared Redis is left be)."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    if isinstance(caches["default"], LocMemCache):
        caches["default"].clear()
