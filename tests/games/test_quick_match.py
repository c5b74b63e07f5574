"""Quick match: a seat at the first open public table with the same rules and clock, or a
new 2-player table for the next player; bad input changes nothing; sent twice, one seat."""

from datetime import timedelta

import pytest

from games import services
from games.models import Game, RulePreset

pytestmark = pytest.mark.django_db

HOUR, DAY = timedelta(hours=1), timedelta(days=1)


def _quick(client, rules, **fields):
    data = {"preset": rules.pk, "time_control": "move", "move_time": 3600, **fields}
    return client.post("/games/quick/", data)


def test_it_opens_a_public_two_player_table_without_bots(alice, classic):
    game = services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    assert (game.status, game.players, game.private, game.move_time) == (
        Game.Status.OPEN, 2, False, HOUR)
    assert list(game.seats.values_list("player", "bot_level")) == [(alice.pk, ""), (None, "")]


def test_the_second_player_lands_at_the_same_table(alice, bob, classic, seeded):
    first = services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    second = services.quick_match(bob, classic, time_control="move", move_time=HOUR)
    assert second.pk == first.pk
    assert second.status == Game.Status.PLAYING
    assert Game.objects.count() == 1


def test_it_joins_only_a_table_that_fits(alice, bob, carol, classic, seeded):
    other = RulePreset.objects.create(name="Other", min_players=2, max_players=6)
    services.quick_match(alice, other, time_control="move", move_time=HOUR)  # other rules
    services.quick_match(carol, classic, time_control="move", move_time=DAY)  # other time
    private = services.create_game(carol, classic, players=2, move_time=HOUR, private=True)
    bank = services.quick_match(carol, classic, time_control="bank", bank_time=DAY,
                                increment=HOUR)
    mine = services.quick_match(bob, classic, time_control="move", move_time=HOUR)
    assert mine.pk not in {private.pk, bank.pk} and mine.is_open
    assert Game.objects.count() == 5
    again = services.quick_match(alice, classic, time_control="bank", bank_time=DAY,
                                 increment=HOUR)
    assert again.pk == bank.pk and again.is_playing


def test_it_skips_casual_tables_and_longer_matches(alice, bob, carol, classic, seeded):
    casual = services.create_game(alice, classic, players=2, move_time=HOUR, rated=False)
    match = services.create_game(bob, classic, players=2, move_time=HOUR, deals=5)
    losses = services.create_game(bob, classic, players=2, move_time=HOUR, loss_limit=3)
    game = services.quick_match(carol, classic, time_control="move", move_time=HOUR)
    assert game.pk not in {casual.pk, match.pk, losses.pk}
    assert (game.rated, game.deals, game.loss_limit, game.is_open) == (True, 1, None, True)


def test_it_joins_the_oldest_fitting_table(alice, bob, carol, classic, seeded):
    older = services.create_game(alice, classic, players=3, bots=0, move_time=HOUR)
    services.create_game(bob, classic, players=2, bots=0, move_time=HOUR)
    game = services.quick_match(carol, classic, time_control="move", move_time=HOUR)
    assert game.pk == older.pk


def test_it_does_not_seat_you_twice_or_open_a_second_table(alice, classic):
    first = services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    again = services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    assert again.pk == first.pk
    assert Game.objects.count() == 1 and first.seats.filter(player=alice).count() == 1


def test_it_skips_a_full_table_and_one_with_bots_in_every_free_seat(alice, bob, carol,
                                                                    classic, seeded):
    services.create_game(alice, classic, players=2, bots=1, move_time=HOUR)  # full: playing
    game = services.quick_match(carol, classic, time_control="move", move_time=HOUR)
    assert game.is_open and game.created_by == carol


@pytest.mark.parametrize("options, words", [
    ({"time_control": "fast"}, "time per move or a time bank"),
    ({"time_control": "move", "move_time": timedelta(seconds=5)}, "between one minute"),
    ({"time_control": "bank", "bank_time": timedelta(days=90)}, "time bank must be"),
])
def test_it_refuses_a_bad_clock_and_changes_nothing(alice, classic, options, words):
    with pytest.raises(services.BadRequest) as info:
        services.quick_match(alice, classic, **options)
    assert words in info.value.message
    assert Game.objects.count() == 0


def test_it_refuses_rules_not_for_two(alice, pairs):
    with pytest.raises(services.BadRequest) as info:
        services.quick_match(alice, pairs, time_control="move", move_time=HOUR)
    assert "two players" in info.value.message
    assert Game.objects.count() == 0


def test_it_refuses_an_inactive_preset(alice, classic):
    classic.active = False
    classic.save()
    with pytest.raises(services.BadRequest):
        services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    assert Game.objects.count() == 0


def test_it_needs_a_log_in(client, classic):
    response = _quick(client, classic)
    assert response.status_code == 302 and "/login" in response["Location"]
    assert Game.objects.count() == 0


def test_the_view_seats_both_players_at_one_table(alice_client, bob_client, classic, seeded):
    first = _quick(alice_client, classic)
    second = _quick(bob_client, classic)
    assert first.status_code == second.status_code == 302
    assert first["Location"] == second["Location"]
    game = Game.objects.get()
    assert first["Location"] == f"/games/{game.pk}/" and game.is_playing


def test_the_view_refuses_bad_input_with_a_message(alice_client, classic):
    response = _quick(alice_client, classic, move_time=7)
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    response = _quick(alice_client, classic, preset=999999)
    assert "Select a valid choice" in response.content.decode()
    assert response.status_code == 400
    assert Game.objects.count() == 0


def test_the_view_refuses_rules_not_for_two_with_a_message(alice_client, pairs):
    response = _quick(alice_client, pairs)
    assert response.status_code == 400
    assert "A quick match is for two players" in response.content.decode()
    assert Game.objects.count() == 0


def test_the_same_form_sent_twice_makes_one_table(alice_client, classic):
    first = _quick(alice_client, classic, once="quick-token-1")
    second = _quick(alice_client, classic, once="quick-token-1")
    assert first["Location"] == second["Location"]
    assert Game.objects.count() == 1


def test_the_lobby_shows_the_quick_match_form(alice_client, classic):
    page = alice_client.get("/").content.decode()
    assert 'id="quick-match"' in page and 'action="/games/quick/"' in page
    assert 'id="quick_time_control"' in page


def test_another_tab_after_the_table_started_gets_the_same_table(alice, bob, classic, seeded):
    """Tabs clicked at once: once the first two clicks have started a table, the next
    clicks of either player land at that table until someone has moved."""
    first = services.quick_match(alice, classic, time_control="move", move_time=HOUR)
    services.quick_match(bob, classic, time_control="move", move_time=HOUR)
    assert services.quick_match(alice, classic, time_control="move", move_time=HOUR).pk == first.pk
    assert services.quick_match(bob, classic, time_control="move", move_time=HOUR).pk == first.pk
    assert list(Game.objects.values_list("status", flat=True)) == [Game.Status.PLAYING]


def test_the_quick_match_form_offers_a_clock_for_playing_now(alice_client, classic, seeded):
    from tests.games.test_form_walk import read

    form = read(alice_client.get("/").content.decode(), "quick-match")
    assert form.chosen["time_control"] == "move" and form.chosen["move_time"] == "120"
    response = alice_client.post("/games/quick/", form.answers(preset=classic.pk))
    assert response.status_code == 302
    assert Game.objects.get().move_time == timedelta(minutes=2)
