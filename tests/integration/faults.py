"""The harness of the fault tier (test_faults.py): table pages that keep their socket as a
browser does, a ledger of everything the players did, and checks that say what was lost.

A `Page` holds one table socket in a thread of its own: it remembers every frame, and when
the socket closes it connects again (to any Daphne still listening, as the proxy would),
each second. A move or a chat line goes over the socket while it is open, else over HTTP
(the page's form). The `Ledger` keeps every move and chat line the players made and every
loss a check found; the test fails at the end with all of them, phase by phase.
"""

from __future__ import annotations

import json
import re
import shlex
import threading
import time
from contextlib import ExitStack
from urllib.parse import urlencode

from django.conf import settings
from django.utils.html import escape
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect as ws_connect

from games.models import ChatMessage, Move

from .helpers import moves
from .procs import LOOPBACK, ROOT, ProcessError, port_open, wait_until
from .test_daphne import cookie_header, request, session_cookie

# The whole table, or a push's fragment frame (games/present/fragments.py: its marker).
VERSION = re.compile(r'<(?:section id="table"|div id="table-frame")[^>]*data-version="(\d+)"')
CHAT_ID = re.compile(r'data-chat-id="(\d+)"')


# ----------------------------------------------------------------------------- processes
def procfile_workers() -> dict[str, list[str]]:
    """The site's Celery workers as scripts/run starts them (Procfile): name -> the
    arguments after "celery"."""
    workers = {}
    for line in (ROOT / "Procfile").read_text().splitlines():
        name, sep, command = line.partition(":")
        if not sep or line.lstrip().startswith("#"):
            continue
        argv = shlex.split(command.strip())
        if argv[:1] == ["celery"] and "worker" in argv:
            workers[name.strip()] = argv[1:]
    assert workers, "the Procfile names no Celery worker"
    return workers


def worker_queues(args: list[str]) -> set[str]:
    """The queues a worker with these arguments consumes (-Q/--queues, else the default)."""
    for i, arg in enumerate(args):
        if arg in ("-Q", "--queues") and i + 1 < len(args):
            return set(args[i + 1].split(","))
        if arg.startswith("--queues="):
            return set(arg.split("=", 1)[1].split(","))
        if arg.startswith("-Q") and len(arg) > 2:
            return set(arg[2:].split(","))
    return {getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", None) or "celery"}


def task_queue(task: str) -> str:
    """The queue the site routes `task` to (CELERY_TASK_ROUTES, else the default)."""
    routes = getattr(settings, "CELERY_TASK_ROUTES", None) or {}
    route = routes.get(task) if isinstance(routes, dict) else None
    if isinstance(route, dict) and route.get("queue"):
        return route["queue"]
    if isinstance(route, str):
        return route
    return getattr(settings, "CELERY_TASK_DEFAULT_QUEUE", None) or "celery"


def tasks_received(procs_list, task: str) -> int:
    """How many `task` messages the workers' logs say they received (info level)."""
    needle = f"Task {task}["
    return sum(1 for proc in procs_list for line in proc.log().splitlines()
               if needle in line and " received" in line)


# ----------------------------------------------------------------------------- pages
class Page:
    """A player's table page: its socket, kept open as htmx's ws extension keeps it."""

    def __init__(self, name: str, user, game, ports):
        self.name = name
        self.user = user
        self.game_id = game.pk
        self.ports = ports  # () -> the Daphne ports to try, in order
        self.cookies = session_cookie(user)
        self.lock = threading.Lock()
        self.texts: list[str] = []
        self.version = -1
        self.chat_seen = 0  # the last chat line shown
        self.opened = 0
        self.closes: list[int | None] = []
        self.ws = None
        self.port = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"page-{name}", daemon=True)

    def __repr__(self):
        return f"<{self.name}'s page on game {self.game_id} v{self.version} port {self.port}>"

    # ------------------------------------------------------------ the socket
    def start(self, timeout: float = 30.0) -> Page:
        self._thread.start()
        wait_until(lambda: self.version >= 0, timeout=timeout,
                   what=f"{self.name}'s page to get its table")
        return self

    def stop(self) -> None:
        self._stop.set()
        ws = self.ws
        if ws is not None:
            try:
                ws.close()
            except Exception:  # noqa: BLE001 - already gone
                pass
        self._thread.join(10)

    def _connect(self):
        for port in self.ports():
            if not port_open(port):
                continue
            try:
                ws = ws_connect(f"ws://{LOOPBACK}:{port}/ws/games/{self.game_id}/",
                                origin=f"http://{LOOPBACK}:{port}",
                                additional_headers={"Cookie": cookie_header(self.cookies)},
                                open_timeout=10, close_timeout=2)
            except Exception:  # noqa: BLE001 - refused or gone: try the next, then again
                continue
            return ws, port
        return None, None

    def _run(self) -> None:
        while not self._stop.is_set():
            ws, port = self._connect()
            if ws is None:
                self._stop.wait(1.0)
                continue
            with self.lock:
                self.ws, self.port = ws, port
                self.opened += 1
            try:
                with ws:
                    # As the page does each time its socket opens (static/js/catchup.js):
                    # ask for what is newer than the table and the last chat line shown.
                    ws.send(json.dumps({"type": "sync", "version": max(self.version, 0),
                                        "chat_after": self.chat_seen}))
                    while not self._stop.is_set():
                        self._took(ws.recv())
            except ConnectionClosed as exc:
                self.closes.append(exc.rcvd.code if exc.rcvd else None)
            except Exception:  # noqa: BLE001 - a broken socket is a closed one
                self.closes.append(None)
            finally:
                with self.lock:
                    self.ws = None
            self._stop.wait(1.0)

    def _took(self, text) -> None:
        if isinstance(text, bytes):
            text = text.decode(errors="replace")
        found = VERSION.search(text)
        with self.lock:
            self.texts.append(text)
            if found:
                self.version = max(self.version, int(found.group(1)))
            for chat_id in CHAT_ID.findall(text):
                self.chat_seen = max(self.chat_seen, int(chat_id))

    def seen(self, text: str) -> bool:
        """Has a frame shown `text` (as the page's HTML writes it)?"""
        shown = escape(text)
        with self.lock:
            return any(shown in t for t in self.texts)

    # ------------------------------------------------------------ the player's hands
    def _send(self, data: dict) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            ws.send(json.dumps(data))
            return True
        except Exception:  # noqa: BLE001 - closed under us: the form posts instead
            return False

    def _post(self, path: str, fields: dict) -> tuple[int, str]:
        live = [p for p in self.ports() if port_open(p)]
        port = live[0] if live else self.ports()[0]  # a busy server may be slow to accept
        status, text = request(port, "GET", f"/games/{self.game_id}/", self.cookies)
        if status != 200:
            return status, text
        return request(port, "POST", path, self.cookies, body=urlencode(fields, doseq=True),
                       headers={"Content-Type": "application/x-www-form-urlencoded",
                                "X-CSRFToken": self.cookies.get("csrftoken", ""),
                                "HX-Request": "true", "Origin": f"http://{LOOPBACK}:{port}"})

    def move(self, action: str, version: int) -> str:
        """Play `action` at `version` as the page does; returns the way it went."""
        if self._send({"actions": [action], "version": version}):
            return "socket"
        status, text = self._post(f"/games/{self.game_id}/play/",
                                  {"action": [action], "version": version})
        return f"HTTP {status}" if status != 200 else "HTTP"

    def chat(self, text: str) -> str:
        if self._send({"chat": text, "HEADERS": {}}):
            return "socket"
        status, _ = self._post(f"/games/{self.game_id}/chat/", {"chat": text})
        return f"HTTP {status}" if status != 200 else "HTTP"


# ----------------------------------------------------------------------------- the ledger
class Ledger:
    """What the players did, and what the checks found lost."""

    def __init__(self):
        self.moves: list[tuple[str, int, int, str]] = []  # phase, game, seq, action
        self.chat: list[tuple[str, int, str]] = []  # phase, game, text
        self.losses: list[str] = []
        self.missed: set = set()  # (page, chat line) already written down as lost
        self.figures: list[str] = []
        self.phase = "setup"

    def lost(self, text: str) -> None:
        self.losses.append(f"[{self.phase}] {text}")
        print(f"LOST {self.losses[-1]}")

    def note(self, text: str) -> None:
        self.figures.append(f"[{self.phase}] {text}")
        print(f"[{self.phase}] {text}")

    def report(self) -> str:
        return ("lost or late under faults:\n  " + "\n  ".join(self.losses)
                + "\nfigures:\n  " + "\n  ".join(self.figures))


def soft_wait(ledger: Ledger, predicate, *, timeout: float, what: str, interval: float = 0.2,
              proc=None):
    """wait_until, but a timeout is written in the ledger as a loss (the test goes on to
    the next fault, and fails at the end with every loss)."""
    try:
        return wait_until(predicate, timeout=timeout, interval=interval, what=what, proc=proc)
    except ProcessError as exc:
        ledger.lost(str(exc).splitlines()[0])
        return None


def make_move(ledger: Ledger, page: Page, action: str, *, timeout: float = 20.0) -> bool:
    """The page's player plays `action` at the game's current version; the move must be
    played (in the move log, at the next version) within `timeout`."""
    game = fresh_game(page.game_id)
    version = game.version
    way = page.move(action, version)
    made = soft_wait(ledger, lambda: moves(game, seq=version + 1), timeout=timeout,
                     what=f"{page.name}'s move {action} at version {version} ({way}) to be played")
    if made is None:
        return False
    move = made[0]
    if move.kind != Move.Kind.MOVE or move.actions != [action]:
        ledger.lost(f"{page.name}'s move {action} at version {version} ({way}): the log has "
                    f"{move.kind} {move.actions} at {version + 1} instead")
        return False
    ledger.moves.append((ledger.phase, page.game_id, version + 1, action))
    return True


def write_chat(ledger: Ledger, page: Page, text: str, *, timeout: float = 20.0) -> bool:
    way = page.chat(text)
    saved = soft_wait(ledger, lambda: ChatMessage.objects.filter(
        game_id=page.game_id, author=page.user, text=text).exists(), timeout=timeout,
        what=f"{page.name}'s chat line {text!r} ({way}) to be saved")
    ledger.chat.append((ledger.phase, page.game_id, text))
    return bool(saved)


def fresh_game(game_id: int):
    from games.models import Game

    return Game.objects.get(pk=game_id)


def check_caught_up(ledger: Ledger, pages: list[Page], *, timeout: float) -> None:
    """Every page shows its game's current version and every chat line written at its
    table; every move made is in its game's log, which runs 1..version with no gap."""
    deadline = time.monotonic() + timeout
    for page in pages:
        def behind(page=page):
            game = fresh_game(page.game_id)
            missing = [text for _phase, gid, text in ledger.chat
                       if gid == page.game_id and not page.seen(text)]
            return game.version, missing

        def caught_up(page=page):
            version, missing = behind()
            return page.version >= version and not missing

        try:
            wait_until(caught_up, timeout=max(1.0, deadline - time.monotonic()), interval=0.2,
                       what=f"{page.name}'s page to catch up")
        except ProcessError:
            version, missing = behind()
            if page.version < version:
                ledger.lost(f"{page.name}'s socket (game {page.game_id}) shows version "
                            f"{page.version}, the game is at {version}: moves "
                            f"{page.version + 1}..{version} never reached it")
            for text in missing:
                if (page.name, text) in ledger.missed:
                    continue  # said in an earlier phase
                ledger.missed.add((page.name, text))
                phase = next(p for p, gid, t in ledger.chat if t == text and gid == page.game_id)
                ledger.lost(f"chat line {text!r} (written in {phase}) never reached "
                            f"{page.name}'s socket")
    for phase, game_id, seq, action in ledger.moves:
        found = list(Move.objects.filter(game_id=game_id, seq=seq).values_list("actions", flat=True))
        if found != [[action]]:
            ledger.lost(f"move {action} (made in {phase}) is not at {seq} in game {game_id}'s "
                        f"log: {found}")
    for game_id in {page.game_id for page in pages}:
        game = fresh_game(game_id)
        seqs = [m.seq for m in moves(game)]
        if seqs != list(range(1, game.version + 1)):
            ledger.lost(f"game {game_id}'s move log has gaps or repeats: {seqs} "
                        f"for version {game.version}")
    for _phase, game_id, text in ledger.chat:
        if not ChatMessage.objects.filter(game_id=game_id, text=text).exists():
            ledger.lost(f"chat line {text!r} was not saved")


# ----------------------------------------------------------------------------- socket counts
def open_probe(port: int, game_id: int, user):
    """A socket on the game: (socket, True) when accepted with its table, (None, False)
    when refused for too many sockets (4429)."""
    cookies = session_cookie(user)
    ws = ws_connect(f"ws://{LOOPBACK}:{port}/ws/games/{game_id}/",
                    origin=f"http://{LOOPBACK}:{port}",
                    additional_headers={"Cookie": cookie_header(cookies)},
                    open_timeout=10, close_timeout=2)
    try:
        ws.__enter__()
        ws.recv(timeout=10)
    except ConnectionClosed as exc:
        ws.__exit__(None, None, None)
        code = exc.rcvd.code if exc.rcvd else None
        assert code == 4429, f"a probe socket was closed with {code}, not for too many sockets"
        return None, False
    return ws, True


def spare_slots(port: int, tables: list[tuple[int, object, int]]) -> list[int]:
    """For each (game id, user, most) in turn: how many more sockets the site lets open
    (up to most + 1 are tried), holding them open until all tables are probed."""
    counts = []
    with ExitStack() as held:
        for game_id, user, most in tables:
            accepted = 0
            for _ in range(most + 1):
                ws, ok = open_probe(port, game_id, user)
                if not ok:
                    break
                held.callback(ws.close)
                accepted += 1
            counts.append(accepted)
    return counts
