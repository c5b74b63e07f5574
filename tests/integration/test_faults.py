"""The fault tier: the site's real processes (a private Redis, two Daphne servers, the
Procfile's Celery workers and beat, on the tier's PostgreSQL) with people at their tables,
and then, in turn, the faults a site meets: Redis killed and started again, a Daphne
killed, the worker killed while a bot thinks, the sweep stopped, the coach's queue flooded.
After each, nothing may be lost: every move made is in its game's log, every chat line is
saved and reached the other socket, every socket caught up (by a reconnect if it had to),
no clock was charged for the site's own downtime, the bot answered, and the socket counts
went back to the sockets open.

The harness is in faults.py. A check that fails does not stop the scenario: it is written
in the ledger, and the test fails at the end with every loss, phase by phase. It kills a
Redis of its own, never the tier's shared one.
"""

from __future__ import annotations

import copy
import threading
import time
from datetime import timedelta

import pytest
from celery import current_app
from django.conf import settings
from django.utils import timezone

from games import review, services
from games.models import DeadlineSweep, Game, Move
from games.services.clocks import SWEEP_GRACE

from .faults import (
    Ledger,
    Page,
    check_caught_up,
    make_move,
    procfile_workers,
    soft_wait,
    spare_slots,
    task_queue,
    tasks_received,
    worker_queues,
    write_chat,
)
from .helpers import fresh, moves, plain_action, user_at
from .procs import LOOPBACK, ProcessError, wait_until
from .test_daphne import request

pytestmark = [pytest.mark.integration, pytest.mark.fault, pytest.mark.django_db(transaction=True)]

# Socket limits of this test's site (every socket is loopback's; a seated player's count
# per player only, docs/design.md "How sockets are counted").
PER_GAME, PER_ADDRESS, PER_PLAYER = 4, 7, 3
CATCH_UP = 30  # seconds a page may take to catch up after a fault
BOT_ANSWER = 45  # seconds for a bot's answer after its worker was killed (the sweep wakes it at 15)
# seconds for the counts of a killed server's sockets to be given back (their places last
# WS_SLOT_SECONDS unless renewed), and some
COUNTS_HEAL = float(getattr(settings, "WS_SLOT_SECONDS", 60)) + 40


# ----------------------------------------------------------------------------- fixtures
class Site:
    """The processes of one test's site, and how to kill and start each again."""

    def __init__(self, procs, redis_proc, redis_port):
        self.procs = procs
        self.redis_proc, self.redis_port = redis_proc, redis_port
        self.daphnes: dict[int, object] = {}
        self.workers: dict[str, object] = {}
        self.beat = None

    def live_ports(self) -> list[int]:
        return [port for port, proc in self.daphnes.items() if proc.alive]

    def daphne(self, port=None):
        proc, port = self.procs.daphne(port)
        self.daphnes[port] = proc
        return port

    def start_workers(self, names=None, *, module=None, env=None):
        for name, args in procfile_workers().items():
            if names is None or name in names:
                self.workers[name] = self.procs.site_worker(name, args, module=module, env=env)

    def bot_workers(self) -> list[str]:
        """The Procfile's workers that take bot moves."""
        queue = task_queue("games.tasks.bot_turn")
        return [name for name, args in procfile_workers().items() if queue in worker_queues(args)]

    def worker_procs(self) -> list:
        return [proc for proc in self.procs.started if proc.name in procfile_workers()]

    def kill_redis(self):
        self.redis_proc.kill()

    def start_redis(self):
        self.redis_proc, _port = self.procs.redis(self.redis_port)


@pytest.fixture
def site(procs, settings):
    """A private Redis for this test's site and for this process (its cache, channel layer
    and Celery broker), so that killing it touches no other test."""
    proc, port = procs.redis()
    url = f"redis://{LOOPBACK}:{port}/0"
    settings.REDIS_URL = url
    settings.CACHES = {**settings.CACHES,
                       "default": {**settings.CACHES["default"], "LOCATION": url}}
    layers = copy.deepcopy(settings.CHANNEL_LAYERS)
    layers["default"]["CONFIG"]["hosts"] = [{**layers["default"]["CONFIG"]["hosts"][0],
                                             "address": url}]
    settings.CHANNEL_LAYERS = layers
    settings.CELERY_BROKER_URL = url
    broker = current_app.conf.broker_url
    _celery_broker(url)
    procs.env.update({"REDIS_URL": url, "WS_MAX_PER_GAME": str(PER_GAME),
                      "WS_MAX_PER_ADDRESS": str(PER_ADDRESS),
                      "WS_MAX_PER_PLAYER": str(PER_PLAYER)})
    try:
        yield Site(procs, proc, port)
    finally:
        _celery_broker(broker)


def _celery_broker(url):
    app = current_app
    if app._pool is not None:
        app._pool.force_close_all()
    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None


def seated_page(pages, game, seat):
    return next(p for p in pages if p.game_id == game.pk and p.user.pk == user_at(game, seat).pk)


def to_act_page(pages, game):
    game = fresh(game)
    return seated_page(pages, game, game.turn_seat)


# ----------------------------------------------------------------------------- the scenario
REVIEWS, HINTS = 30, 60  # requests in the coach's flood


def last_sweep():
    return DeadlineSweep.objects.filter(pk=1).values_list("last_run", flat=True).first()


def finished_game(alice, bob, classic):
    """A casual match of one deal played to its end (each seat plays the site's own
    timeout move), for the coach to review."""
    game = services.create_game(alice, classic, players=2, deals=1, rated=False,
                                move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    while fresh(game).is_playing:
        current = fresh(game)
        services.play(game.pk, user_at(current, current.turn_seat), [plain_action(current)],
                      current.version)
    return fresh(game)


def flood_the_coach(ledger, port, reviewed, hinted, asker, alice):
    """30 review requests and 60 hint requests at once, over HTTP, as players would send
    them; every one is answered (served, or refused politely)."""
    review_page = Page("alice", alice, reviewed, lambda: [port])
    hint_page = Page("the hinted seat", asker, hinted, lambda: [port])
    answers, lock = [], threading.Lock()
    # Their pages hold the CSRF cookie already: were the threads' first answers each to set
    # a new one in the cookies they share, a POST could carry another's token (a 403).
    for page in (review_page, hint_page):
        request(port, "GET", f"/games/{page.game_id}/", page.cookies)

    def ask(page, path):
        try:
            status, _text = page._post(path, {})
        except Exception as exc:  # noqa: BLE001 - a dropped request is a finding
            status = repr(exc)
        with lock:
            answers.append(status)

    flood = [threading.Thread(target=ask, args=(review_page, f"/games/{reviewed.pk}/review/"))
             for _ in range(REVIEWS)]
    flood += [threading.Thread(target=ask, args=(hint_page, f"/games/{hinted.pk}/hint/"))
              for _ in range(HINTS)]
    for thread in flood:
        thread.start()
    for thread in flood:
        thread.join(60)
    if len(answers) != REVIEWS + HINTS or not set(answers) <= {200, 302, 429}:
        ledger.lost(f"the flood's {REVIEWS + HINTS} requests were answered {sorted(map(str, answers))}")
    ledger.note(f"the flood's answers: { {a: answers.count(a) for a in set(answers)} }")


def test_nothing_is_lost_when_redis_a_daphne_the_worker_and_the_sweep_go_down(
        site, procs, alice, bob, carol, classic, seeded, tmp_path):
    ledger = Ledger()
    port_a, port_b = site.daphne(), site.daphne()
    site.start_workers()
    site.beat = procs.beat()

    # Two people at a table, each page held by another Daphne; carol against an Easy bot.
    duel = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
    services.join_game(duel.pk, bob)
    bots = services.create_game(carol, classic, players=2, bots=["easy"],
                                move_time=timedelta(hours=1))
    reviewed = finished_game(alice, bob, classic)
    hinted = services.create_game(alice, classic, players=2, rated=False,
                                  move_time=timedelta(hours=1))
    services.join_game(hinted.pk, bob)
    hinted = fresh(hinted)
    asker = user_at(hinted, hinted.turn_seat)

    def ports(home):
        return lambda: [home, *[p for p in site.live_ports() if p != home]]

    pages = [Page("alice", alice, duel, ports(port_a)).start(),
             Page("bob", bob, duel, ports(port_b)).start(),
             Page("carol", carol, bots, ports(port_b)).start()]
    alices, bobs, carols = pages

    def duel_move():
        make_move(ledger, to_act_page(pages, duel), plain_action(duel))

    def bot_answers(what):
        """carol moves until her move hands the turn to the bot, which must answer."""
        for _ in range(20):
            version = fresh(bots).version
            asked = time.monotonic()
            if not make_move(ledger, carols, plain_action(bots)):
                return
            game = fresh(bots)
            if not game.is_playing:
                return
            if game.version == version + 1 and not services.bot_holds_initiative(game):
                continue  # still carol's turn (the bot took, and she leads again)
            if soft_wait(ledger, lambda v=version: fresh(bots).version > v + 1
                         or not fresh(bots).is_playing, timeout=BOT_ANSWER,
                         what=f"the Easy bot to answer carol {what}"):
                ledger.note(f"the Easy bot answered {time.monotonic() - asked:.2f} s after "
                            f"carol's move")
            return

    try:
        # ------------------------------------------------------------ all well
        ledger.phase = "before any fault"
        write_chat(ledger, alices, "hello before the faults")
        duel_move()
        wait_until(lambda: not services.bot_holds_initiative(fresh(bots)), timeout=BOT_ANSWER,
                   what="the bot's first moves")
        bot_answers("before any fault")
        check_caught_up(ledger, pages, timeout=CATCH_UP)

        # ------------------------------------------------------------ Redis killed
        ledger.phase = "Redis killed"
        site.kill_redis()
        duel_move()
        write_chat(ledger, bobs, "bob writes while Redis is down")
        ledger.phase = "Redis started again"
        site.start_redis()
        back = time.monotonic()
        duel_move()
        write_chat(ledger, alices, "alice writes after Redis is back")
        check_caught_up(ledger, pages, timeout=CATCH_UP)
        ledger.note(f"pages caught up {time.monotonic() - back:.1f} s after Redis came back")

        # ------------------------------------------------------------ a Daphne killed
        ledger.phase = "Daphne B killed"
        site.daphnes[port_b].kill()
        killed_at = time.monotonic()
        duel_move()
        write_chat(ledger, alices, "alice writes while bob's server is gone")
        check_caught_up(ledger, pages, timeout=CATCH_UP)
        ledger.note(f"pages that reconnected to Daphne A: "
                    f"{[p.name for p in pages if p.port == port_a and p.opened > 1]}")
        site.daphne(port_b)  # the supervisor starts it again

        # ------------------------------------------------------------ the sweep stopped
        # Beat stops for longer than the sweep's grace and longer than the seat to act on
        # a 1-minute clock had left (it had used 35 s): its deadline passes while nothing
        # watches it. Meanwhile the coach's queue is flooded and play goes on.
        ledger.phase = "sweep stopped"
        grace, left = SWEEP_GRACE.total_seconds(), 25.0
        outage = max(grace, left) + 5.0
        clocked = services.create_game(alice, classic, players=2, move_time=timedelta(minutes=1))
        services.join_game(clocked.pk, bob)
        wait_until(lambda: last_sweep() is not None, timeout=30, what="a first sweep")
        site.beat.kill()
        stopped, now = time.monotonic(), timezone.now()
        Game.objects.filter(pk=clocked.pk).update(
            turn_started=now - timedelta(seconds=60 - left), deadline=now + timedelta(seconds=left))
        clocked = fresh(clocked)

        ledger.phase = "coach queue flooded (sweep stopped)"
        flood_the_coach(ledger, port_a, reviewed, hinted, asker, alice)
        bot_answers("under the coach's flood")
        duel_move()
        write_chat(ledger, bobs, "bob writes while the sweep is stopped")
        check_caught_up(ledger, pages, timeout=CATCH_UP)
        soft_wait(ledger, lambda: services.hint_for(hinted.pk, asker, hinted.version),
                  timeout=60, what="the coach's hint")
        soft_wait(ledger, lambda: review.kept(reviewed) is not None, timeout=90,
                  what="the coach's review")
        reviews = tasks_received(site.worker_procs(), "games.tasks.review_game")
        hints = tasks_received(site.worker_procs(), "games.tasks.coach_hint")
        ledger.note(f"{reviews} review task(s) and {hints} hint task(s) for {REVIEWS} review "
                    f"and {HINTS} hint requests")
        if reviews != 1:
            ledger.lost(f"{REVIEWS} review requests for one game queued {reviews} review tasks")
        if hints != 1:
            ledger.lost(f"{HINTS} hint requests for one seat and version queued {hints} "
                        f"hint tasks")

        ledger.phase = "sweep started again"
        wait_until(lambda: fresh(clocked).deadline < timezone.now(), timeout=left + 30,
                   what="the deadline to pass while the sweep is stopped")
        time.sleep(max(0.0, outage - (time.monotonic() - stopped)))  # the rest of the outage
        restarted, down = timezone.now(), time.monotonic() - stopped
        site.beat = procs.beat()
        first = soft_wait(ledger, lambda: (last_sweep() or restarted) > restarted and last_sweep(),
                          timeout=45, what="a sweep after beat came back", proc=site.beat)
        if first:
            soft_wait(ledger, lambda: last_sweep() > first, timeout=30,
                      what="a second sweep after beat came back", proc=site.beat)
        charged = moves(clocked, kind=Move.Kind.TIMEOUT)
        if not first:
            pass  # no sweep ran: nothing to judge the clocks by
        elif charged:
            ledger.lost(f"{len(charged)} timeout(s) charged on a 1-minute clock for the "
                        f"{down:.0f} s the sweep was down (grace {grace:g} s, {left:g} s left)")
        elif fresh(clocked).deadline <= timezone.now():
            ledger.lost("the clock did not move on by the sweep's downtime")
        else:
            clock_pages = [Page(f"seat {n} of the clocked game", user_at(clocked, n), clocked,
                                ports(port_a)) for n in (0, 1)]
            make_move(ledger, clock_pages[fresh(clocked).turn_seat], plain_action(clocked))
        ledger.note(f"the sweep was stopped {down:.0f} s (grace {grace:g} s) with {left:g} s "
                    f"left on a 1-minute clock")

        # ------------------------------------------------------------ the worker killed mid-move
        ledger.phase = "worker killed during a bot turn"
        trace_path = tmp_path / "bot-trace.jsonl"
        for name in site.bot_workers():
            site.workers[name].kill()
        slow = [procs.site_worker(f"slow-{name}", procfile_workers()[name],
                                  module="tests.integration.slow_bot_worker",
                                  env={"TEST_BOT_THINK_SECONDS": "60",
                                       "TEST_BOT_TRACE": str(trace_path)})
                for name in site.bot_workers()]
        while fresh(bots).is_playing and not services.bot_holds_initiative(fresh(bots)):
            if not make_move(ledger, carols, plain_action(bots)):
                break
        version = fresh(bots).version
        thinking = soft_wait(ledger, lambda: trace_path.exists()
                             and f"[{bots.pk}, {version}]" in trace_path.read_text(),
                             timeout=30, what="the bot to start thinking")
        for proc in slow:
            proc.kill()  # mid-move, with no chance to clean up
        if thinking:
            assert fresh(bots).version == version, "the bot moved before the kill"
        killed = time.monotonic()
        site.start_workers(site.bot_workers())  # the supervisor starts it again
        if soft_wait(ledger, lambda: fresh(bots).version > version, timeout=BOT_ANSWER,
                     what="the bot to answer after its worker was killed"):
            ledger.note(f"the bot answered {time.monotonic() - killed:.1f} s after the kill")
            after = moves(bots, seq=version + 1)
            if [(m.kind, m.seat) for m in after] != [(Move.Kind.BOT, 1)]:
                ledger.lost(f"the bot's move after the kill: {after}")
        write_chat(ledger, carols, "carol writes after the bot came back")
        check_caught_up(ledger, pages, timeout=CATCH_UP)

        # ------------------------------------------------------------ the socket counts
        ledger.phase = "socket counts"
        open_on = {u.pk: sum(p.ws is not None for p in pages if p.user.pk == u.pk)
                   for u in (alice, carol)}
        expected = [PER_PLAYER - open_on[alice.pk], PER_PLAYER - open_on[carol.pk]]
        probes = [(duel.pk, alice, PER_PLAYER), (bots.pk, carol, PER_PLAYER)]
        seen = []

        def counts_healed():
            seen.append(spare_slots(port_b, probes))
            return seen[-1] == expected

        left_to_heal = max(20.0, COUNTS_HEAL - (time.monotonic() - killed_at))
        try:
            wait_until(counts_healed, timeout=left_to_heal, interval=2.0, what="the counts")
            ledger.note(f"the counts matched the open sockets "
                        f"{time.monotonic() - killed_at:.0f} s after the Daphne was killed "
                        f"(probes: {seen})")
        except ProcessError:
            ledger.lost(f"the socket counts do not match the sockets open ({open_on} by player) "
                        f"{time.monotonic() - killed_at:.0f} s after the Daphne was killed: "
                        f"the site let open {seen[-1] if seen else None} more (the duel's "
                        f"table, then carol's), not {expected}")
    finally:
        for page in pages:
            page.stop()
    for name, proc in site.workers.items():  # each fault is survived, not restarted away
        if not proc.alive:
            ledger.lost(f"the {name} worker died:\n{proc.tail(8)}")
    print(ledger.report())
    assert not ledger.losses, ledger.report()


def test_the_play_worker_outlives_its_redis_going_down_while_a_bot_thinks(
        site, procs, alice, classic, seeded, tmp_path):
    """Redis dies while the play worker's bot is mid-move, its task unacknowledged (acks
    late). When Redis is back, the same worker process finishes that move and takes the
    bot's next turn: it reconnects, it does not die."""
    trace_path = tmp_path / "bot-trace.jsonl"
    game = services.create_game(alice, classic, players=2, bots=["easy"],
                                move_time=timedelta(hours=1))
    while not services.bot_holds_initiative(fresh(game)):  # alice plays until the bot is to act
        services.play(game.pk, alice, [plain_action(game)], fresh(game).version)
    version = fresh(game).version
    name = site.bot_workers()[0]
    worker = procs.site_worker(name, procfile_workers()[name],
                               module="tests.integration.slow_bot_worker",
                               env={"TEST_BOT_THINK_SECONDS": "3",
                                    "TEST_BOT_TRACE": str(trace_path)})
    wait_until(lambda: trace_path.exists() and f"[{game.pk}, {version}]" in trace_path.read_text(),
               timeout=30, what="the bot to start thinking", proc=worker)
    site.kill_redis()
    time.sleep(1.0)
    site.start_redis()
    wait_until(lambda: fresh(game).version > version, timeout=30,
               what="the bot's move begun before Redis went down", proc=worker)

    def humans_turn():
        current = fresh(game)
        return current if not services.bot_holds_initiative(current) else None

    # The bot's next turn is queued on the new Redis: the same worker must take it.
    for _ in range(20):
        current = wait_until(humans_turn, timeout=30, what="the bot to hand the turn back",
                             proc=worker)
        if not current.is_playing:
            break
        after = services.play(game.pk, alice, [plain_action(current)], current.version)
        if after.is_playing and services.bot_holds_initiative(after):
            wait_until(lambda v=after.version: fresh(game).version > v, timeout=30,
                       what="the bot's turn queued after Redis came back", proc=worker)
            break
    else:
        pytest.fail("the bot never got the initiative back")
    assert worker.alive
    assert [m.seq for m in moves(game)] == list(range(1, fresh(game).version + 1))
