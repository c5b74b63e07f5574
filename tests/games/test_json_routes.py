"""Every route that takes a JSON body reads it through the one guarded reader
(games.wire.read_json): deep, huge and odd JSON is a 400 with words for the player, never a
500, and changes nothing. A new view that reads JSON must be added to JSON_ROUTES."""

import ast
import json
from pathlib import Path

import pytest
from django.urls import reverse

from games.models import Game, PushSubscription
from tests.games.pushfakes import FakeDNS
from tests.games.test_push import Device, b64

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]

# The functions of views that read a JSON body, and the routes they answer.
JSON_ROUTES = {
    "games/views/device.py:_subscription": "push_subscribe",
    "games/views/device.py:push_unsubscribe": "push_unsubscribe",
    "games/views/table.py:play": "play",
    "games/views/deals.py:check_deal": "check_deal",
}
READERS = {"json_object", "move_from_request", "read_json", "read_frame"}

DEEP = 10_000
BODIES = [
    '{"endpoint":' + "[" * DEEP + "]" * DEEP + "}",  # RecursionError in json.loads
    "[" * DEEP,
    '{"a":' * DEEP + "1" + "}" * DEEP,
    '{"endpoint": "' + "x" * 200_000 + '"}',  # huge
    json.dumps({"endpoint": "https://push.example.com/x", "pad": ["y" * 1000] * 3000}),
    "[1, 2]", '"text"', "1", "null", "true", "", "not json", "{",
    b'{"endpoint": "https://push.example.com/\xff"}',  # not UTF-8
    b"\xef\xbb\xbf{}",  # a byte-order mark
    '{"endpoint": NaN}', '{"version": Infinity, "actions": ["take"]}',
    '{"endpoint": "https://push.example.com/a", "endpoint": "https://push.example.com/b"}',
    '{"endpoint": "\\ud800", "keys": {"p256dh": "\\udfff", "auth": "x"}}',
    '{"endpoint": {"nested": [[[[[[[[[1]]]]]]]]]}}',
]


def json_readers(path: Path) -> set[str]:
    """The functions in `path` that read a request's body or parse JSON."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            uses = {(getattr(n.value, "id", ""), n.attr) for n in ast.walk(node)
                    if isinstance(n, ast.Attribute)}
            if {attr for _, attr in uses} & READERS or ("json", "loads") in uses \
                    or ("json", "load") in uses or ("request", "body") in uses:
                found.add(f"{path.relative_to(ROOT)}:{node.name}")
    return found


def test_every_view_that_reads_json_is_in_the_fuzz():
    views = [*(ROOT / "games" / "views").glob("*.py"), *(ROOT / "accounts").glob("*.py")]
    found = set().union(*(json_readers(p) for p in views))
    assert found == set(JSON_ROUTES)


@pytest.fixture
def state(alice, bob, duel, monkeypatch):
    """alice's device and a game at which she may move: what a body might change."""
    FakeDNS(monkeypatch)
    device = Device()
    PushSubscription.objects.create(player=alice, endpoint="https://push.example.com/a",
                                    p256dh=device.p256dh, auth=b64(device.auth))

    def snapshot():
        game = Game.objects.get(pk=duel.pk)
        return (game.state, game.version,
                list(PushSubscription.objects.values_list("endpoint", "player", "p256dh")))

    return duel, snapshot


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
@pytest.mark.parametrize("route", sorted(set(JSON_ROUTES.values())))
def test_odd_json_is_a_400_and_changes_nothing(alice_client, state, route, body):
    game, snapshot = state
    before = snapshot()
    url = reverse(route, args=[game.pk]) if route == "play" else reverse(route)
    response = alice_client.post(url, data=body, content_type="application/json")
    assert response.status_code == 400
    words = response.content.decode()
    # Over the site's body limit Django answers with its page (Daphne with a 413 before).
    assert "JSON" in words or "not a" in words or "Bad request" in words, words
    assert snapshot() == before
