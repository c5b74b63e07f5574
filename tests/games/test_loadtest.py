"""bench.loadtest's pieces (the benchmark itself runs against a live site, by hand): its
figures, its move choice on a real table, and the echo baseline, an application of its
own that the site never routes."""

import pytest
from channels.testing import WebsocketCommunicator

from bench import loadecho, loadtest
from games.live import routing
from games.models import Game

from .conftest import client_for, to_act


def test_percentile_takes_the_nearest_rank():
    values = [0.010 * i for i in range(1, 101)]  # 10 ms .. 1 s
    assert loadtest.percentile(values, 50) == pytest.approx(0.50)
    assert loadtest.percentile(values, 95) == pytest.approx(0.95)
    assert loadtest.percentile(values, 99) == pytest.approx(0.99)
    assert loadtest.percentile([0.2], 95) == 0.2
    assert loadtest.percentile([], 50) is None


def test_report_prints_one_row_per_run():
    run = loadtest.Result(tables=20, seconds=10, offered=100, errors=2,
                          latencies=[0.024] * 90 + [0.5] * 10, echo=[0.005] * 100)
    spectators = loadtest.Result(tables=1, seconds=10, spectators=1000, latencies=[1.5])
    lines = loadtest.report([run, spectators]).splitlines()
    assert lines[0].startswith("| live tables | moves/s offered | handled | p50 | p95 | p99 |")
    assert lines[2] == ("| 20 | 10.0 | 10.0 | 24 ms | 500 ms | 500 ms | 2 | 5 ms | 5 ms | - | - |")
    assert lines[3].startswith("| 1 (1000 watching) | 0.0 | 0.1 | 1.5 s |")


@pytest.mark.django_db
def test_it_plays_a_deal_from_what_each_seat_sees(duel):
    """choose_move reads a seat's pushed table: a move for the seat to act, none for the
    other; posted as the benchmark posts it, each one is accepted."""
    from games.present.render import table_html

    users = {s.number: s.player for s in duel.seats.all()}
    for _ in range(30):
        duel = Game.objects.get(pk=duel.pk)
        if not duel.is_playing:
            break
        seat = to_act(duel)
        assert loadtest.choose_move(table_html(duel, users[1 - seat], oob=True)) is None
        html = table_html(duel, users[seat], oob=True)
        assert loadtest.version_of(html) == duel.version
        token = loadtest.choose_move(html)
        name = f"beat_{token.split(':')[1]}" if token.startswith("defend:") else "action"
        r = client_for(users[seat]).post(f"/games/{duel.pk}/play/",
                                         {name: token, "version": duel.version},
                                         headers={"HX-Request": "true"})
        assert r.status_code == 200, r.content.decode()[:300]
        assert loadtest.version_of(r.content.decode()) == duel.version + 1


def test_the_site_never_routes_the_echo_socket():
    matching = [r for r in routing.websocket_urlpatterns if r.pattern.match(loadecho.ECHO_PATH)]
    assert matching[0].callback.consumer_class.__name__ == "RefuseConsumer"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True, serialized_rollback=True)  # a sync consumer closes old connections
async def test_the_echo_application_sends_back_what_it_receives():
    comm = WebsocketCommunicator(loadecho.application, "/" + loadecho.ECHO_PATH)
    connected, _code = await comm.connect()
    assert connected
    await comm.send_to(text_data="12.5")
    assert await comm.receive_from(timeout=5) == "12.5"
    await comm.send_to(text_data="x" * 1000)  # cut to a timestamp's room
    assert await comm.receive_from(timeout=5) == "x" * loadecho.MAX_ECHO_BYTES
    await comm.disconnect()
