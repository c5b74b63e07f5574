"""Ready a fresh site: an admin account (printing how to log in) and the rule presets, and
the computer players' measured runs on every kind of table (docs/arena/tables/) kept for
the ladder page.

Idempotent: run by scripts/run at every start; the password is printed only when the
admin is made. The presets come from the data migration;
the admin's password comes from ADMIN_PASSWORD, or is made up once and kept in
$RUN_DIR/admin-password (RUN_DIR: .run) so it stays the same between runs.
"""

import os
import secrets
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from games.models import RulePreset


class Command(BaseCommand):
    help = "Create the admin account if missing and report the presets and bots on offer."

    def handle(self, *args, **options):
        username = settings.ADMIN_USERNAME
        password = settings.ADMIN_PASSWORD or self._stored_password()
        players = get_user_model()
        admin = players.objects.filter(username=username).first()
        created = admin is None
        if admin is None:
            admin = players.objects.create_superuser(username, f"{username}@localhost", password)
            self.stdout.write(f"Created the admin account '{username}'.")
        elif settings.ADMIN_PASSWORD:
            admin.set_password(password)
            admin.save(update_fields=["password"])
        presets = RulePreset.objects.filter(active=True).order_by("position", "name")
        self.stdout.write("Presets on offer: " + ", ".join(p.name for p in presets))
        self.stdout.write("Computer players: easy, medium, hard, expert (choose when creating a game).")
        measured = sorted(str(p) for p in (Path(settings.BASE_DIR) / "docs" / "arena" / "tables").glob("*.jsonl"))
        if measured:  # the ladder page's "Expert at other tables" (docs/arena/tables.md)
            call_command("bot_ladder", load=measured, stdout=self.stdout)
        login = f"Log in at {settings.SITE_URL.rstrip('/')}/accounts/login/ as '{username}'"
        if created:  # the password is printed once, when the account is made
            self.stdout.write(f"{login} with password '{password}' (admin: /admin/).")
        else:
            self.stdout.write(f"{login} (admin: /admin/; the password was printed when the "
                              f"account was made, or set it with ADMIN_PASSWORD).")

    def _stored_password(self) -> str:
        path = Path(settings.RUN_DIR) / "admin-password"  # as scripts/run
        if path.exists():
            return path.read_text().strip()
        path.parent.mkdir(parents=True, exist_ok=True)
        password = secrets.token_urlsafe(12)
        with os.fdopen(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            f.write(password + "\n")  # readable by its owner only, from the start
        return password
