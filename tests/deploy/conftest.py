"""The deployment tier (mark `integration`: scripts/test runs it in the second tier with
PostgreSQL and Redis): deploy/'s recipe, started by tests/deploy/recipe.py.

The integration tier's fixtures (a test database the processes share, `procs`, players,
a seeded duel) are imported from there.
"""

import os
import subprocess
import sys

import pytest
from django.conf import settings

from tests.integration.conftest import (  # noqa: F401 - fixtures
    classic,
    procs,
    real_services,
    seed_prefix,
    site_env,
)
from tests.integration.procs import ROOT

from .recipe import Recipe


@pytest.fixture(scope="session")
def static_root(tmp_path_factory):
    """`manage.py collectstatic` with hashed names, as the recipe's install step."""
    root = tmp_path_factory.mktemp("static")
    result = subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--noinput"], cwd=ROOT,
        env={**os.environ, "STATIC_ROOT": str(root), "STATIC_HASHED": "true",
             "DJANGO_SETTINGS_MODULE": "durak_site.settings"},
        capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return root


@pytest.fixture
def recipe(procs, tmp_path, static_root) -> Recipe:  # noqa: F811 - `procs` is a fixture
    """The recipe with a Redis of its own (a test may kill it)."""
    return Recipe(procs, tmp_path, static_root).start()


@pytest.fixture
def shared_recipe(procs, tmp_path, static_root) -> Recipe:  # noqa: F811 - `procs` is a fixture
    """The recipe on the tier's Redis, which the test process uses too (for Celery)."""
    return Recipe(procs, tmp_path, static_root, redis_url=settings.REDIS_URL).start()
