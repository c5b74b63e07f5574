"""games.services: the one door. Every refusal leaves the game exactly as it was."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.engine import Attack, Card, Take
from games.models import Game, Move, RulePreset, Seat

from .conftest import client_for, first_legal, refused, seat_user, to_act

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------------------- create
def test_it_creates_an_open_game_with_the_creator_in_seat_0(alice, classic):
    game = services.create_game(alice, classic, players=3, bots=1,
                                move_time=timedelta(minutes=5), private=True)
    assert game.status == Game.Status.OPEN
    assert game.version == 1 and game.state == "" and game.deadline is None
    seats = list(game.seats.order_by("number"))
    assert [(s.player, s.bot_level) for s in seats] == [(alice, ""), (None, ""), (None, "medium")]
    assert game.rules == classic.rules(3).to_dict()
    assert game.deals == 1 and game.loss_limit is None
    assert len(game.invite_token) >= 16
    assert Move.objects.get(game=game).kind == Move.Kind.SYSTEM


def test_it_starts_a_full_table_at_once(alice, classic, seeded):
    game = services.create_game(alice, classic, players=3, bots=["easy", "hard"],
                                loss_limit=3, move_time=timedelta(days=7))
    assert game.status == Game.Status.PLAYING
    assert [s.bot_level for s in game.seats.order_by("number")] == ["", "easy", "hard"]
    assert game.match().loss_limit == 3
    assert game.deadline > timezone.now() + timedelta(days=6)
    assert game.turn_seat == game.match().deal.to_act


@pytest.mark.parametrize("kwargs, words", [
    ({"players": 7}, "2–6 players"),
    ({"players": 2, "bots": 2}, "at most 1 computer player."),
    ({"players": 2, "bots": ["genius"]}, "Bot levels"),
    ({"players": 2, "deals": 0}, "between 1 and 99"),
    ({"players": 2, "loss_limit": 100}, "between 1 and 99"),
    ({"players": 2, "move_time": timedelta(seconds=59)}, "one minute and fourteen days"),
    ({"players": 2, "move_time": timedelta(days=14, seconds=1)}, "one minute and fourteen days"),
])
def test_it_refuses_bad_game_settings(alice, classic, kwargs, words):
    kwargs.setdefault("move_time", timedelta(hours=1))
    with pytest.raises(services.BadRequest, match=words):
        services.create_game(alice, classic, **kwargs)
    assert not Game.objects.exists()


def test_it_refuses_an_inactive_preset(alice, classic):
    classic.active = False
    classic.save()
    with pytest.raises(services.BadRequest):
        services.create_game(alice, classic, players=2)


def test_it_refuses_anonymous_players(classic):
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(services.Forbidden):
        services.create_game(AnonymousUser(), classic, players=2)


# ---------------------------------------------------------------------------- join/leave
def test_it_joins_and_starts_when_full(alice, bob, classic):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    assert game.status == Game.Status.PLAYING
    assert game.seats.get(number=1).player == bob
    assert game.version == 2


def test_it_refuses_a_second_seat_a_full_table_and_a_started_game(alice, bob, carol, classic):
    game = services.create_game(alice, classic, players=3)
    assert "already have a seat" in refused(
        game, lambda: services.join_game(game.pk, alice), services.Conflict, 409)
    services.join_game(game.pk, bob)
    services.join_game(game.pk, carol)
    game.refresh_from_db()
    assert game.status == Game.Status.PLAYING
    dave = type(alice).objects.create_user("dave")
    assert "already started" in refused(
        game, lambda: services.join_game(game.pk, dave), services.Conflict)


def test_a_private_game_needs_the_invite_token(alice, bob, classic):
    game = services.create_game(alice, classic, players=2, private=True)
    refused(game, lambda: services.join_game(game.pk, bob), services.NotFound, 404)
    refused(game, lambda: services.join_game(game.pk, bob, invite_token="wrong"),
            services.NotFound)
    game = services.join_game(game.pk, bob, invite_token=game.invite_token)
    assert game.status == Game.Status.PLAYING


def test_it_lets_players_leave_an_open_game(alice, bob, classic):
    game = services.create_game(alice, classic, players=3)
    services.join_game(game.pk, bob)
    game = services.leave_game(game.pk, alice)
    assert game.created_by == bob  # the table passes to the next player
    assert not game.seats.filter(player=alice).exists()
    game = services.leave_game(game.pk, bob)
    assert game.status == Game.Status.ABORTED  # nobody left


def test_it_refuses_leaving_a_started_game(duel, alice, carol):
    refused(duel, lambda: services.leave_game(duel.pk, alice), services.Conflict, 409)
    refused(duel, lambda: services.leave_game(duel.pk, carol), services.Forbidden, 403)


def test_unknown_games_are_not_found(alice):
    for game_id in (999, "abc", None):
        with pytest.raises(services.NotFound) as info:
            services.join_game(game_id, alice)
        assert info.value.status == 404


# ---------------------------------------------------------------------------- start/abort
def test_the_creator_starts_early_with_bots(alice, bob, classic):
    game = services.create_game(alice, classic, players=4, bot_level="easy")
    services.join_game(game.pk, bob)
    refused(game, lambda: services.start_game(game.pk, bob), services.Forbidden, 403)
    game = services.start_game(game.pk, alice)
    assert game.status == Game.Status.PLAYING
    assert [s.bot_level for s in game.seats.order_by("number")] == ["", "", "easy", "easy"]
    refused(game, lambda: services.start_game(game.pk, alice), services.Conflict)


def test_abort_rules(alice, bob, admin, classic, duel):
    open_game = services.create_game(alice, classic, players=2)
    refused(open_game, lambda: services.abort_game(open_game.pk, bob), services.Forbidden)
    assert services.abort_game(open_game.pk, alice).status == Game.Status.ABORTED
    refused(duel, lambda: services.abort_game(duel.pk, alice), services.Forbidden, 403)
    game = services.abort_game(duel.pk, admin)
    assert game.status == Game.Status.ABORTED and game.deadline is None
    refused(duel, lambda: services.abort_game(duel.pk, admin), services.Conflict)
    refused(duel, lambda: services.play(duel.pk, alice, ["take"], game.version),
            services.Conflict)


# ---------------------------------------------------------------------------- play
def test_it_applies_a_move_and_bumps_the_version(duel):
    seat = to_act(duel)
    user = duel.seats.get(number=seat).player
    action = first_legal(duel)
    game = services.play(duel.pk, user, [action], duel.version)
    assert game.version == duel.version + 1
    move = Move.objects.get(game=game, seq=game.version)
    assert (move.seat, move.player, move.actions, move.kind) == (seat, user, [action], "move")
    assert game.match().deal.view(seat)["history"][-1]["type"] in ("attack", "pass")


def test_replaying_a_request_applies_it_once(duel):
    user = duel.seats.get(number=to_act(duel)).player
    action, version = first_legal(duel), duel.version
    services.play(duel.pk, user, [action], version)
    message = refused(duel, lambda: services.play(duel.pk, user, [action], version),
                      services.StaleVersion, 409)
    assert message == "The game has moved on; here is the current table."


def test_it_refuses_a_move_out_of_turn(duel):
    waiting = 1 - to_act(duel)
    user = duel.seats.get(number=waiting).player
    message = refused(duel, lambda: services.play(duel.pk, user, ["take"],
                                                  duel.version), services.NotYourTurn, 409)
    assert "not your turn" in message and duel.seats.get(number=1 - waiting).player.name in message


def test_it_refuses_another_players_seat(duel):
    seat = to_act(duel)
    other = duel.seats.get(number=1 - seat).player
    refused(duel, lambda: services.play(duel.pk, other, [first_legal(duel)], duel.version,
                                        seat=seat), services.Forbidden, 403)


def test_it_refuses_an_outsider(duel, carol):
    refused(duel, lambda: services.play(duel.pk, carol, [first_legal(duel)], duel.version),
            services.Forbidden, 403)


def test_it_refuses_a_card_not_in_hand(duel):
    seat = to_act(duel)
    user = duel.seats.get(number=seat).player
    theirs = duel.match().deal.hand(1 - seat)[0]
    message = refused(duel, lambda: services.play(
        duel.pk, user, [Attack(theirs).token()], duel.version),
        services.IllegalMove, 400)
    assert "don't hold" in message


@pytest.mark.parametrize("actions", [
    [], {}, "take", [1], [None], [{"type": "take"}], [["take"]], ["fold"], ["attack"],
    ["attack:ZZ"], ["attack:th"], ["attack:7H:8H"], ["take:7H"], ["defend:6H"],
    ["defend:6H:7H:8H"], ["x" * 5000], ["take"] * 25,
])
def test_it_refuses_malformed_actions(duel, actions):
    user = duel.seats.get(number=to_act(duel)).player
    refused(duel, lambda: services.play(duel.pk, user, actions, duel.version),
            services.BadRequest, 400)


@pytest.mark.parametrize("version", ["x", None, 1.5j, True, "", [1]])
def test_it_refuses_a_malformed_version(duel, version):
    user = duel.seats.get(number=to_act(duel)).player
    refused(duel, lambda: services.play(duel.pk, user, [first_legal(duel)], version),
            services.BadRequest, 400)


def test_several_actions_are_all_or_nothing(duel):
    seat = to_act(duel)
    user = duel.seats.get(number=seat).player
    deal = duel.match().deal
    lead = deal.legal_actions(seat)[0]
    # Leading then throwing in before the defender answered is illegal (R7): nothing moves.
    second = next(c for c in deal.hand(seat) if c != lead.card)
    message = refused(duel, lambda: services.play(
        duel.pk, user, [lead.token(), Attack(second).token()], duel.version),
        services.IllegalMove, 400)
    assert "Nothing was played" in message


def test_it_plays_attack_then_pass_and_beats_several_cards(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    assert {c.code for c in game.match().deal.hand(0)} == {"7S", "7C", "7D", "QS", "QC", "QD"}
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["defend:7S:9S"],
                         game.version)
    # Throw in two cards, then pass (the engine has already passed alice over: R13).
    game = services.play(game.pk, alice, ["attack:7C",
                                          "attack:7D",
                                          "pass"], game.version)
    deal = game.match().deal
    assert [(str(a), d) for a, d in deal.table[1:]] == [("7C", None), ("7D", None)]
    assert deal.to_act == 1
    assert game.moves.get(seq=game.version).actions == [
        "attack:7C", "attack:7D"]
    # Beat both in one move: the bout is beaten off and bob attacks next (R16, R18).
    game = services.play(game.pk, bob, ["defend:7C:9C",
                                        "defend:7D:9D"],
                         game.version)
    deal = game.match().deal
    assert deal.discard_size == 6 and deal.attacker == 1 and not deal.table


def test_throwing_in_the_last_cards_then_pass_ends_the_bout(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    game = services.play(game.pk, bob, ["take"], game.version)
    # Her last sevens end the bout by themselves: bob picks up and alice leads again, so the
    # trailing pass has nothing left to do (it is not a lead).
    game = services.play(game.pk, alice, ["attack:7C", "attack:7D", "pass"], game.version)
    deal = game.match().deal
    assert not deal.table and deal.to_act == 0 and deal.bout == 2
    assert {"7S", "7C", "7D"} <= {c.code for c in deal.hand(1)}
    assert game.moves.get(seq=game.version).actions == ["attack:7C", "attack:7D"]


def test_a_move_that_outlasts_the_turn_is_refused_whole(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    game = services.play(game.pk, alice, ["attack:7S"], game.version)
    message = refused(game, lambda: services.play(
        game.pk, bob, ["defend:7S:9S", "take"],
        game.version), services.IllegalMove, 400)
    assert "alice's turn" in message and "Nothing was played" in message


def test_a_finished_deal_counts_in_the_record_and_the_next_deal_starts(alice, bob, classic,
                                                                        seeded):
    game = services.create_game(alice, classic, players=2, deals=2)
    services.join_game(game.pk, bob)
    users = {0: alice, 1: bob}
    while True:
        game.refresh_from_db()
        match = game.match()
        if match.deal_number == 2:
            break
        seat = match.deal.to_act
        services.play(game.pk, users[seat], [first_legal(game)], game.version)
    assert game.status == Game.Status.PLAYING
    assert match.deal.history[0]["type"] == "trump_card"
    alice.refresh_from_db()
    bob.refresh_from_db()
    assert alice.deals_played == bob.deals_played == 1
    assert alice.deals_lost + bob.deals_lost + alice.deals_drawn == 1


# ---------------------------------------------------------------------------- timeouts
def overdue(game, minutes=1):
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(minutes=minutes))
    game.refresh_from_db()
    return game


def test_a_timeout_leads_the_lowest_non_trump(duel):
    game = overdue(duel)
    deal = game.match().deal
    seat = deal.to_act
    hand = deal.hand(seat)
    plain = [c for c in hand if c.suit != deal.trump] or hand
    lowest = min(plain, key=lambda c: (c.rank, c.index))
    game = services.timeout(game.pk, game.version)
    assert game.match().deal.table[0][0] == lowest
    assert Move.objects.get(game=game, seq=game.version).kind == Move.Kind.TIMEOUT
    seat_row = game.seats.get(number=seat)
    assert seat_row.timeouts == 1 and seat_row.timeouts_total == 1
    assert game.deadline > timezone.now()


def test_a_timing_out_defender_takes_and_an_attacker_passes(alice, bob, classic, stacked):
    game = services.create_game(alice, classic, players=2)
    game = services.join_game(game.pk, bob)
    game = services.timeout(overdue(game).pk, game.version)
    assert game.moves.get(seq=game.version).actions == ["attack:7S"]
    game = services.timeout(overdue(game).pk, game.version)
    assert game.moves.get(seq=game.version).actions == ["take"]
    assert game.match().deal.to_act == 0  # alice may throw in after the take (R15)
    game = services.timeout(overdue(game).pk, game.version)
    assert game.moves.get(seq=game.version).actions == ["pass"]
    deal = game.match().deal
    assert "7S" in {c.code for c in deal.hand(1)} and deal.attacker == 0  # R18, two players
    assert list(game.seats.order_by("number").values_list("timeouts", flat=True)) == [2, 1]


def test_a_timeout_needs_an_expired_deadline_and_the_current_version(duel):
    refused(duel, lambda: services.timeout(duel.pk, duel.version), services.Conflict, 409)
    game = overdue(duel)
    refused(game, lambda: services.timeout(game.pk, game.version - 1), services.StaleVersion)
    services.timeout(game.pk, game.version)
    refused(game, lambda: services.timeout(game.pk, game.version), services.StaleVersion)


def test_a_move_resets_the_timeout_counter(duel):
    game = services.timeout(overdue(duel).pk, duel.version)
    deal = game.match().deal
    Seat.objects.filter(game=game).update(timeouts=2)
    user = game.seats.get(number=deal.to_act).player
    services.play(game.pk, user, [first_legal(game)], game.version)
    assert game.seats.get(player=user).timeouts == 0


def test_repeated_timeouts_hand_the_seat_to_a_bot(duel, alice):
    duel.preset.timeouts_allowed = 2
    duel.preset.save()
    game = duel
    while True:
        game = overdue(game)
        seat = game.seats.get(number=game.turn_seat)
        game = services.timeout(game.pk, game.version)
        seat.refresh_from_db()
        if seat.timeouts == 2:
            break
    assert seat.bot_level == "medium" and seat.player is not None
    # The player takes the seat back.
    game = services.resume_seat(game.pk, seat.player)
    seat.refresh_from_db()
    assert seat.bot_level == "" and seat.timeouts == 0


def test_repeated_timeouts_can_forfeit(duel, alice, bob):
    RulePreset.objects.filter(pk=duel.preset_id).update(
        timeout_policy=RulePreset.TimeoutPolicy.FORFEIT, timeouts_allowed=1)
    loser_seat = duel.turn_seat
    game = services.timeout(overdue(duel).pk, duel.version)
    assert game.status == Game.Status.FINISHED and game.forfeited_seat == loser_seat
    assert game.deadline is None
    alice.refresh_from_db()
    bob.refresh_from_db()
    loser, winner = (alice, bob) if loser_seat == 0 else (bob, alice)
    assert (loser.deals_played, loser.deals_lost) == (1, 1)
    assert (winner.deals_played, winner.deals_lost) == (1, 0)


def test_the_log_says_where_the_site_moved_for_a_player(duel):
    late = duel.turn_seat
    name = duel.seats.get(number=late).name
    game = services.timeout(overdue(duel).pk, duel.version)
    assert game.timeout_marks == [[1, 2, late]]  # deal 1, after the trump and the opener
    page = client_for(seat_user(game, 1 - late)).get(f"/games/{game.pk}/").content.decode()
    log = page[page.index('id="log-title"'):]
    lines = re.findall(r"<li>(.*?)</li>", log, re.S)
    # Newest first: the site's lead, then the note, then how the deal began.
    assert lines[1] == f"{name} ran out of time: the site moved for them.", lines
    assert len(lines) == 4


def test_a_forfeit_agrees_everywhere(duel, alice, bob):
    RulePreset.objects.filter(pk=duel.preset_id).update(
        timeout_policy=RulePreset.TimeoutPolicy.FORFEIT, timeouts_allowed=1)
    loser_seat = duel.turn_seat
    name = duel.seats.get(number=loser_seat).name
    game = services.timeout(overdue(duel).pk, duel.version)
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert f"{name} ran out of time too often and loses the match." in page
    tally = dict(re.findall(r"<tr><td>([^<]+)</td><td>(\d+)</td></tr>", page))
    assert tally[name] == "1" and list(tally.values()).count("0") == 1
    assert Move.objects.filter(game=game, kind=Move.Kind.TIMEOUT, seat=loser_seat).exists()


def test_the_sweep_plays_overdue_games_once(duel):
    overdue(duel)
    assert services.sweep_expired() == 1
    assert services.sweep_expired() == 0


# ---------------------------------------------------------------------------- helpers
def test_the_timeout_action_follows_section_10():
    from games.engine import Deal, Rules
    from games.engine.cards import full_deck

    deck = ["7H", "8H", "9H", "TH", "JH", "QH", "6S", "7S", "8S", "9S", "TS", "JS", "6H"]
    deck += [c.code for c in full_deck(36) if c.code not in deck]
    deal = Deal.start(Rules(players=2), deck=deck, dealer=1, opener=0)
    # Seat 0 got 7H 9H JH 6S 8S TS; trump is hearts (6H face up): lowest non-trump 6S.
    assert deal.trump == "H"
    action = services.timeout_action(deal, 0)
    assert action.card == Card.parse("6S")
    deal.apply(0, action)
    assert services.timeout_action(deal, 1) == Take()


def test_each_change_logs_one_line_with_game_version_and_duration(
        duel, caplog, django_capture_on_commit_callbacks):
    caplog.set_level("INFO", logger="durak.move")
    seat = to_act(duel)
    with django_capture_on_commit_callbacks(execute=True):
        services.play(duel.pk, seat_user(duel, seat), [first_legal(duel, seat)], duel.version)
    lines = [r for r in caplog.records if r.name == "durak.move"]
    assert len(lines) == 1
    line = lines[0]
    assert (line.game, line.version, line.kind, line.seat) == (duel.pk, duel.version + 1,
                                                               "move", seat)
    assert line.duration_ms is not None and line.duration_ms >= 0
