"""scripts/run keeps its files to its own user: the SQLite database and its WAL, the run
folder and what is in it (secret key, admin password, logs, beat's schedule) are mode
600, folders 700, both when it makes them and when they were left readable before."""

from __future__ import annotations

import sqlite3
import stat
import subprocess
from pathlib import Path

import pytest

from .test_run_supervisor import RUN, Site, wait_for


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def open_to_others(folder: Path, db: Path) -> dict[str, str]:
    found = {}
    paths = [folder, *folder.rglob("*"), *db.parent.glob(db.name + "*")]
    for path in paths:
        if path.exists() and mode(path) & 0o077:
            found[str(path)] = oct(mode(path))
    return found


@pytest.mark.integration  # starts scripts/run: the second tier
def test_the_database_and_the_run_folder_are_private(tmp_path):
    run_dir, db = tmp_path / "run", tmp_path / "db.sqlite3"
    site = Site(tmp_path)
    try:
        site.wait_until_served()
        assert site.proc.poll() is None
        wait_for(lambda: list(run_dir.glob("celerybeat-schedule*")), 30,
                 "beat made no schedule file")
        assert db.exists() and Path(f"{db}-wal").exists()
        assert (run_dir / "secret-key").exists() and (run_dir / "admin-password").exists()
        assert not open_to_others(run_dir, db), open_to_others(run_dir, db)
        assert mode(run_dir) == 0o700 and mode(db) == 0o600
    finally:
        site.close()


@pytest.mark.integration  # starts scripts/run: the second tier
def test_files_left_readable_by_an_earlier_run_are_made_private(tmp_path):
    run_dir, db = tmp_path / "run", tmp_path / "db.sqlite3"
    run_dir.mkdir()
    run_dir.chmod(0o755)
    with sqlite3.connect(db) as conn:  # a database an earlier run left readable
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("CREATE TABLE earlier (x)")
    conn.close()
    (run_dir / "admin-password").write_text("kept-from-an-earlier-run\n")
    (run_dir / "supervise.log").write_text("")
    for path in (db, run_dir / "admin-password", run_dir / "supervise.log"):
        path.chmod(0o644)
    site = Site(tmp_path)
    try:
        site.wait_until_served()
        assert Path(f"{db}-wal").exists()
        assert not open_to_others(run_dir, db), open_to_others(run_dir, db)
    finally:
        site.close()


def test_the_run_command_names_the_sqlite_files_it_guards():
    """The default database (in the checkout) and DATABASE_URL's SQLite file."""
    def path_for(**env):
        result = subprocess.run(["bash", "-c", f'source "{RUN}"; sqlite_path'],
                                capture_output=True, text=True,
                                env={"PATH": "/usr/bin:/bin", **env}, check=True)
        return result.stdout.strip()

    assert path_for() == f"{RUN.parents[1]}/db.sqlite3"
    assert path_for(DATABASE_URL="sqlite:////srv/x/db.sqlite3") == "/srv/x/db.sqlite3"
    assert path_for(DATABASE_URL="postgres://u@h/db") == ""
