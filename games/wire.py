"""What a client sends, read once for HTTP and the socket: a move from the table's form
fields, a JSON body or a socket frame, and a chat line, as the services take them.

A move comes out as (actions, version, seat); anything else is refused with a
services.BadRequest whose words the player reads (the view answers it with a 400, the
socket with its table). The services judge the values (whose turn, which version,
which moves are legal); this module checks only the shape and types a client sends
(docs/design.md, "How a move flows").
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _

from . import services
from .engine import ExchangeTrump, Pass, Take

if TYPE_CHECKING:
    from django.http import HttpRequest

MAX_JSON_DEPTH = 8  # a move is {"actions": [tokens], ...}: two levels
MAX_JSON_BYTES = 64 * 1024  # a move, a frame or a push subscription takes well under 1 KiB
MOVE_ORDER = {ExchangeTrump: 0, Take: 2, Pass: 2}  # cards in between, in the order chosen

Move = tuple[Any, Any, Any]  # (actions, version, seat), as the services take them


def read_json(raw: str | bytes, max_bytes: int = MAX_JSON_BYTES,
              max_depth: int = MAX_JSON_DEPTH) -> Any:
    """The JSON value in `raw` (str or bytes); ValueError if it is longer than `max_bytes`,
    not UTF-8, not strict JSON (NaN, Infinity, a key twice, text that is not Unicode) or
    nests deeper than `max_depth` (json's recursion would otherwise fail with a
    RecursionError). The one reader of JSON that clients send, HTTP or socket."""
    if len(raw) > max_bytes:
        raise ValueError("too large")
    if isinstance(raw, bytes):
        raw = raw.decode()  # UnicodeDecodeError is a ValueError
    depth = deepest = 0
    for char in raw:  # brackets inside strings count too: deeper than a move is refused
        if char in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif char in "]}":
            depth -= 1
    if deepest > max_depth:
        raise ValueError("too deep")
    try:
        value = json.loads(raw, parse_constant=_not_a_number, object_pairs_hook=_object)
    except RecursionError:
        raise ValueError("too deep") from None
    _check_text(value)
    return value


def _not_a_number(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        raise ValueError("a key twice")
    return found


def _check_text(value: Any) -> None:
    """ValueError for a lone surrogate ("\\ud800"): no database stores it."""
    if isinstance(value, str):
        value.encode()  # UnicodeEncodeError is a ValueError
    elif isinstance(value, dict):
        for key, item in value.items():
            _check_text(key)
            _check_text(item)
    elif isinstance(value, list):
        for item in value:
            _check_text(item)


# ----------------------------------------------------------------------------- HTTP
def move_from_request(request: HttpRequest) -> Move:
    """A move POSTed to the table: a JSON body {"actions": [tokens], "version": V} or the
    table's form fields."""
    if request.content_type == "application/json":
        try:
            body = read_json(request.body or b"null")
        except ValueError:
            raise services.BadRequest(_("The request is not valid JSON.")) from None
        if not isinstance(body, dict):
            raise services.BadRequest(_("That is not a move."))
        return body.get("actions"), body.get("version"), body.get("seat")
    return move_from_fields({key: values for key, values in request.POST.lists()})


def json_object(request: HttpRequest, max_bytes: int = MAX_JSON_BYTES) -> dict[str, Any]:
    """A request's JSON body, which must be an object; BadRequest otherwise."""
    try:
        data = read_json(request.body or b"null", max_bytes)
    except ValueError:
        data = None
    if not isinstance(data, dict):
        raise services.BadRequest(_("The request is not valid JSON."))
    return data


# ----------------------------------------------------------------------------- the socket
def read_frame(raw: str | bytes) -> dict[str, Any]:
    """A socket frame's JSON object (a move, a chat line or a request to catch up)."""
    try:
        data = read_json(raw)
    except ValueError:  # not JSON, or nested too deep
        data = None
    if not isinstance(data, dict):
        raise services.BadRequest(_("That message is not a move."))
    return data


def asks_to_catch_up(frame: dict[str, Any]) -> bool:
    """`{"sync": true}` or `{"type": "sync"}`: a client that saw a gap, or opened again."""
    return bool(frame.get("sync")) or frame.get("type") == "sync"


def is_chat(frame: dict[str, Any]) -> bool:
    """The chat form (htmx ws-send) rather than a move."""
    return "chat" in frame or "phrase" in frame


def check_move(frame: dict[str, Any]) -> None:
    """Refused unless the move's fields have the types a client sends: `actions` a list
    of tokens, or tokens in `action`, `beat_<card>` and `then`; `version` and `seat`
    whole numbers."""
    actions = frame.get("actions", [])
    well_formed = isinstance(actions, list) and all(isinstance(a, str) for a in actions)
    for key, value in frame.items():
        if key in ("action", "then") or key.startswith("beat_"):
            values = value if isinstance(value, list) else [value]
            well_formed = well_formed and all(isinstance(v, str) for v in values)
    if not (well_formed and all(frame.get(key) is None or _whole_number(frame[key])
                                for key in ("version", "seat"))):
        raise services.BadRequest(_("That is not a move."))


def _one(value: object) -> object:
    """A form field's value, sent alone or as a list of one (htmx sends lists)."""
    return value[0] if isinstance(value, list) and len(value) == 1 else value


def _whole_number(value: object) -> bool:
    value = _one(value)
    if isinstance(value, str):
        return value.isascii() and value.removeprefix("-").isdigit() and len(value) < 19
    return isinstance(value, int) and not isinstance(value, bool)


# ----------------------------------------------------------------------------- both
def move_from_fields(data: Mapping[str, Any]) -> Move:
    """(actions, version, seat) from fields: a dict of field -> value or list of values (a
    POST, or the JSON an htmx `ws-send` form sends over the socket).

    Either `actions`, a list of tokens played in that order, or the table's form: tokens
    ("attack:7H", "defend:7H:9H", "take"…) in fields named `action` or `beat_<card>`, and
    `then=pass` to end with a pass; these play the exchange first, cards next, take or
    pass last.
    """
    def first(key: str) -> Any:
        value = data.get(key)
        if isinstance(value, list):
            value = value[0] if value else None
        return value

    version, seat = first("version"), first("seat")
    if "actions" in data:
        return data["actions"], version, seat  # services.read_move checks them
    tokens = []
    for key, values in data.items():
        if key == "action" or (isinstance(key, str) and key.startswith("beat_")):
            for value in values if isinstance(values, list) else [values]:
                if value:
                    tokens.append(value)
    if first("then") == "pass":
        tokens.append("pass")
    actions = services.read_move(tokens, allow_empty=True)  # empty: play_change says what to do
    actions.sort(key=lambda action: MOVE_ORDER.get(type(action), 1))
    return actions, version, seat


def chat_from_fields(data: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(text, phrase) of a chat line from the chat form's fields (a POST, or a socket
    frame: a value alone or a list of one); refused unless each is text or absent."""
    return _text(data.get("chat")), _text(data.get("phrase"))


def _text(value: object) -> str | None:
    value = _one(value)
    if value is None or isinstance(value, str):
        return value
    raise services.BadRequest(_("That is not a message."))
