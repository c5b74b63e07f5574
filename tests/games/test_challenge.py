"""Challenges: a private table for two made for a named player, who alone may accept
(the game starts) or decline (the table is cancelled), and who hears of it by email."""

import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client

from accounts import unsubscribe
from games import services
from games.models import Game

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture
def challenged(alice, bob, classic, django_capture_on_commit_callbacks):
    """alice challenges bob to a day per move; the email goes after the commit."""
    with django_capture_on_commit_callbacks(execute=True):
        game = services.challenge(alice, bob, classic, time_control="move", move_time=DAY)
    return game


def test_it_makes_a_private_table_for_two_without_bots(challenged, alice, bob):
    game = Game.objects.get(pk=challenged.pk)
    assert (game.status, game.players, game.private, game.challenged) == (
        Game.Status.OPEN, 2, True, bob)
    assert list(game.seats.values_list("player", "bot_level")) == [(alice.pk, ""), (None, "")]
    assert list(services.open_challenges(bob)) == [game]
    assert list(services.open_challenges(alice)) == []


def test_the_challenged_player_gets_an_email_with_the_links(challenged, bob):
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["bob@example.org"]
    assert "alice challenges you" in message.subject
    assert "/games/mine/" in message.body
    assert challenged.invite_url in message.body
    link = re.search(r"https?://\S+/accounts/unsubscribe/(\S+)/", message.body)
    assert link and message.extra_headers["List-Unsubscribe"] == f"<{link.group(0)}>"
    assert unsubscribe.read(link.group(1)) == (bob, "moves")


def test_no_email_for_a_player_who_wants_none(alice, bob, classic,
                                              django_capture_on_commit_callbacks):
    bob.move_emails = "never"
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = services.challenge(alice, bob, classic)
    assert mail.outbox == [] and game.challenged == bob
    assert services.send_challenge_mail(game.pk) is False


def test_the_email_is_in_the_players_language(alice, bob, classic,
                                              django_capture_on_commit_callbacks):
    bob.language = "fi"
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        services.challenge(alice, bob, classic)
    assert "alice challenges you" not in mail.outbox[0].subject
    assert "alice" in mail.outbox[0].subject


def test_accept_seats_the_challenged_player_and_starts_the_game(challenged, bob, seeded):
    game = services.accept_challenge(challenged.pk, bob)
    assert game.status == Game.Status.PLAYING
    assert game.seats.filter(player=bob).exists()
    assert list(services.open_challenges(bob)) == []


def test_decline_cancels_the_table(challenged, bob):
    game = services.decline_challenge(challenged.pk, bob)
    assert game.status == Game.Status.ABORTED
    assert list(services.open_challenges(bob)) == []
    with pytest.raises(services.Conflict):
        services.accept_challenge(challenged.pk, bob)


@pytest.mark.parametrize("answer", ["accept_challenge", "decline_challenge"])
def test_only_the_challenged_player_may_answer(challenged, alice, carol, answer):
    for other in (alice, carol):
        with pytest.raises(services.Forbidden):
            getattr(services, answer)(challenged.pk, other)
    game = Game.objects.get(pk=challenged.pk)
    assert game.status == Game.Status.OPEN and game.version == challenged.version


def test_nobody_else_takes_the_seat_even_with_the_invite_link(challenged, carol):
    with pytest.raises(services.Forbidden):
        services.join_game(challenged.pk, carol, invite_token=challenged.invite_token)
    assert not Game.objects.get(pk=challenged.pk).seats.filter(player=carol).exists()


def test_a_table_that_is_no_challenge_cannot_be_answered(alice, bob, classic):
    game = services.create_game(alice, classic, players=2, bots=0)
    with pytest.raises(services.NotFound):
        services.accept_challenge(game.pk, bob)


def test_it_refuses_yourself_and_rules_not_for_two(alice, classic, pairs):
    with pytest.raises(services.BadRequest):
        services.challenge(alice, alice, classic)
    with pytest.raises(services.BadRequest) as info:
        services.challenge(alice, alice.__class__.objects.create_user("eve"), pairs)
    assert "game for two" in info.value.message
    assert Game.objects.count() == 0


# ----------------------------------------------------------------------------- views
def _challenge(client, rules, **fields):
    data = {"opponent": "bob", "preset": rules.pk, "time_control": "move",
            "move_time": 86400, **fields}
    return client.post("/games/challenge/", data)


def test_the_profile_links_to_a_filled_in_challenge_form(alice_client, bob, classic):
    page = alice_client.get("/accounts/u/bob/").content.decode()
    assert 'href="/games/challenge/?to=bob"' in page
    form = alice_client.get("/games/challenge/?to=bob").content.decode()
    assert 'name="opponent"' in form and 'value="bob"' in form
    assert "/games/challenge/" not in alice_client.get("/accounts/u/alice/").content.decode()


def test_the_view_makes_the_challenge_and_my_games_offers_it(
        alice_client, bob_client, classic, bob, seeded, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        response = _challenge(alice_client, classic)
    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert len(mail.outbox) == 1
    # alice's table says whom it waits for, and offers no start that gives bob's seat away.
    table = alice_client.get(f"/games/{game.pk}/").content.decode()
    assert "Waiting for bob to accept the challenge." in table
    assert "Start now" not in table and "Cancel the game" in table
    assert 'class="messages' not in table  # no note above it that would outlast the challenge
    page = bob_client.get("/games/mine/").content.decode()
    assert "Challenges for you" in page and f'action="/games/{game.pk}/challenge/"' in page
    response = bob_client.post(f"/games/{game.pk}/challenge/", {"answer": "accept"})
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert Game.objects.get().is_playing


def test_the_view_declines(alice_client, bob_client, bob, classic):
    _challenge(alice_client, classic)
    game = Game.objects.get()
    response = bob_client.post(f"/games/{game.pk}/challenge/", {"answer": "decline"})
    assert response.status_code == 302 and response["Location"] == "/games/mine/"
    assert Game.objects.get().status == Game.Status.ABORTED


def test_the_view_refuses_another_player_with_a_message(alice_client, carol_client, bob,
                                                       classic):
    _challenge(alice_client, classic)
    game = Game.objects.get()
    response = carol_client.post(f"/games/{game.pk}/challenge/", {"answer": "accept"})
    assert response.status_code == 403
    assert "Only the challenged player" in response.content.decode()
    assert Game.objects.get().is_open


def test_the_view_refuses_an_unknown_player_and_changes_nothing(alice_client, classic):
    response = _challenge(alice_client, classic, opponent="nobody")
    assert response.status_code == 400
    assert response.content.decode().count("There is no player called nobody") == 1  # once
    assert Game.objects.count() == 0


def test_a_challenged_name_may_differ_in_case(alice_client, bob, classic):
    _challenge(alice_client, classic, opponent="  BOB ")
    game = Game.objects.get()
    assert game.challenged == bob


def test_the_same_challenge_sent_twice_makes_one_table(alice_client, bob, classic):
    _challenge(alice_client, classic, once="challenge-1")
    _challenge(alice_client, classic, once="challenge-1")
    assert Game.objects.count() == 1


def test_the_challenge_form_offers_only_rules_for_two(alice_client, classic, pairs):
    page = alice_client.get("/games/challenge/").content.decode()
    assert f'<option value="{classic.pk}"' in page and f'<option value="{pairs.pk}"' not in page
    response = _challenge(alice_client, pairs)
    assert response.status_code == 400 and Game.objects.count() == 0


def test_a_challenge_may_be_casual_and_says_which(alice_client, bob_client, bob, classic):
    _challenge(alice_client, classic, rated="casual")
    game = Game.objects.get()
    assert not game.rated  # no rating moves, and the coach may give hints
    assert "challenges you: " in (mine := bob_client.get("/games/mine/").content.decode())
    assert ", casual</span>" in mine
    assert "· casual" in alice_client.get(f"/games/{game.pk}/").content.decode()
    _challenge(alice_client, classic)  # rated unless asked otherwise
    rated = Game.objects.latest("pk")
    table = bob_client.get(f"/games/{rated.pk}/").content.decode()  # bob may look first
    assert rated.rated and "· rated" in table
    assert f'action="/games/{rated.pk}/challenge/"' in table and "Take a seat" not in table
    open_table = services.create_game(bob, classic, players=2)  # no challenge: no answer
    for client in (Client(), alice_client):
        assert "/challenge/" not in client.get(f"/games/{open_table.pk}/").content.decode()


def test_a_bad_rating_choice_is_refused_and_makes_no_table(alice_client, bob, classic):
    response = _challenge(alice_client, classic, rated="sometimes")
    assert response.status_code == 400 and Game.objects.count() == 0
    assert "Select a valid choice" in response.content.decode()


def test_the_challenge_mail_speaks_the_players_language(alice, bob, seeded,
                                                         django_capture_on_commit_callbacks):
    from games.models import RulePreset

    bob.language = "ru"
    bob.save()
    with django_capture_on_commit_callbacks(execute=True):
        game = services.challenge(alice, bob, RulePreset.objects.get(name="Classic"),
                                  move_time=DAY)
    (message,) = mail.outbox
    assert message.subject == "alice вызывает вас сыграть в дурака"
    assert "alice вызывает вас на игру: «Классический», 1 день на ход." in message.body
    assert game.invite_url in message.body
