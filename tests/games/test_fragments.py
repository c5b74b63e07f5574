"""A push after a move carries only what changed, as htmx out-of-band fragments
(games.present.fragments), made on top of the version before; a gap of versions, a new
deal, a connect or a sync get the whole table. What a move and its push cost the database
is pinned: a new query fails here.
"""

import json
import re
import types

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import AnonymousUser
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.middleware import seen
from bench import loadtest
from bench.movebench import Process, consumer_for
from games import notify, services
from games.live import base
from games.models import Game
from games.present import fragments, render, snapshots

from .conftest import client_for, to_act
from .leaks import assert_frames_no_leak, assert_no_leak
from .test_live import connect, deal_of, fresh, legal, receive_table
from .test_move_cost import OneMoveASecond

FROM = re.compile(r'^<div id="table-frame" hidden data-from="(\d+)" data-version="(\d+)"')
OOB_IDS = re.compile(r'<[a-z]+ [^>]*?id="([a-z-]+)"[^>]*? hx-swap-oob="true"|'
                     r'<ol hx-swap-oob="afterbegin:#(table-log)"')

# A move over the socket: the session and its user (one query), then in the move's
# transaction (a savepoint and its release inside a test's transaction): the game row
# locked, its seats, the game saved, the move logged.
SOCKET_MOVE_QUERIES = 7
PUSH_QUERIES = 0  # in the mover's process and in another that keeps the version before


def frame_parts(html: str) -> list[str]:
    """The ids a fragment frame swaps in, in order (the marker first)."""
    return ["table-frame"] + [a or b for a, b in OOB_IDS.findall(html)]


@pytest.mark.django_db
def test_a_move_and_its_pushes_make_exactly_these_queries(duel, monkeypatch,
                                                          django_capture_on_commit_callbacks):
    """Each seat's socket is in a server process of its own: the mover's process pushes
    from the rows the move wrote, the other from the rows the group event carries."""
    monkeypatch.setattr(base, "time", types.SimpleNamespace(monotonic=lambda: 1000.0))
    events: list[dict] = []
    monkeypatch.setattr(notify, "_group_send", lambda group, event: events.append(event))
    users = {s.number: s.player for s in duel.seats.all()}
    clients = {n: client_for(u) for n, u in users.items()}
    sockets = {n: consumer_for(duel.pk, {"user": u, "session": clients[n].session.session_key})
               for n, u in users.items()}
    processes = {n: Process() for n in users}
    for n, socket in sockets.items():
        socket.clock = OneMoveASecond()
        seen(users[n])  # "last seen" is written once a minute, not per move
        processes[n].enter()
        socket.send_table()  # on connect
    for _ in range(12):
        game = Game.objects.get(pk=duel.pk)
        assert game.is_playing and game.match().deal_number == 1, "the deal ended too soon"
        seat = to_act(game)
        token = loadtest.choose_move(sockets[seat].frames[-1])
        # The mover's felt is theirs alone: a move chosen from the last frame is legal.
        assert token is not None, sockets[seat].frames[-1][-400:]
        processes[seat].enter()
        events.clear()
        sent = len(sockets[seat].frames)
        with CaptureQueriesContext(connection) as moved:
            with django_capture_on_commit_callbacks(execute=True):
                sockets[seat].receive(text_data=json.dumps(
                    {loadtest.field_of(token): [token], "version": [str(game.version)]}))
        assert len(sockets[seat].frames) == sent, sockets[seat].frames[-1][-400:]  # made
        assert len(moved) == SOCKET_MOVE_QUERIES, [q["sql"][:80] for q in moved.captured_queries]
        changed = Game.objects.get(pk=duel.pk)
        assert changed.version == game.version + 1
        (event,) = [e for e in events if e["type"] == "game.changed"]
        assert event["version"] == changed.version and "state" in event
        for n in (seat, 1 - seat):
            processes[n].enter()
            with CaptureQueriesContext(connection) as pushed:
                sockets[n].game_changed(event)
            assert len(pushed) == PUSH_QUERIES, [q["sql"][:80] for q in pushed.captured_queries]
            frame = sockets[n].frames[-1]
            assert FROM.match(frame).groups() == (str(game.version), str(changed.version))
            assert_no_leak(frame, changed.match().deal, n)


@pytest.mark.django_db
def test_the_group_event_carries_the_rows_as_committed(duel, alice, bob,
                                                       django_capture_on_commit_callbacks,
                                                       monkeypatch):
    events: list[dict] = []
    monkeypatch.setattr(notify, "_group_send", lambda group, event: events.append(event))
    seat = to_act(duel)
    with django_capture_on_commit_callbacks(execute=True):
        services.play(duel.pk, [alice, bob][seat],
                      [duel.match().deal.legal_actions(seat)[0].token()], duel.version)
    changed = [e for e in events if e["type"] == "game.changed"]
    assert len(changed) == 1 and changed[0]["version"] == duel.version + 1
    game = Game.objects.get(pk=duel.pk)
    seats = list(game.seats.select_related("player").order_by("number"))
    made = services.carried.restore(json.loads(json.dumps(changed[0]["state"])), seats)
    assert made is not None
    again, again_seats = made
    for field in Game._meta.concrete_fields:
        assert getattr(again, field.attname) == getattr(game, field.attname), field.name
    for mine, theirs in zip(again_seats, seats, strict=True):
        for field in type(mine)._meta.concrete_fields:
            assert getattr(mine, field.attname) == getattr(theirs, field.attname), field.name
        assert mine.player is theirs.player


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
async def test_a_push_after_a_move_carries_only_what_changed(duel, alice, bob, carol):
    duel = await sync_to_async(Game.objects.get)(pk=duel.pk)
    sockets = {}
    for seat, user in ((0, alice), (1, bob), (None, carol)):
        sockets[seat], *_ = await connect(duel, user)
        whole, _v = await receive_table(sockets[seat])
        assert 'id="table"' in whole and 'id="table-felt"' in whole
    for _ in range(6):
        game = await fresh(duel)
        deal = await deal_of(duel)
        mover = deal.to_act
        if mover is None or (await sync_to_async(game.match)()).deal_number != 1:
            break
        before = game.version
        await sync_to_async(services.play)(game.pk, [alice, bob][mover],
                                           [(await legal(game, mover))[0]], before)
        deal = await deal_of(duel)
        for seat, comm in sockets.items():
            html, version = await receive_table(comm)
            assert version == before + 1, (seat, html[:300])
            assert 'id="table"' not in html  # no whole table
            assert FROM.match(html).groups() == (str(before), str(version))
            parts = frame_parts(html)
            assert parts[:2] == ["table-frame", "table-felt"], parts
            assert set(parts) <= {"table-frame", "table-felt", "table-coach", "table-log"}
            assert "table-log" in parts  # every move says a line
            seen = await sync_to_async(assert_frames_no_leak)([html], deal, seat, fragments=True)
            assert seen["fragments"] == 1
            if seat is None:
                assert "fieldset class=\"hand" not in html  # a spectator has no hand
            else:
                for card in deal.hand(seat):
                    assert f'data-card="{card.code}"' in html
    for comm in sockets.values():
        await comm.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
async def test_after_a_gap_of_versions_the_whole_table_comes(duel, alice, bob, monkeypatch):
    game = await fresh(duel)
    watcher = 1 - (await deal_of(duel)).to_act
    comm, *_ = await connect(game, [alice, bob][watcher])
    await receive_table(comm)
    told = notify.game_changed
    monkeypatch.setattr(notify, "game_changed", lambda *args, **kwargs: None)  # lost
    mover = (await deal_of(duel)).to_act
    await sync_to_async(services.play)(game.pk, [alice, bob][mover],
                                       [(await legal(game, mover))[0]], game.version)
    monkeypatch.setattr(notify, "game_changed", told)
    game = await fresh(duel)
    mover = (await deal_of(duel)).to_act
    await sync_to_async(services.play)(game.pk, [alice, bob][mover],
                                       [(await legal(game, mover))[0]], game.version)
    html, version = await receive_table(comm)
    assert version == game.version + 1
    assert 'id="table"' in html and not html.startswith("<div id=\"table-frame\"")
    # The next move comes as fragments again; a page that could not swap them in (it
    # shows another version) asks for what it misses, and gets the whole table.
    game = await fresh(duel)
    mover = (await deal_of(duel)).to_act
    await sync_to_async(services.play)(game.pk, [alice, bob][mover],
                                       [(await legal(game, mover))[0]], version)
    html, newer = await receive_table(comm)
    assert FROM.match(html).groups() == (str(version), str(newer))
    await comm.send_to(text_data=json.dumps({"type": "sync", "version": version}))
    html, again = await receive_table(comm)
    assert again == newer and 'id="table"' in html
    await comm.disconnect()


@pytest.mark.django_db
def test_spectators_share_one_frame_and_one_reading_of_the_table(duel, alice, bob):
    """A thousand watchers of a table get the same frame: the first one's socket builds the
    table's context, every other one takes the frame as it is."""
    before_game, before_seats = snapshots.read(duel.pk)
    first_view = render.table_view(before_game, AnonymousUser(), seats=before_seats, zone="UTC")
    before = fragments.shown(first_view)
    seat = to_act(duel)
    services.play(duel.pk, [alice, bob][seat],
                  [duel.match().deal.legal_actions(seat)[0].token()], duel.version)
    game, seats = snapshots.read(duel.pk)
    views = [render.table_view(game, AnonymousUser(), seats=seats, zone="UTC") for _ in range(3)]
    frames = [fragments.frame(v, before, csrf_token=f"token{i}") for i, v in enumerate(views)]
    assert all(f is not None for f in frames)
    assert "context" in views[0].__dict__  # the first built it
    assert not any("context" in v.__dict__ for v in views[1:])  # the others did not
    html = [f[0] for f in frames]
    assert html[1] == html[2].replace("token2", "token1")  # each with its own token alone
    assert frame_parts(html[0])[:2] == ["table-frame", "table-felt"]
