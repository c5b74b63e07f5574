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


def test_one_layers_contract_places_every_module_of_games():
    """One layers contract over games, exhaustive: a new module fails `lint-imports` until it
    has its place; services sit below what a reader sees, the pages, the sockets and tasks."""
    import tomllib
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    config = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"]
    [layers] = [c for c in config["contracts"] if c["type"] == "layers"]
    assert layers["containers"] == ["games"] and layers["exhaustive"] is True
    rows = [{name.strip() for name in row.split("|")} for row in layers["layers"]]
    level = {name: depth for depth, row in enumerate(rows) for name in row}
    for above in ("present", "views", "live", "tasks"):
        assert level[above] < level["services"], above
    # the one cache helper is the floor, under the engine (docs/design.md, "One cache helper")
    assert rows[-1] == {"kept"}
    assert level["engine"] == len(rows) - 2 and {"notify", "limits"} <= rows[-2]
