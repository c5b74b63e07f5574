"""The push attack against the real stack (PostgreSQL, Redis, the Procfile's coach+mail+push
worker): a device saved with an endpoint on the site's own network (before the door) makes
the worker connect nowhere, and the mail to that player and to another still arrives."""

from datetime import timedelta

import pytest

from games import services
from games.models import PushSubscription
from tests.games.pushfakes import Listener
from tests.games.test_push import Device, b64

from .faults import procfile_workers
from .procs import wait_until
from .test_mail import Inbox, smtp  # noqa: F401 - the SMTP server fixture

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def listener():
    found = Listener()
    yield found
    found.close()


def test_a_forbidden_endpoint_gets_no_connection_and_the_mail_still_arrives(
        procs, smtp, listener, alice, bob, carol, classic, seeded):  # noqa: F811
    inbox, port = smtp
    carol.email = "carol@example.org"
    carol.save()
    for endpoint in (f"https://127.0.0.1:{listener.port}/x",
                     f"https://[::ffff:127.0.0.1]:{listener.port}/x",
                     f"https://localhost:{listener.port}/x",
                     f"https://user:pw@127.0.0.1:{listener.port}/x"):
        device = Device()
        PushSubscription.objects.create(player=bob, endpoint=endpoint, p256dh=device.p256dh,
                                        auth=b64(device.auth))
    worker = procs.site_worker("coach", procfile_workers()["coach"],
                               env={"EMAIL_URL": f"smtp://127.0.0.1:{port}"})
    assert "push" in procfile_workers()["coach"][procfile_workers()["coach"].index("-Q") + 1]
    services.challenge(alice, bob, classic, move_time=timedelta(days=1))
    services.challenge(alice, carol, classic, move_time=timedelta(days=1))
    wait_until(lambda: len(inbox.messages) >= 2, timeout=60, interval=0.25,
               what="both challenge mails at the SMTP server", proc=worker)
    assert sorted(m["To"] for m in inbox.messages) == ["bob@example.org", "carol@example.org"]
    # The push task ran (on the push queue) and refused every device: dropped, unreached.
    wait_until(lambda: not PushSubscription.objects.filter(player=bob).exists(), timeout=30,
               interval=0.25, what="the forbidden devices dropped", proc=worker)
    wait_until(lambda: worker.log().count("games.tasks.push[") >= 4, timeout=30,
               what="the two push tasks received and done", proc=worker)
    assert "refused" in worker.log()
    assert listener.accepted == []
