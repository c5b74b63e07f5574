"""Shared fixtures, in one place for every tier: personas in the style of healthchecks'
hc/test.py, seeded matches and a two-player game. A folder's conftest adds its own (its
`classic` preset, its `seed_prefix`); docs/testing.md lists them."""

import itertools
from datetime import timedelta

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
    # Argon2's deliberate cost buys nothing in tests (the site's servers keep it).
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


@pytest.fixture
def carol(django_user_model):
    """An outsider to alice's and bob's game."""
    return django_user_model.objects.create_user(username="carol", password=PASSWORD)


@pytest.fixture
def seed_prefix():
    """What seeded matches' seeds start with (a folder may name its own)."""
    return "test"


@pytest.fixture
def seeded(monkeypatch, seed_prefix):
    """Deterministic shuffles: every new match made in this process is seeded, in turn
    `<seed_prefix>-0`, `-1`, ..."""
    from games import services
    from games.engine import Match

    counter = itertools.count()

    def new_match(rules, *, deals=None, loss_limit=None):
        return Match(rules, deals=deals, loss_limit=loss_limit,
                     seed=f"{seed_prefix}-{next(counter)}")

    monkeypatch.setattr(services.lobby, "new_match", new_match)


@pytest.fixture
def duel(alice, bob, classic, seeded):
    """alice (seat 0) against bob (seat 1), playing, an hour a move; `classic` is the
    folder's preset."""
    from games import services
    from games.models import Game

    game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    return game


@pytest.fixture
def trio(alice, bob, carol, classic, seeded):
    """alice, bob and carol play a public table of three."""
    from games import services
    from games.models import Game

    game = services.create_game(alice, classic, players=3)
    services.join_game(game.pk, bob)
    services.join_game(game.pk, carol)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    return game
