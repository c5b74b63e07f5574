"""deploy/'s files agree with the recipe tests/deploy/ runs (fast tier: nothing started):
the systemd units start Daphne and Celery as recipe.py does, the environment file sets
what the tier sets and passes `check --deploy`, and envsubst is told every placeholder."""

import os
import re
import subprocess
import sys
from pathlib import Path

from .recipe import CELERY, DAPHNE_FLAGS, PLACEHOLDER, PRODUCTION_ENV, TEMPLATE, WORKER_QUEUES

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def exec_start(unit: str) -> str:
    text = (DEPLOY / "systemd" / unit).read_text()
    return re.search(r"^ExecStart=(.+)$", text, re.M).group(1)


def env_example() -> dict[str, str]:
    lines = (DEPLOY / "durak.env.example").read_text().splitlines()
    return dict(line.split("=", 1) for line in lines if line and not line.startswith("#"))


def test_the_units_start_daphne_and_celery_as_the_tested_recipe_does():
    assert " ".join(["daphne", *DAPHNE_FLAGS, "-p", "%i"]) in exec_start("durak-daphne@.service")
    assert " ".join(["celery", *CELERY, "beat"]) in exec_start("durak-beat.service")
    for role, queues in WORKER_QUEUES.items():
        assert " ".join(["celery", *CELERY, "worker", "-Q", queues]) in exec_start(
            f"durak-{role}.service")
    assert set(WORKER_QUEUES.values()) == set(procfile_worker_queues().values())


def procfile_worker_queues() -> dict[str, str]:
    """scripts/run's workers (Procfile) and the queues each takes."""
    found = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        if m := re.match(r"(\w+): celery .*\bworker\b.* -Q (\S+)", line):
            found[m.group(1)] = m.group(2)
    return found


def test_every_queue_the_site_routes_to_has_a_worker_in_every_recipe():
    """A task routed to a queue nobody consumes would wait for ever: every queue is taken
    by a worker of scripts/run, of the systemd units and of compose.yaml."""
    from django.conf import settings

    routed = {route["queue"] for route in settings.CELERY_TASK_ROUTES.values()}
    routed.add(settings.CELERY_TASK_DEFAULT_QUEUE)
    assert routed == set(settings.CELERY_TASK_QUEUES)
    units = " ".join(exec_start(f"durak-{role}.service") for role in WORKER_QUEUES)
    compose = (DEPLOY / "compose.yaml").read_text()
    for recipe in (",".join(procfile_worker_queues().values()), units, compose):
        taken = set(",".join(re.findall(r" -Q (\S+)", recipe) or [recipe]).split(","))
        assert routed <= taken, (routed, recipe)
    # Bot moves have a worker of their own.
    play = settings.CELERY_TASK_ROUTES["games.tasks.bot_turn"]["queue"]
    assert settings.CELERY_TASK_ROUTES["games.tasks.sweep_deadlines"]["queue"] == play
    assert [q for q in procfile_worker_queues().values() if play in q.split(",")] == [play]


def test_the_containers_run_the_same_processes_with_the_same_flags():
    """deploy/Dockerfile and compose.yaml are not run here (no container runtime): at
    least their commands and environment are the tested recipe's."""
    compose = (DEPLOY / "compose.yaml").read_text()
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    # In a container Daphne listens on the container network (only nginx reaches it).
    flags = [flag if flag != "127.0.0.1" else "0.0.0.0" for flag in DAPHNE_FLAGS]
    assert compose.count(" ".join(["daphne", *flags, "-p", "8000"])) == 2  # two of them
    assert '"daphne", ' + ", ".join(f'"{flag}"' for flag in flags) in dockerfile
    assert " ".join(["celery", *CELERY, "beat"]) in compose
    for queues in WORKER_QUEUES.values():
        assert " ".join(["celery", *CELERY, "worker", "-Q", queues]) in compose
    for key, value in PRODUCTION_ENV.items():
        assert f"{key}={value}" in dockerfile
    assert "nginx-durak.conf.template:/etc/nginx/templates/" in compose
    assert set(PLACEHOLDER.findall(TEMPLATE.read_text())) <= set(re.findall(r"(DURAK_\w+):", compose))


def test_the_environment_file_sets_what_the_tier_runs_with():
    env = env_example()
    assert {key: env[key] for key in PRODUCTION_ENV} == PRODUCTION_ENV
    assert env["SECRET_KEY"] == ""  # each site makes its own


def run_check(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env={**os.environ, "DJANGO_SETTINGS_MODULE": "durak_site.settings",
                       **env}, capture_output=True, text=True, timeout=120)


def test_check_deploy_passes_with_the_environment_file_and_a_secret_key():
    env = env_example()
    refused = run_check({**env, "DEBUG": "false"})
    assert refused.returncode != 0 and "SECRET_KEY is missing or weak" in refused.stderr
    passed = run_check({**env, "DEBUG": "false",
                        "SECRET_KEY": "c2Vv9-QmT0xJr7LpZk4WbHs1NyEd8GfUa3Oi_6qYnXwRtS5jMgCz0KeVhDlBuP7oAi-Fq"})
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "no issues" in passed.stdout


def test_envsubst_is_told_every_placeholder_of_the_nginx_template():
    text = TEMPLATE.read_text()
    placeholders = set(PLACEHOLDER.findall(text))
    told = re.search(r"envsubst '([^']+)'", text.replace("#", "").replace("\n", " "))
    assert set(re.findall(r"\$\{(\w+)\}", told.group(1))) == placeholders
    recipe = (ROOT / "docs" / "deployment.md").read_text()
    told = re.search(r"envsubst '([^']+)'", recipe)
    assert told, "docs/deployment.md shows the envsubst command"
    assert set(re.findall(r"\$\{(\w+)\}", told.group(1))) == placeholders
