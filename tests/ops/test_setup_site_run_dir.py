"""setup_site keeps the made-up admin password in RUN_DIR, where scripts/run keeps its files."""

import stat
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.django_db
def test_setup_site_keeps_the_admin_password_in_run_dir(settings, tmp_path):
    run_dir = tmp_path / "elsewhere" / "run"
    settings.RUN_DIR, settings.ADMIN_PASSWORD = run_dir, ""  # as from the environment
    repo_file = ROOT / ".run" / "admin-password"
    before = repo_file.stat().st_mtime_ns if repo_file.exists() else None

    out = StringIO()
    call_command("setup_site", stdout=out)

    stored = run_dir / "admin-password"
    assert stored.exists(), "the password file is not in RUN_DIR"
    password = stored.read_text().strip()
    assert len(password) >= 12
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert f"with password '{password}'" in out.getvalue()
    assert get_user_model().objects.get(username="admin").check_password(password)
    # The checkout's own .run/ was left alone.
    assert (repo_file.stat().st_mtime_ns if repo_file.exists() else None) == before


@pytest.mark.django_db
def test_setup_site_reads_the_same_password_from_run_dir_next_time(settings, tmp_path):
    settings.RUN_DIR, settings.ADMIN_PASSWORD = tmp_path, ""
    (tmp_path / "admin-password").write_text("kept-from-an-earlier-run\n")
    call_command("setup_site", stdout=StringIO())
    assert get_user_model().objects.get(username="admin").check_password(
        "kept-from-an-earlier-run")
