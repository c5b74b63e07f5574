"""Limits by default (docs/design.md, "Limits by default"): the routes that were open to a
flood refuse the excess with a 429 that makes nothing, and a walk over the URL
configuration finds no view that takes a POST without a named limit (games.limits.limited)
unless it is in the short list of exemptions below, each with its reason."""

import json
import re
import types

import pytest
from django.core import mail
from django.core.management import call_command
from django.http import HttpResponse
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, path
from django.views.decorators.http import require_POST

from games import limits
from games.models import Game, PushSubscription, Tournament

from .pushfakes import FakeDNS
from .test_push import Device, b64

pytestmark = pytest.mark.django_db
ATTEMPTS = 40  # as many as the attack sent, each within a few seconds


def statuses(responses) -> dict[int, int]:
    counted: dict[int, int] = {}
    for r in responses:
        counted[r.status_code] = counted.get(r.status_code, 0) + 1
    return counted


# ----------------------------------------------------------------------------- the floods
def test_tables_made_per_player_per_hour(alice_client, classic, settings):
    allowed = settings.LIMITS["games_made"][0]
    table = {"preset": classic.pk, "players": 2, "bots": 1, "bot_level": "easy",
             "match_kind": "deals", "count": 1, "move_time": 300}
    sent = [alice_client.post("/games/new/", {**table, "once": f"t{n}"})
            for n in range(ATTEMPTS)]
    assert statuses(sent) == {302: allowed, 429: ATTEMPTS - allowed}
    assert Game.objects.count() == allowed
    refused = sent[-1]
    assert "You have made many tables in a short while." in refused.content.decode()
    assert refused["Retry-After"] == "3600"
    # Quick match draws on the same allowance.
    r = alice_client.post("/games/quick/", {"preset": classic.pk, "move_time": 300})
    assert r.status_code == 429 and Game.objects.count() == allowed


def test_a_refused_form_gives_its_use_back(alice_client, classic, settings):
    """Only what the view accepted counts: a table refused for its form costs nothing."""
    allowed = settings.LIMITS["games_made"][0]
    for _ in range(ATTEMPTS):
        assert alice_client.post("/games/new/", {"preset": classic.pk, "players": 9}
                                 ).status_code == 400
    r = alice_client.post("/games/new/", {"preset": classic.pk, "players": 2, "bots": 1,
                                          "bot_level": "easy", "match_kind": "deals",
                                          "count": 1, "move_time": 300})
    assert r.status_code == 302 and Game.objects.count() == 1
    assert allowed > 1


def test_htmx_gets_the_refusal_inside_its_form(alice_client, classic, settings):
    settings.LIMITS = {**settings.LIMITS, "games_made": (0, 3600)}
    r = alice_client.post("/games/new/", {"preset": classic.pk}, HTTP_HX_REQUEST="true",
                          HTTP_HX_TARGET="create-game")
    assert r.status_code == 429 and r["HX-Reswap"] == "afterbegin"
    body = r.content.decode()
    assert 'role="alert"' in body and "many tables" in body and "<html" not in body


def test_tournaments_made_per_player_per_hour(alice_client, classic, settings):
    allowed = settings.LIMITS["tournaments_made"][0]
    sent = [alice_client.post("/tournaments/new/", {
        "name": f"Friday {n}", "preset": classic.pk, "kind": "swiss", "table_size": 2,
        "rounds": 3, "round_time": 86400, "rated": "casual", "move_time": 3600,
        "once": f"t{n}"}) for n in range(ATTEMPTS)]
    assert statuses(sent) == {302: allowed, 429: ATTEMPTS - allowed}
    assert Tournament.objects.count() == allowed
    assert "many tournaments" in sent[-1].content.decode()


def challenge(client, rules, opponent, n):
    return client.post("/games/challenge/", {
        "opponent": opponent, "preset": rules.pk, "time_control": "move",
        "move_time": 86400, "once": f"c{n}"})


def test_one_player_cannot_be_mail_bombed_with_challenges(
        alice_client, bob, classic, settings, django_capture_on_commit_callbacks):
    allowed = settings.LIMITS["challenges_received"][0]
    with django_capture_on_commit_callbacks(execute=True):
        sent = [challenge(alice_client, classic, "bob", n) for n in range(ATTEMPTS)]
    assert statuses(sent) == {302: allowed, 429: ATTEMPTS - allowed}
    assert Game.objects.filter(challenged=bob).count() == allowed
    assert [m.to for m in mail.outbox] == [["bob@example.org"]] * allowed
    assert "This player has been challenged many times" in sent[-1].content.decode()


def test_the_target_is_counted_whoever_sends(
        bob, classic, django_user_model, settings, django_capture_on_commit_callbacks):
    """Many senders, one target: the target's own count refuses them all alike."""
    from tests.games.conftest import client_for

    allowed = settings.LIMITS["challenges_received"][0]
    senders = [client_for(django_user_model.objects.create_user(f"sender{n}"))
               for n in range(allowed + 5)]
    with django_capture_on_commit_callbacks(execute=True):
        sent = [challenge(c, classic, "bob", n) for n, c in enumerate(senders)]
    assert statuses(sent) == {302: allowed, 429: 5}
    assert len(mail.outbox) == allowed


def test_challenges_sent_per_player_per_hour(alice_client, classic, django_user_model,
                                             settings):
    allowed = settings.LIMITS["challenges_sent"][0]
    for n in range(allowed + 5):
        django_user_model.objects.create_user(f"target{n}")
    sent = [challenge(alice_client, classic, f"target{n}", n) for n in range(allowed + 5)]
    assert statuses(sent) == {302: allowed, 429: 5}
    assert Game.objects.count() == allowed
    assert "You have sent many challenges" in sent[-1].content.decode()


def test_seats_taken_and_left_per_player_per_hour(alice, bob_client, classic, settings):
    """Joining and leaving an open table over and over (each tells the lobby and the
    table's readers) stops at the limit; the seat stays as the last allowed change left it."""
    from games import services

    allowed = settings.LIMITS["seat_changes"][0]
    game = services.create_game(alice, classic, players=3)
    sent = []
    for _ in range(ATTEMPTS):
        sent.append(bob_client.post(f"/games/{game.pk}/join/"))
        sent.append(bob_client.post(f"/games/{game.pk}/leave/"))
    counted = statuses(sent)
    assert counted.get(429) == 2 * ATTEMPTS - allowed, counted
    assert not game.seats.filter(player__username="bob").exists()


def test_push_subscriptions_per_player_per_hour(alice_client, settings, monkeypatch):
    FakeDNS(monkeypatch)  # push.example.com is a public host; no lookup leaves the machine
    allowed = settings.LIMITS["push_subscriptions"][0]
    device = Device()  # real keys, as a browser gives them
    keys = {"p256dh": device.p256dh, "auth": b64(device.auth)}

    def subscribe(n):
        body = {"endpoint": f"https://push.example.com/send/device{n}", "keys": keys}
        return alice_client.post("/push/subscribe/", json.dumps(body),
                                 content_type="application/json")

    sent = [subscribe(n) for n in range(ATTEMPTS)]
    assert statuses(sent) == {204: allowed, 429: ATTEMPTS - allowed}
    assert PushSubscription.objects.count() == allowed
    refused = sent[-1]
    assert refused["Content-Type"] == "application/json"
    assert "turned on notifications many times" in refused.json()["error"]


def test_the_refusal_speaks_the_players_language(alice_client, classic, settings):
    call_command("compilemessages", locale=["fi"], ignore_patterns=[".venv"], verbosity=0)
    settings.LIMITS = {**settings.LIMITS, "games_made": (0, 3600)}
    r = alice_client.post("/games/new/", {"preset": classic.pk}, HTTP_ACCEPT_LANGUAGE="fi")
    body = r.content.decode()
    assert r.status_code == 429 and '<html lang="fi">' in body
    assert "Olet luonut monta pöytää lyhyessä ajassa." in body
    assert "Mitään ei muutettu. Voit yrittää uudelleen 60 minuutin kuluessa." in body


# ----------------------------------------------------------------------------- the URL walk
ADMIN = "admin/"  # the admin: staff only, behind its own log-in and Django's checks
EXEMPT = {
    # Log-in and the links mailed to a player: counted elsewhere, or good once.
    "accounts.views.LoginView": "django-axes counts failed log-ins (accounts.lockout)",
    "django.contrib.auth.views.LogoutView": "ends one's own session, nothing else",
    "accounts.views.signup": "counts itself: signup_ip (accounts.ratelimit)",
    "accounts.views.PasswordResetView": "counts itself: reset_ip and reset_account",
    "accounts.views.PasswordResetConfirmView": "the reset mail's signed one-time link",
    "accounts.views.email_change_confirm": "a mailed signed link that works once",
    "accounts.views.device_login": "a mailed signed link that works once",
    "accounts.views.unsubscribe_view": "a mailed signed link; repeated, it changes nothing",
    # Pages that read only and answer a POST as a GET.
    "accounts.views.public_profile": "reads only",
    "django.views.generic.base.RedirectView": "the favicon's redirect: reads only",
    # At the table (docs/design.md, "Limits by default"): moves wait for the turn, the rest
    # is one seat's once-per-state change, or counts itself.
    "games.views.table.play": "a move: one a turn, the game's own limit",
    "games.views.table.orders": "standing orders for one's own seat, used on one's turn",
    "games.views.table.resign": "once per game",
    "games.views.table.start": "once per game, by its maker",
    "games.views.table.abort": "once per game, by its maker",
    "games.views.table.resume": "once per pause, by a seated player",
    "games.views.table.claim": "once per timeout, by a seated player",
    "games.views.table.rematch": "one rematch per finished game",
    "games.views.table.chat": "counts itself: chat (games.limits.rows_full)",
    "games.views.table.hint": "counts itself: hint (games.limits.hit)",
    "games.views.history.ask_review": "counts itself: review (games.limits.hit)",
}


def routes(patterns, prefix=""):
    """(route, view) for every URL pattern, through the includes."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from routes(entry.url_patterns, prefix + str(entry.pattern))
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), entry.callback


def view_name(view) -> str:
    view = getattr(view, "view_class", view)
    return f"{view.__module__}.{view.__qualname__}"


def concrete(route: str) -> str:
    """A URL for the route: numbers for ids, a word for the rest; a regular expression's
    group its first choice."""
    if route.startswith("^"):
        route = re.sub(r"\(\?P<\w+>([^|)]*)[^)]*\)", r"\1", route.strip("^$"))
        return "/" + route.replace("\\.", ".")
    return "/" + re.sub(r"<(?:(\w+):)?\w+>",
                        lambda m: "999999" if m.group(1) == "int" else "x", route)


def unlimited_posts(urlconf, client) -> list[str]:
    """The routes whose view takes a POST (the client's POST is not answered 405) and
    carries no limit, unless exempt."""
    found = []
    for route, view in routes(get_resolver(urlconf).url_patterns):
        if route.startswith(ADMIN) or limits.limits_of(view) or view_name(view) in EXEMPT:
            continue
        if client.post(concrete(route)).status_code != 405:
            found.append(route)
    return found


@pytest.fixture
def player_client(alice):
    client = Client(raise_request_exception=False)
    client.force_login(alice)
    return client


def test_every_view_that_takes_a_post_has_a_limit(player_client, settings):
    assert unlimited_posts(settings.ROOT_URLCONF, player_client) == []
    names = {view_name(view) for _, view in routes(get_resolver().url_patterns)}
    assert set(EXEMPT) <= names, "an exemption names no view of the site"


def test_the_walk_finds_a_new_view_without_a_limit(player_client, settings):
    @require_POST
    def throwaway(request):
        return HttpResponse("made")

    @limits.limited("games_made")
    @require_POST
    def counted(request):
        return HttpResponse("made")

    site = __import__(settings.ROOT_URLCONF, fromlist=["urlpatterns"])
    urlconf = types.ModuleType("throwaway_urls")
    urlconf.urlpatterns = [  # type: ignore[attr-defined]
        path("throwaway/", throwaway), path("counted/", counted), *site.urlpatterns]
    settings.ROOT_URLCONF = urlconf
    assert unlimited_posts(urlconf, player_client) == ["throwaway/"]

