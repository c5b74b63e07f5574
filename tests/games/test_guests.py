"""Guests from a link (docs/design.md, "Guests from a link"): a visitor with an invite link
plays as a guest with a name only; casual games only; no look-alike names; the sign-up
limit of their address; chat only among the link's people; the claim; the clean-up."""

import json
import re
from datetime import timedelta

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.utils import timezone

from games import services, tasks
from games.models import ChatMessage, Game, Rating, RatingChange
from games.present import standings
from games.services.errors import Forbidden
from games.services.guests import remove_old_guests

from .conftest import client_for, table_url

pytestmark = pytest.mark.django_db
ADDRESS = "203.0.113.7"
SECRET = "a-long-unusual-secret-42"


def guest_url(game):
    return f"/games/{game.pk}/guest/"


def private_table(alice, classic, *, rated=False):
    return services.create_game(alice, classic, players=2, private=True, rated=rated)


def come_as_guest(game, name="Mum", *, client=None, address=ADDRESS, invite=None):
    client = client or Client()
    invite = game.invite_token if invite is None else invite
    response = client.post(guest_url(game), {"name": name, "invite": invite},
                           REMOTE_ADDR=address)
    return client, response


def guests():
    return get_user_model().objects.filter(is_guest=True)


def guest_seated(game):
    return next(s.player for s in game.seats.select_related("player") if s.player
                and s.player.is_guest)


# ----------------------------------------------------------------------------- the link
def test_the_invite_link_offers_play_as_a_guest(alice, classic):
    game = private_table(alice, classic)
    body = Client().get(f"{table_url(game)}?invite={game.invite_token}").content.decode()
    assert f'action="/games/{game.pk}/guest/"' in body
    assert "Play as a guest" in body


def test_a_visitor_with_the_link_takes_the_seat_as_a_guest(alice, classic):
    game = private_table(alice, classic)
    client, response = come_as_guest(game)
    assert response.status_code == 302 and response["Location"] == table_url(game)
    guest = guests().get()
    assert guest.name == "Mum" and not guest.has_usable_password()
    assert client.session["_auth_user_id"] == str(guest.pk)  # kept in the browser's session
    game.refresh_from_db()
    assert game.is_playing and guest_seated(game) == guest
    body = client.get("/games/mine/").content.decode()
    assert f"/games/{game.pk}/" in body
    assert 'id="nav-claim"' in client.get(table_url(game)).content.decode()


def test_a_guests_session_lasts_30_days_from_their_last_visit(alice, classic):
    client, _response = come_as_guest(private_table(alice, classic))
    assert client.session.get_expiry_age() > 29 * 86400
    session = client.session
    session.set_expiry(timedelta(days=3))  # as if their last visit was 27 days ago
    session.save()
    client.get("/games/mine/")
    assert client.session.get_expiry_age() > 29 * 86400


def test_without_the_link_nobody_becomes_a_guest(alice, classic):
    game = private_table(alice, classic)
    _client, response = come_as_guest(game, invite="wrong")
    assert response.status_code == 404
    assert not guests().exists()


def test_a_tournaments_link_enters_a_guest(alice, classic):
    cup = services.tournament.create_tournament(alice, classic, name="Family cup",
                                                private=True, rated=False)
    page = Client().get(f"/tournaments/{cup.pk}/?invite={cup.invite_token}").content.decode()
    assert f'action="/tournaments/{cup.pk}/guest/"' in page
    client = Client()
    response = client.post(f"/tournaments/{cup.pk}/guest/",
                           {"name": "Mum", "invite": cup.invite_token}, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 302
    assert cup.entries.filter(player=guests().get()).exists()
    assert "Family cup" in client.get(f"/tournaments/{cup.pk}/").content.decode()


def test_a_rated_tournament_makes_no_guest(alice, classic):
    cup = services.tournament.create_tournament(alice, classic, name="Cup", private=True)
    response = Client().post(f"/tournaments/{cup.pk}/guest/",
                             {"name": "Mum", "invite": cup.invite_token}, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 403
    assert "this tournament is rated" in response.content.decode()
    assert not guests().exists() and cup.entries.count() == 1
    wrong = Client().post(f"/tournaments/{cup.pk}/guest/", {"name": "Mum", "invite": "x"})
    assert wrong.status_code == 404


# ------------------------------------------------------------ a private table is casual
def test_a_private_table_is_casual_unless_its_maker_chooses_rated(alice, classic):
    assert not services.create_game(alice, classic, players=2, private=True).rated
    assert services.create_game(alice, classic, players=2).rated  # a lobby table: rated
    assert services.create_game(alice, classic, players=2, private=True, rated=True).rated


def test_the_new_game_form_makes_a_private_table_casual_and_says_why(alice, classic):
    maker = client_for(alice)
    page = maker.get("/").content.decode()
    form = re.search(r'<form id="create-game".*?</form>', page, re.S).group(0)
    radios = {value: tag for tag, value in re.findall(
        r'(<input[^>]*name="rated" value="(\w+)"[^>]*>)', form)}
    assert set(radios) == {"rated", "casual"}
    # Unchosen: the Private box chooses (static/js/fit.js), else the service does.
    assert "checked" not in "".join(radios.values())
    assert 'data-follows="private" data-when="on"' in radios["casual"]
    assert 'data-follows="private" data-when="off"' in radios["rated"]
    assert ("A private table is casual unless you choose rated: rated tables need registered "
            "players") in form
    fields = {"preset": classic.pk, "players": 2, "bots": 0, "bot_level": "medium",
              "match_kind": "deals", "count": 1, "move_time": 300}
    for extra, rated in (({"private": "on"}, False), ({}, True),
                         ({"private": "on", "rated": "rated"}, True),
                         ({"rated": "casual"}, False)):
        before = set(Game.objects.values_list("pk", flat=True))
        assert maker.post("/games/new/", {**fields, **extra}).status_code == 302
        game = Game.objects.exclude(pk__in=before).get()
        assert (game.private, game.rated) == ("private" in extra, rated), extra


def test_a_guest_with_the_link_sits_at_a_private_table_made_as_it_comes(alice, classic):
    game = services.create_game(alice, classic, players=2, private=True)
    waiting = client_for(alice).get(table_url(game)).content.decode()
    assert "This game is casual: they can play as guests, without signing up." in waiting
    assert "This game is rated" not in waiting
    _client, response = come_as_guest(game)
    assert response.status_code == 302
    game.refresh_from_db()
    assert game.is_playing and guest_seated(game).name == "Mum"


# ----------------------------------------------------------------------------- refusals
def test_a_rated_table_refuses_a_visitor_before_any_guest_is_made(alice, classic):
    game = private_table(alice, classic, rated=True)
    _client, response = come_as_guest(game)
    assert response.status_code == 403
    assert "Guests play casual games only" in response.content.decode()
    assert not guests().exists()
    game.refresh_from_db()
    assert game.is_open


@pytest.fixture
def guest(alice, classic):
    game = private_table(alice, classic)
    come_as_guest(game)
    return guests().get()


def test_a_guest_is_refused_rated_games_quick_match_and_rated_tournaments(guest, bob, classic):
    rated = services.create_game(bob, classic, players=3, rated=True)
    casual = services.create_game(bob, classic, players=3, rated=False)
    refusals = [
        lambda: services.create_game(guest, classic, players=2, rated=True),
        lambda: services.join_game(rated.pk, guest),
        lambda: services.quick_match(guest, classic),
        lambda: services.tournament.create_tournament(guest, classic, name="Cup", private=True,
                                                      rated=True),
        lambda: services.challenge(guest, bob, classic, rated=False),
        lambda: services.challenge(bob, guest, classic, rated=False),
    ]
    tournament = services.tournament.create_tournament(bob, classic, name="Cup", private=True)
    refusals.append(lambda: services.tournament.join_tournament(
        tournament.pk, guest, invite_token=tournament.invite_token))
    for refusal in refusals:
        with pytest.raises(Forbidden) as info:
            refusal()
        assert "Guests" in info.value.message
    assert not tournament.entries.filter(player=guest).exists()
    assert not Game.objects.filter(created_by=guest).exists()
    rated.refresh_from_db()
    assert not rated.seats.filter(player=guest).exists()
    # Casual ones are theirs to play.
    services.join_game(casual.pk, guest)
    assert services.create_game(guest, classic, players=2, rated=False).created_by == guest


def test_quick_match_tells_a_guest_why_not(guest, classic):
    response = client_for(guest).post("/games/quick/", {
        "preset": classic.pk, "time_control": "move", "move_time": 3600})
    assert response.status_code == 403
    assert "Guests play casual games only." in response.content.decode()
    assert not Game.objects.filter(created_by=guest).exists()


def test_a_rated_table_tells_a_guest_why_they_cannot_sit(guest, bob, classic):
    rated = services.create_game(bob, classic, players=3, rated=True)
    body = client_for(guest).get(table_url(rated)).content.decode()
    assert "Guests play casual games only, and this one is rated." in body
    assert f'action="/games/{rated.pk}/join/"' not in body


def test_guests_are_left_off_the_leaderboards(guest, alice, bob, classic, monkeypatch):
    monkeypatch.setattr(standings, "MIN_GAMES", 1)
    game = services.create_game(alice, classic, players=2, rated=False)
    for player in (guest, bob):  # as if they had played a rated game
        RatingChange.objects.create(
            game=game, player=player, pool="individual", players=2, place=1, lost=False,
            mu_before=25, sigma_before=8, mu_after=25, sigma_after=8, at=timezone.now())
        Rating.objects.create(player=player, pool="individual", mu=25, sigma=8, games=1,
                              games_2=1)
    names = [row["player"] for row in standings.leaderboard("2")]
    assert bob in names and guest not in names


# ----------------------------------------------------------------------------- names
@pytest.mark.parametrize("name", ["ALICE", "\u0430lice", "Computer 2", "mod", "a\u200bb"])
def test_a_guest_name_never_looks_like_an_account_or_a_computer(alice, classic, name):
    game = private_table(alice, classic)
    _client, response = come_as_guest(game, name=name)
    assert response.status_code == 400
    assert not guests().exists()
    game.refresh_from_db()
    assert game.is_open


def test_a_look_alike_is_named_as_such(alice, classic):
    game = private_table(alice, classic)
    _client, response = come_as_guest(game, name="A1ice")
    assert response.status_code == 400
    assert "looks too much like another player" in response.content.decode()


# ----------------------------------------------------------------------------- limits
def test_guests_count_in_the_sign_up_limit_of_their_address(alice, classic, settings):
    settings.LIMITS = {**settings.LIMITS, "signup_ip": (2, 3600)}
    made = []
    for n in range(2):
        game = private_table(alice, classic)
        _client, response = come_as_guest(game, name=f"Guest{n}")
        assert response.status_code == 302
        made.append(game)
    game = private_table(alice, classic)
    _client, response = come_as_guest(game, name="Guest2")
    assert response.status_code == 429
    assert "Too many new accounts have been made from your network." in response.content.decode()
    assert guests().count() == 2
    # A sign-up from the same address is refused as well: one allowance.
    response = Client().post("/accounts/signup/", {
        "username": "newcomer", "password1": SECRET, "password2": SECRET}, REMOTE_ADDR=ADDRESS)
    assert response.status_code == 429
    # Another address may.
    assert come_as_guest(game, name="Guest3", address="198.51.100.9")[1].status_code == 302


def test_a_refused_name_costs_no_allowance(alice, classic, settings):
    settings.LIMITS = {**settings.LIMITS, "signup_ip": (1, 3600)}
    game = private_table(alice, classic)
    for _ in range(3):
        assert come_as_guest(game, name="ALICE")[1].status_code == 400
    assert come_as_guest(game, name="Mum")[1].status_code == 302


def test_a_guest_counts_in_the_limits_of_players(guest, classic, settings):
    settings.LIMITS = {**settings.LIMITS, "games_made": (1, 3600)}
    client = client_for(guest)
    form = {"preset": classic.pk, "players": 2, "bots": 1, "bot_level": "medium",
            "match_kind": "deals", "count": 1, "move_time": 300, "rated": "casual"}
    assert client.post("/games/new/", form).status_code == 302
    assert client.post("/games/new/", form).status_code == 429


# ----------------------------------------------------------------------------- chat
def test_a_guest_chats_at_a_private_table_but_not_with_strangers(guest, bob, classic):
    private = Game.objects.get(seats__player=guest)
    services.chat.post(private.pk, guest, text="Hello, family")
    public = services.create_game(bob, classic, players=3, rated=False)
    services.join_game(public.pk, guest)
    client = client_for(guest)
    response = client.post(f"/games/{public.pk}/chat/", {"text": "hi strangers"},
                           headers={"HX-Request": "true"})
    assert response.status_code == 403
    assert "Claim your account to chat here." in response.content.decode()
    assert not ChatMessage.objects.filter(game=public).exists()


# ----------------------------------------------------------------------------- claim
def test_a_guest_claims_the_account_and_keeps_the_games(guest):
    client = client_for(guest)
    page = client.get("/accounts/claim/").content.decode()
    assert 'value="Mum"' in page  # their name, suggested as the username
    assert "Required: your way back in if you forget the password." in page  # the email
    response = client.post("/accounts/claim/", {
        "username": "mum", "email": "mum@example.org",
        "password1": SECRET, "password2": SECRET})
    assert response.status_code == 302 and response["Location"] == "/games/mine/"
    guest.refresh_from_db()
    assert not guest.is_guest and guest.username == "mum" and guest.check_password(SECRET)
    game = Game.objects.get(seats__player=guest)
    mine = client.get("/games/mine/").content.decode()  # still logged in
    assert f"/games/{game.pk}/" in mine
    other = Client()
    assert other.post("/accounts/login/", {"username": "mum", "password": SECRET}).status_code == 302
    assert f"/games/{game.pk}/" in other.get("/games/mine/").content.decode()


def test_a_bad_claim_changes_nothing(guest, alice):
    client = client_for(guest)
    for bad in ({"username": "alice", "email": "x@example.org"},  # taken
                {"username": "mum", "email": ""},  # an email is needed
                {"username": "mum", "email": "x@example.org", "password2": "other"}):
        data = {"password1": SECRET, "password2": SECRET, **bad}
        assert client.post("/accounts/claim/", data).status_code == 400
    guest.refresh_from_db()
    assert guest.is_guest and not guest.has_usable_password()


def test_a_guest_is_told_before_logging_out_that_the_guest_is_then_gone(guest, alice):
    """A guest has no password: the navigation's "Log out" leads to the claim page, which
    says what logging out costs, beside the claim; an account logs out at once."""
    client = client_for(guest)
    page = client.get("/games/mine/").content.decode()
    assert 'id="nav-leave" href="/accounts/claim/#leave"' in page
    assert 'action="/accounts/logout/"' not in page
    claim = client.get("/accounts/claim/").content.decode()
    assert "come back as this guest" in claim
    assert 'action="/accounts/logout/"' in claim
    assert client.post("/accounts/logout/").status_code == 302
    assert client.get("/games/mine/").status_code == 302  # logged out
    account = client_for(alice).get("/games/mine/").content.decode()
    assert 'action="/accounts/logout/"' in account and "nav-leave" not in account


def test_only_a_guest_has_something_to_claim(alice):
    client = client_for(alice)
    assert client.get("/accounts/claim/")["Location"] == "/accounts/profile/"
    response = client.post("/accounts/claim/", {"username": "x", "email": "x@example.org",
                                                "password1": SECRET, "password2": SECRET})
    assert response.status_code == 302
    alice.refresh_from_db()
    assert alice.username == "alice"


# ----------------------------------------------------------------------------- clean-up
def away(player, days):
    get_user_model().objects.filter(pk=player.pk).update(
        last_seen=timezone.now() - timedelta(days=days))


def test_an_unclaimed_guest_is_removed_after_30_days_and_their_games_stay(guest, alice):
    game = Game.objects.get(seats__player=guest)
    services.resign(game.pk, guest)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    client = client_for(guest)
    away(guest, 29)
    assert remove_old_guests() == 0
    away(guest, 31)
    assert tasks.remove_old_guests.apply().get() == 1  # the task beat runs
    guest.refresh_from_db()
    assert not guest.is_active and guest.display_name == "" and guest.name == "a guest"
    assert game.seats.filter(player=guest).exists()  # the seat is kept, anonymised
    # The replay and the export still work, the guest named "a guest".
    alice_client = client_for(alice)
    replay = alice_client.get(f"/games/{game.pk}/replay/")
    assert replay.status_code == 200 and "a guest" in replay.content.decode()
    export = json.loads(alice_client.get(f"/games/{game.pk}/export.json").content)
    assert "a guest" in [seat["name"] for seat in export["game"]["seats"]]
    assert "Mum" not in json.dumps(export)
    # Their browser is logged out; the name is free again.
    assert client.get("/games/mine/")["Location"].startswith("/accounts/login/")
    assert remove_old_guests() == 0  # once


def test_a_guest_who_left_nothing_is_deleted_and_one_at_an_open_table_leaves_it(alice, classic):
    game = services.create_game(alice, classic, players=3, private=True, rated=False)
    come_as_guest(game)
    waiting = guests().get()
    lonely = get_user_model().objects.create(username="guest~lonely", display_name="Lonely",
                                             is_guest=True)
    away(waiting, 40)
    away(lonely, 40)
    assert remove_old_guests() == 2
    assert not get_user_model().objects.filter(pk=lonely.pk).exists()
    game.refresh_from_db()
    assert game.is_open and not game.seats.filter(player=waiting).exists()


def test_guests_in_play_or_claimed_are_kept(guest, alice, classic):
    game = Game.objects.get(seats__player=guest)
    assert game.is_playing
    away(guest, 60)
    assert remove_old_guests() == 0
    guest.refresh_from_db()
    assert guest.is_active and guest.name == "Mum"
    get_user_model().objects.filter(pk=guest.pk).update(is_guest=False)
    services.resign(game.pk, guest)
    assert remove_old_guests() == 0


def test_beat_removes_old_guests_hourly():
    entry = settings.CELERY_BEAT_SCHEDULE["remove-old-guests"]
    assert entry["task"] == "games.tasks.remove_old_guests"
    assert entry["schedule"] == 3600.0
