"""A real Celery worker whose bots take their time and say when they start thinking.

    python -m tests.integration.slow_bot_worker -A durak_site worker ...

Before the worker starts, `games.services.botplay.bot_action` is wrapped: it appends one JSON line
to $TEST_BOT_TRACE (the task's id, arguments and whether the broker redelivered it), then
sleeps $TEST_BOT_THINK_SECONDS before the real bot chooses (on a task's first delivery
only: a redelivered task thinks at once). A test can then kill the
worker while a bot is known to be mid-move (test_worker_death.py). Everything else is the
site's own worker.
"""

import json
import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "durak_site.settings")
django.setup()

from celery import current_task  # noqa: E402

from games import services  # noqa: E402

THINK_SECONDS = float(os.environ.get("TEST_BOT_THINK_SECONDS", "0"))
TRACE = os.environ.get("TEST_BOT_TRACE", "")
real_bot_action = services.botplay.bot_action


def slow_bot_action(level, view):
    request = current_task.request if current_task else None
    delivery = (getattr(request, "delivery_info", None) or {}) if request else {}
    record = {
        "pid": os.getpid(),
        "task": getattr(request, "id", None),
        "args": list(getattr(request, "args", None) or ()),
        "redelivered": bool(delivery.get("redelivered")),
        "seat": view.get("seat"),
        "at": time.time(),
    }
    if TRACE:
        with open(TRACE, "a") as f:
            f.write(json.dumps(record) + "\n")
    if not record["redelivered"]:
        time.sleep(THINK_SECONDS)
    return real_bot_action(level, view)


services.botplay.bot_action = slow_bot_action

if __name__ == "__main__":
    from celery.__main__ import main

    sys.argv = ["celery", *sys.argv[1:]]
    sys.exit(main())
