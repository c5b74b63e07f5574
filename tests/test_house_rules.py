"""The house's rules, kept by the code (docs/design.md, "Public APIs only" and "One cache
helper"): no private name or internal module of Django, Channels, channels-redis or
Daphne; a class subclasses a library's class only where it is listed here; every cache a
process keeps goes through games.kept. Each check is shown failing on a snippet."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OURS = ("games", "accounts", "durak_site")
LIBRARIES = ("django", "channels", "channels_redis", "daphne")
INTERNAL_MODULES = ("django.db.models.sql",)  # the ORM's compiler and query: no API
INTERNAL_ATTRIBUTES = {"get_compiler", "klass_info", "get_converters"}  # the compiler's
# Leading-underscore names Django documents as its API.
DOCUMENTED = {
    "_meta": "Model._meta, the Model _meta API (Django's docs: ref/models/meta)",
    "_default_manager": "Model._default_manager, for code that handles any model "
                        "(Django's docs: topics/db/managers, 'Default managers')",
}

# Private names of Django's models and querysets, a private name whatever the site calls
# its own (the engine's Deal has a _state() method).
LIBRARY_PRIVATE = {"_state", "_prefetched_objects_cache", "_result_cache", "_prefetch_done",
                   "_base_manager", "_known_related_objects"}
# The engine, bots and tournament pairing import no framework (the import contracts).
NO_FRAMEWORK = ("games.engine", "games.bots", "games.tournament")

# Every class that subclasses a library's class, by module: a new one fails until listed.
SUBCLASSES = {
    # admin pages and their forms
    "games.admin": {"EntryAdmin", "EntryInline", "GameAdmin", "RulePresetAdmin",
                    "RulePresetForm", "SeatInline", "TournamentAdmin", "TournamentForm",
                    "MeasuredOnly"},
    "accounts.admin": {"PlayerAdmin", "PlayerChangeForm", "PlayerChangeForm.Meta",
                       "PlayerCreationForm", "PlayerCreationForm.Meta"},
    # app configs, a management command, modeltranslation's options
    "games.apps": {"GamesConfig"},
    "accounts.apps": {"AccountsConfig"},
    "games.management.commands.setup_site": {"Command"},
    "games.management.commands.bot_ladder": {"Command"},
    "games.translation": {"RulePresetTranslation"},
    # forms
    "games.forms": {"ClockForm", "CreateGameForm", "FittedSelect", "FollowingRadioSelect",
                    "LobbyFilterForm"},
    "accounts.forms": {"EmailChangeForm", "GuestForm", "ProfileForm", "SignUpForm", "ZoneSelect",
                       "SignUpForm.Meta"},
    # models and their choices
    "games.models": {
        "ArenaRun", "BotRating", "ChatMessage", "ChatMute", "DeadlineSweep", "DealRecord",
        "Entry", "Game",
        "Game.Status", "Move", "Move.Kind", "PushSubscription", "Rating", "Rating.Pool",
        "RatingChange", "RoundTable", "RulePreset", "RulePreset.NextDealStart",
        "RulePreset.Teams", "RulePreset.ThrowIn", "RulePreset.TimeoutPolicy",
        "RulePreset.TrumpExchange", "Seat", "TimeControl", "Tournament", "Tournament.Kind",
        "Tournament.Status", "TournamentRound"},
    "accounts.models": {"Block", "Friend", "Player", "Player.MoveEmails", "RateCount"},
    # consumers and the sockets' origin check
    "games.live.base": {"SiteConsumer"},
    "games.live.table": {"RefuseConsumer"},
    "games.live.middleware": {"SiteOriginValidator"},
    # views and handlers
    "accounts.views": {"LoginView", "PasswordChangeView", "PasswordResetConfirmView",
                       "PasswordResetView"},
    "accounts.lockout": {"LockoutHandler"},  # django-axes' handler
    "durak_site.asgi": {"StaticFiles"},
    "durak_site.health": {"HealthView"},
}

CACHE_HELPER = "games.kept"
RAW_CACHES = {("functools", "cache"), ("functools", "lru_cache")}
DJANGO_CACHE = "django.core.cache"
# Django's cache (shared by every process) is used directly in these only.
DJANGO_CACHE_USERS = {"games.limits", "games.once", "games.review", "games.services.coach"}
# Module-level dicts written at run time that are state, not caches.
STATE_DICTS = {
    ("games.live.sockets", "_stores"),  # this process's slot store (it holds live counts)
    ("games.live.sockets", "_held"),  # this process's sockets and the slots they hold
    ("games.live.table", "_making"),  # frames being made now (futures), not kept ones
}


def module_name(relative: str) -> str:
    return relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def site_sources() -> dict[str, str]:
    """module -> source, for the site's own code (migrations are Django's output)."""
    found = {}
    for package in OURS:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                found[module_name(path.relative_to(ROOT).as_posix())] = path.read_text()
    return found


def defined_names(sources: dict[str, str]) -> set[str]:
    """Every name the site defines itself: its functions, classes, variables and what it
    stores on `self` or `cls` (its own private attributes)."""
    names: set[str] = set()
    for source in sources.values():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                  and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                names.add(node.attr)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
    return names - LIBRARY_PRIVATE


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def internal(module: str) -> bool:
    return (any(module == m or module.startswith(m + ".") for m in INTERNAL_MODULES)
            or any(private(part) for part in module.split(".")))


def type_only(tree: ast.Module) -> set[int]:
    """The nodes under `if TYPE_CHECKING:` (stubs' names: mypy checks them, loudly)."""
    hidden: set[int] = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.If) and isinstance(node.test, ast.Name)
                and node.test.id == "TYPE_CHECKING"):
            for child in node.body:
                hidden |= {id(n) for n in ast.walk(child)}
    return hidden


def private_names(module: str, source: str, defined: set[str]) -> list[str]:
    """Library internals `module` uses: private or internal imports from the libraries,
    and `x._name` attributes the site never defines itself."""
    tree = ast.parse(source)
    hidden = type_only(tree)
    found = []
    for node in ast.walk(tree):
        if id(node) in hidden:
            continue
        where = f"{module}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] not in LIBRARIES:
                continue
            if internal(node.module):
                found.append(f"{where} from {node.module}")
            for alias in node.names:
                if private(alias.name) or internal(f"{node.module}.{alias.name}"):
                    found.append(f"{where} {node.module}.{alias.name}")
        elif isinstance(node, ast.Import):
            found += [f"{where} import {alias.name}" for alias in node.names
                      if alias.name.split(".")[0] in LIBRARIES and internal(alias.name)]
        elif isinstance(node, ast.Attribute):
            if ((private(node.attr) and node.attr not in DOCUMENTED and node.attr not in defined)
                    or node.attr in INTERNAL_ATTRIBUTES):
                found.append(f"{where} .{node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ("getattr", "setattr", "hasattr") and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and private(node.args[1].value) and node.args[1].value not in DOCUMENTED
              and node.args[1].value not in defined):
            found.append(f"{where} {node.func.id}(…, {node.args[1].value!r})")
    return found


def imported_from(tree: ast.Module) -> dict[str, str]:
    """name -> the module it comes from (absolute imports)."""
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for alias in node.names:
                names[alias.asname or alias.name] = node.module
        elif isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.name
    return names


def library_subclasses(module: str, source: str) -> list[str]:
    """module:Class for each class of `module` with a base from a third-party library."""
    tree = ast.parse(source)
    names = imported_from(tree)
    found = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                for base in child.bases:
                    root = base
                    while isinstance(root, (ast.Attribute, ast.Subscript)):
                        root = root.value
                    if isinstance(root, ast.Name) and root.id in names:
                        top = names[root.id].split(".")[0]
                        if top not in OURS and top not in sys.stdlib_module_names:
                            found.append(f"{module}:{prefix}{child.name}")
                            break
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                visit(child, f"{prefix}{child.name}.<locals>.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def unlisted_subclasses(module: str, source: str) -> list[str]:
    return [found for found in library_subclasses(module, source)
            if found.split(":")[1] not in SUBCLASSES.get(module, set())]


def raw_caches(module: str, source: str) -> list[str]:
    """Caches that do not go through games.kept: functools' caches, cachetools, Django's
    cache outside its listed users, and a module-level dict written inside a function."""
    if module == CACHE_HELPER:
        return []
    tree = ast.parse(source)
    found = []
    for node in ast.walk(tree):
        where = f"{module}:{getattr(node, 'lineno', 0)}"
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if (node.module, alias.name) in RAW_CACHES:
                    found.append(f"{where} functools.{alias.name}")
            if node.module.split(".")[0] == "cachetools":
                found.append(f"{where} cachetools")
            if (node.module == DJANGO_CACHE or node.module.startswith(DJANGO_CACHE + ".")
                    or (node.module == "django.core"
                        and any(a.name == "cache" for a in node.names))):
                if module not in DJANGO_CACHE_USERS:
                    found.append(f"{where} Django's cache")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "cachetools":
                    found.append(f"{where} cachetools")
                elif alias.name.startswith(DJANGO_CACHE) and module not in DJANGO_CACHE_USERS:
                    found.append(f"{where} Django's cache")
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and (node.value.id, node.attr) in RAW_CACHES):
            found.append(f"{where} functools.{node.attr}")
    dicts = set()
    for statement in tree.body:
        targets: list[ast.expr] = []
        value = None
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        made = (isinstance(value, (ast.Dict, ast.DictComp))
                or (isinstance(value, ast.Call) and isinstance(value.func, (ast.Name, ast.Attribute))
                    and (getattr(value.func, "id", None) or getattr(value.func, "attr", None))
                    in ("dict", "defaultdict", "OrderedDict")))
        if made:
            dicts |= {t.id for t in targets if isinstance(t, ast.Name)}
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        for node in ast.walk(function):
            name = None
            if (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
                    and isinstance(node.value, ast.Name)):
                name = node.value.id
            elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                  and isinstance(node.func.value, ast.Name)
                  and node.func.attr in ("setdefault", "update", "__setitem__")):
                name = node.func.value.id
            if name in dicts and (module, name) not in STATE_DICTS:
                found.append(f"{module}:{node.lineno} the module's dict {name} kept at run time")
    return found


SOURCES = site_sources()
DEFINED = defined_names(SOURCES)


def test_the_site_uses_no_private_name_of_its_libraries():
    assert len(SOURCES) > 100  # the walk saw the site
    found = [hit for module, source in SOURCES.items() if not module.startswith(NO_FRAMEWORK)
             for hit in private_names(module, source, DEFINED)]
    assert not found, "use the libraries' public API:\n" + "\n".join(found)


def test_a_private_name_or_an_internal_module_fails():
    snippet = """
from django.db.models.sql import compiler
from django.db.models import sql
from channels_redis.utils import _wrap_close
import django.db.models.sql.compiler
from channels.consumer import _ChannelScope
def f(obj, layer):
    obj._state.db
    layer._get_shard("group")
    getattr(obj, "_prefetched_objects_cache")
    obj._meta.pk  # documented: allowed
    obj._prefetched_objects_cache = {}
    compiler = queryset.query.get_compiler(using="default")
"""
    found = private_names("games.sample", snippet, DEFINED)
    assert sorted(hit.split(" ", 1)[1] for hit in found) == sorted([
        "from django.db.models.sql", "django.db.models.sql.compiler", "django.db.models.sql",
        "channels_redis.utils._wrap_close", "import django.db.models.sql.compiler",
        "channels.consumer._ChannelScope", "._state", "._get_shard",
        "getattr(…, '_prefetched_objects_cache')", "._prefetched_objects_cache",
        ".get_compiler"])
    hidden = "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from channels.consumer import _X\n"
    assert private_names("games.sample", hidden, DEFINED) == []  # a stub's type, for mypy


def test_every_subclass_of_a_library_class_is_listed():
    found = [hit for module, source in SOURCES.items()
             for hit in unlisted_subclasses(module, source)]
    assert not found, "list these in SUBCLASSES, with what they are:\n" + "\n".join(found)
    listed = {f"{m}:{c}" for m, classes in SUBCLASSES.items() for c in classes}
    present = {hit for module, source in SOURCES.items()
               for hit in library_subclasses(module, source)}
    assert listed == present  # and nothing listed that is gone


def test_a_new_subclass_of_a_library_class_fails():
    snippet = """
import enum
from django.views import View
from channels.generic.websocket import AsyncWebsocketConsumer
from games.kept import Kept
class Mine(View):
    pass
class Choice(enum.Enum):  # the standard library's: not a library class
    A = 1
class Ours(Kept):  # the site's own
    pass
def make():
    class Inner(AsyncWebsocketConsumer):
        pass
"""
    assert unlisted_subclasses("games.views.sample", snippet) == [
        "games.views.sample:Mine", "games.views.sample:make.<locals>.Inner"]
    assert unlisted_subclasses("games.live.table", "from channels.generic.websocket import "
                               "WebsocketConsumer\nclass RefuseConsumer(WebsocketConsumer): ...\n") == []


def test_every_cache_goes_through_the_one_helper():
    found = [hit for module, source in SOURCES.items() for hit in raw_caches(module, source)]
    assert not found, "keep it in a games.kept.Kept (or @memo):\n" + "\n".join(found)


def test_a_raw_cache_fails():
    snippet = """
import functools
from functools import lru_cache, cached_property
import cachetools
from django.core.cache import cache
_seen: dict[str, int] = {}
_names = dict()
CONSTANT = {"a": 1}
@functools.cache
def f(x):
    _seen[x] = 1
    _names.setdefault(x, 2)
    return CONSTANT["a"]
"""
    found = raw_caches("games.present.sample", snippet)
    assert sorted(hit.split(" ", 1)[1] for hit in found) == sorted([
        "functools.lru_cache", "cachetools", "Django's cache", "functools.cache",
        "the module's dict _seen kept at run time", "the module's dict _names kept at run time"])
    assert raw_caches("games.once", "from django.core.cache import cache\n") == []  # listed
    assert raw_caches("games.kept", "from cachetools import TTLCache\n") == []  # the helper


def test_every_cache_is_named_and_emptied_from_one_place():
    from games import kept
    from games.bots import heuristic  # noqa: F401 - its caches made on import
    from games.engine import infostate  # noqa: F401
    from games.present import (
        cards,
        felt,  # noqa: F401
    )
    from games.services import rows  # noqa: F401

    names = kept.named()
    assert {"present.cards.drawn", "present.felt.words", "services.rows.writes",
            "engine.infostate.rules", "bots.heuristic.card_values"} <= set(names)
    cards.card("TH")
    assert len(cards._drawn)
    kept.forget_all()
    assert not len(cards._drawn)


def test_the_tests_empty_the_caches_from_one_place():
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text())
    calls = [ast.unparse(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)]
    assert "kept.forget_all" in calls
    assert not [call for call in calls if call.endswith(".forget")]  # one place, not four
