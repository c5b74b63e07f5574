"""The project as a whole: system checks, migrations, the user model, the middleware's
order, the ASGI application, email settings and the import contracts."""

from io import StringIO

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command


@pytest.mark.django_db  # JSONField's check asks the database whether it supports JSON
def test_it_passes_system_checks():
    out = StringIO()
    call_command("check", stdout=out)
    assert "no issues" in out.getvalue()


@pytest.mark.django_db
def test_it_has_no_missing_migrations():
    # Raises SystemExit(1) when a model change has no migration.
    call_command("makemigrations", "--check", "--dry-run", stdout=StringIO())


def test_it_uses_the_player_as_user_model():
    assert settings.AUTH_USER_MODEL == "accounts.Player"
    assert get_user_model() is apps.get_model("accounts", "Player")


def test_it_puts_axes_first_and_last():
    assert settings.AUTHENTICATION_BACKENDS[0].startswith("axes.")
    assert settings.MIDDLEWARE[-1] == "axes.middleware.AxesMiddleware"
    assert settings.INSTALLED_APPS[0] == "daphne"


def test_it_serves_the_asgi_application():
    from channels.routing import ProtocolTypeRouter
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from durak_site.asgi import application
    from durak_site.bodylimit import BodyLimit

    assert isinstance(application, ProtocolTypeRouter)
    # A body over the limit is refused first; then Daphne serves /static/ itself by
    # default (SERVE_STATIC).
    http = application.application_mapping["http"]
    assert isinstance(http, BodyLimit)
    assert isinstance(http.application, ASGIStaticFilesHandler)


def test_it_prints_email_to_the_console_by_default():
    from durak_site.settings import mailer

    assert mailer("") == {"BACKEND": "django.core.mail.backends.console.EmailBackend"}


def test_it_reads_smtp_settings_from_email_url():
    from durak_site.settings import mailer

    options = mailer("smtps://me%40example.org:s3cret@mail.example.org:465")["OPTIONS"]
    assert options == {
        "host": "mail.example.org",
        "port": 465,
        "username": "me@example.org",
        "password": "s3cret",
        "use_ssl": True,
        "use_tls": False,
    }
    with pytest.raises(ValueError, match="EMAIL_URL"):
        mailer("http://mail.example.org")


def test_the_import_contracts_name_every_module_of_games():
    """The engine, bots and notify contracts list games' modules one by one: a new module
    must be added there, or it could be imported where the layering forbids."""
    import pkgutil
    import tomllib
    from pathlib import Path

    import games

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"]
    contracts = {tuple(c["source_modules"]): c for c in config["contracts"]
                 if c["type"] == "forbidden"}
    modules = {f"games.{m.name}" for m in pkgutil.iter_modules(games.__path__)}
    assert {"games.engine", "games.services", "games.notify", "games.bots"} <= modules
    for source in ("games.engine", "games.bots", "games.notify"):
        forbidden = set(contracts[(source,)]["forbidden_modules"])
        allowed = {source} | ({"games.engine"} if source == "games.bots" else set())
        assert modules - allowed <= forbidden, f"{source} may import {modules - allowed - forbidden}"
    assert "django" in contracts[("games.engine",)]["forbidden_modules"]
    services = set(contracts[("games.services",)]["forbidden_modules"])
    assert services == {"games.present", "games.views", "games.live", "games.tasks"}
    assert contracts[("games.live",)]["forbidden_modules"] == ["games.views"]
    assert any(c["type"] == "acyclic_siblings" and c["ancestors"] == ["games"]
               for c in config["contracts"])
