"""One door for every change to a game (docs/design.md, "One door"): row locks,
transactions and writes to a game's rows (Game, Seat) live in games/services/change.py and
rows.py. Elsewhere in games/ and accounts/ they appear only inside the door (a
`with locked(...)` block, or a function handed the locked `Change`) or as an exception
named below with its reason. An AST walk, so a new second door fails here."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOOR = {"games/services/change.py", "games/services/rows.py"}

# module:function -> why it may lock, open a transaction or write a game's row itself.
ALLOWED = {
    "games.admin:duplicate atomic": "a rule preset copied in its own savepoint; no game is touched",
    "games.services.arena_tables:load atomic": "the bench arena's kept runs (ArenaRun rows); no game is touched",
    "games.limits:hit atomic": "the limits' counter rows, a leaf below services",
    "games.services.chat:post atomic": "a chat line and its limit count; the game is not changed",
    "games.services.clocks:forgive_downtime atomic":
        "the sweep's row is locked first; each game is then shifted through locked()",
    "games.services.clocks:_locked_sweep_record atomic select_for_update": "the sweep's one row (DeadlineSweep)",
    "games.services.lesson:start_lesson atomic select_for_update": "the player's row: one lesson table at a time",
    "games.services.push:subscribe atomic select_for_update":
        "a device's row, not a game's: an endpoint moves between accounts only under its lock",
    "games.services.friends:add_friend atomic": "a player's friend rows; no game is touched",
    "games.services.friends:block atomic": "a player's block and friend rows; no game is touched",
    "games.services.lobby:create_game atomic":
        "a new game: no row to lock yet; its rows are written by new_change().save()",
    "games.services.lobby:start_match save":
        "fills empty seats with bots, called inside a change (create, join, start, rematch)",
    "games.services.orders:mark_played save": "a seat's standing orders, inside apply_order's change",
    "games.services.orders:clear_orders save": "the seats' standing orders, inside apply_move's change",
    "games.services.turn:charge_clock save": "the mover's time bank, inside apply_move's change",
    "games.services.push:_claim update":
        "the push already sent for a version (Seat.pushed_version), claimed once by a worker",
    "games.services.quickmatch:quick_match atomic select_for_update": "the preset's row: one pairing at a time",
    "games.services.ratings:rate_game atomic": "the rating rows of a finished game's players",
    "games.services.ratings:_locked_rating select_for_update": "a player's rating row",
    "games.services.results:mark_losers update":
        "Seat.lost of a finished match's seats, inside finish_match's change",
    "games.services.ratings:locked_bot_ratings select_for_update":
        "the computer levels' rating rows, locked in one order",
    "games.services.ladder:rate_arena atomic": "the computer levels' ratings and an arena run",
    "games.services.reminders:send_reminders update":
        "a reminder claimed once (reminders_sent) at the version it was due for, no new version",
    "games.services.your_move:send_move_emails update":
        "a move email claimed once (move_email_at) at the version it was due for",
    "games.services.tournament:create_tournament atomic": "the tournament's rows",
    "games.services.tournament:locked_tournament select_for_update": "the tournament's row, locked before games",
    "games.services.tournament:join_tournament atomic": "the tournament's row lock",
    "games.services.tournament:leave_tournament atomic": "the tournament's row lock",
    "games.services.tournament:start_tournament atomic": "the tournament's row lock",
    "games.services.tournament:advance atomic": "the tournament's row lock; games through locked()",
    "games.services.tournament:withdraw_player atomic": "the tournament's row lock",
    "games.services.tournament:cancel_tournament atomic":
        "the tournament's row lock; its tables are aborted through locked() (lobby.abort)",
    "games.services.vacation:start_vacation atomic select_for_update": "the player's row; games through locked()",
    "games.services.vacation:end_vacation atomic select_for_update": "the player's row; games through locked()",
}

ROW_NAMES = re.compile(r"^(game|games|seat|seats|mine)$|_(game|seat)$|^(game|seat)_")


def _chain(node: ast.AST) -> list[str]:
    """`Game.objects.filter(...).update` -> ["Game", "objects", "filter"] (calls skipped)."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Call | ast.Subscript):
            node = node.func if isinstance(node, ast.Call) else node.value
        else:
            if isinstance(node, ast.Name):
                parts.append(node.id)
            return parts[::-1]


def _rows_of_games(chain: list[str]) -> bool:
    return chain[:1] in (["Game"], ["Seat"]) and "objects" in chain or "seats" in chain


def _opens_the_door(node: ast.AST) -> bool:
    return isinstance(node, ast.With | ast.AsyncWith) and any(
        isinstance(item.context_expr, ast.Call) and _chain(item.context_expr)[-1:] == ["locked"]
        for item in node.items)


def _handed_a_change(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    args = [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
    return any(a.annotation is not None and "Change" in ast.unparse(a.annotation)
               for a in args)


def second_doors(source: str, module: str) -> list[tuple[str, str, int]]:
    """(module:function, kind, line) for each lock (select_for_update), transaction
    (atomic) or write of a game's rows (update, save)."""
    found: list[tuple[str, str, int]] = []
    tree = ast.parse(source)
    # Names bound to a queryset of games or seats (`running = Game.objects.filter(...)`).
    querysets = {target.id for node in ast.walk(tree) if isinstance(node, ast.Assign)
                 for target in node.targets if isinstance(target, ast.Name)
                 and _rows_of_games(_chain(node.value))}

    def visit(node: ast.AST, function: str | None, inside: bool) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name if function is None else f"{function}.{node.name}"
            inside = inside or _handed_a_change(node)
        inside = inside or _opens_the_door(node)
        what = None
        if isinstance(node, ast.Attribute) and node.attr in ("select_for_update", "atomic"):
            what = node.attr
        elif isinstance(node, ast.ImportFrom) and any(a.name == "atomic" for a in node.names):
            what = "atomic"
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            chain = _chain(node.func.value)
            if node.func.attr == "update" and (
                    _rows_of_games(chain) or chain[:1] and chain[0] in querysets):
                what = "update"
            elif node.func.attr == "save" and chain and ROW_NAMES.search(chain[-1]) \
                    and not inside:
                what = "save"
        if what:
            found.append((f"{module}:{function or '<module>'}", what, getattr(node, "lineno", 0)))
        for child in ast.iter_child_nodes(node):
            visit(child, function, inside)

    visit(tree, None, False)
    return found


def _allowed(where: str, what: str) -> bool:
    return any(key.split()[0] == where and what in key.split()[1:] for key in ALLOWED)


def _site() -> list[tuple[str, str, int]]:
    found = []
    for package in ("games", "accounts"):
        for path in sorted((ROOT / package).rglob("*.py")):
            name = path.relative_to(ROOT).as_posix()
            if name in DOOR or "/migrations/" in name:
                continue
            found += second_doors(path.read_text(), name[:-3].replace("/", "."))
    return found


def test_games_are_locked_and_written_only_through_the_door():
    strays = [f"{where} line {line}: {what}" for where, what, line in _site()
              if not _allowed(where, what)]
    assert not strays, "a second door (use change.locked / Change.save, or name it in " \
                       "ALLOWED with its reason):\n" + "\n".join(strays)


def test_every_allowed_exception_is_still_needed():
    found = _site()
    unused = [key for key in ALLOWED
              if not all(any(where == key.split()[0] and what == kind for where, what, _ in found)
                         for kind in key.split()[1:])]
    assert not unused, f"no longer needed: {unused}"


def test_the_checker_finds_each_kind_of_second_door():
    snippet = '''
from django.db import transaction
from django.db.transaction import atomic

def lock_it(pk):
    return Game.objects.select_for_update().get(pk=pk)

def in_a_transaction():
    with transaction.atomic():
        pass

def bump(pk):
    Game.objects.filter(pk=pk).update(version=F("version") + 1)

def shift(last):
    running = Game.objects.filter(deadline__gt=last)
    running.filter(paused_at=None).update(deadline=F("deadline") + GAP)

def seats_by_hand(game):
    game.seats.filter(number=0).update(bot_level="easy")

def abort_by_hand(game, seat):
    game.status = "aborted"
    game.save(update_fields=["status"])
    seat.save()
'''
    found = {(where, what) for where, what, _line in second_doors(snippet, "m")}
    assert found == {
        ("m:<module>", "atomic"),
        ("m:lock_it", "select_for_update"),
        ("m:in_a_transaction", "atomic"),
        ("m:bump", "update"),
        ("m:shift", "update"),
        ("m:seats_by_hand", "update"),
        ("m:abort_by_hand", "save"),
    }
    assert len(second_doors(snippet, "m")) == 8  # both saves of abort_by_hand


def test_a_write_inside_the_door_is_not_a_second_door():
    snippet = '''
def resign(game_id, user):
    with locked(game_id, user, seated=True) as change:
        change.my_seat.resigned_deal = 1
        mine = change.my_seat
        mine.save(update_fields=["resigned_deal"])
        return change.save("system", ["resign"])

def helper(change: Change, seat):
    seat.save(update_fields=["bank"])
'''
    assert second_doors(snippet, "m") == []


def aborts(source: str, module: str) -> list[str]:
    """Where a game's status is set to ABORTED (module:function)."""
    found = []

    def visit(node: ast.AST, function: str | None) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            function = node.name if function is None else f"{function}.{node.name}"
        if isinstance(node, ast.Assign) and _chain(node.value)[-2:] == ["Status", "ABORTED"] \
                and any(isinstance(t, ast.Attribute) and t.attr == "status"
                        for t in node.targets):
            found.append(f"{module}:{function}")
        for child in ast.iter_child_nodes(node):
            visit(child, function)

    visit(ast.parse(source), None)
    return found


def test_a_game_is_aborted_in_one_place():
    """lobby.abort, through the door: a cancel, the last player leaving, a declined
    challenge and a cancelled tournament's tables all end there."""
    found = []
    for path in sorted((ROOT / "games").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        found += aborts(path.read_text(), name[:-3].replace("/", "."))
    assert found == ["games.services.lobby:abort"]
    assert aborts("def cancel(game):\n    game.status = Game.Status.ABORTED\n", "m") == \
        ["m:cancel"]
