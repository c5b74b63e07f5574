"""The newcomer's start (setup_site) and the production settings (check --deploy)."""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_setup_site_creates_the_admin_once_and_prints_how_to_log_in(settings):
    settings.ADMIN_PASSWORD = "a-fine-admin-password"  # ADMIN_PASSWORD in the environment
    out = StringIO()
    call_command("setup_site", stdout=out)
    call_command("setup_site", stdout=out)
    admins = get_user_model().objects.filter(username="admin")
    assert admins.count() == 1
    admin = admins.get()
    assert admin.is_superuser and admin.check_password("a-fine-admin-password")
    text = out.getvalue()
    assert "'admin' with password 'a-fine-admin-password'" in text
    assert "Classic" in text and "Perevodnoy" in text  # the seeded presets


@pytest.mark.django_db
def test_setup_site_prints_the_admin_password_only_when_it_makes_the_admin(settings):
    settings.ADMIN_PASSWORD = "a-fine-admin-password"
    first, second = StringIO(), StringIO()
    call_command("setup_site", stdout=first)
    call_command("setup_site", stdout=second)
    assert "a-fine-admin-password" in first.getvalue()
    assert "a-fine-admin-password" not in second.getvalue()
    assert "/accounts/login/" in second.getvalue()


def test_check_deploy_passes_with_production_settings():
    env = {
        **os.environ,
        "DEBUG": "false",
        "SECRET_KEY": "c2Vv9-QmT0xJr7LpZk4WbHs1NyEd8GfUa3Oi_6qYnXwRtS5jMgCz0KeVhDlBuP7oAi-Fq",
        "ALLOWED_HOSTS": "durak.example.org",
        "SITE_URL": "https://durak.example.org",
        "EMAIL_URL": "smtp://mailer:secret@mail.example.org:587",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
    }
    env.pop("DATABASE_URL", None)
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def settings_with(**env) -> dict:
    """A few settings as a fresh process reads them from `env` (no DEBUG, SITE_URL unset)."""
    env = {**{k: v for k, v in os.environ.items() if k not in ("DEBUG", "SITE_URL")}, **env}
    code = ("import json; from django.conf import settings as s; print(json.dumps({k: "
            "getattr(s, k, None) for k in ('DEBUG', 'SESSION_COOKIE_SECURE', "
            "'CSRF_COOKIE_SECURE', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS')}))")
    result = subprocess.run(
        [sys.executable, "-c", "import django; django.setup(); " + code], cwd=ROOT,
        env={**env, "DJANGO_SETTINGS_MODULE": "durak_site.settings"},
        capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_debug_is_off_unless_asked_and_plain_http_keeps_working():
    found = settings_with()
    assert found == {"DEBUG": False, "SESSION_COOKIE_SECURE": False, "CSRF_COOKIE_SECURE": False,
                     "SECURE_SSL_REDIRECT": False, "SECURE_HSTS_SECONDS": 0}
    assert settings_with(DEBUG="true")["DEBUG"] is True


def test_https_follows_site_url_not_debug():
    found = settings_with(SITE_URL="https://durak.example.org", DEBUG="true")
    assert found["SESSION_COOKIE_SECURE"] and found["CSRF_COOKIE_SECURE"]
    assert found["SECURE_SSL_REDIRECT"] and found["SECURE_HSTS_SECONDS"] == 31536000
