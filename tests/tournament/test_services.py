"""Tournaments through the services on a frozen clock: a Swiss of 16 to the end, 12 players
at tables of three, a round robin of 6, withdrawal after two timeouts, the round's
deadline, and the field kept consistent by joins, leaves and the start."""

from collections import Counter
from datetime import timedelta
from itertools import combinations

import pytest

from games import services
from games.models import Entry, Game, RoundTable, Tournament
from games.services.errors import Conflict, Forbidden
from games.tournament.pairing import pair_key

from .conftest import play_round

pytestmark = pytest.mark.django_db
T = services.tournament


def make(staff, preset, players, **options):
    tournament = T.create_tournament(staff, preset, name="Spring cup",
                                     move_time=timedelta(hours=1), **options)
    for player in players:
        T.join_tournament(tournament.pk, player)
    return tournament


def tables_of(rnd):
    return [tuple(t.game.seats.order_by("number").values_list("player", flat=True))
            for t in rnd.tables.select_related("game")]


def test_a_sixteen_player_swiss_runs_four_rounds_to_the_end(staff, short, field, seeded, frozen):
    players = field(16)
    tournament = make(staff, short, players, rounds=4)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    met = Counter()
    firsts = Counter()
    for number in range(1, 5):
        assert tournament.current_round == number
        rnd = tournament.round_set.get(number=number)
        tables = tables_of(rnd)
        seated = [p for t in tables for p in t]
        assert sorted(seated) == sorted(p.pk for p in players), "one game each a round"
        assert rnd.byes == []
        met.update(pair_key(*t) for t in tables)
        firsts.update(t[0] for t in tables)
        assert all(Game.objects.get(round_table__round=rnd, round_table__board=b).is_playing
                   for b in range(1, 9)), "a round's tables start together"
        play_round(tournament, seed=number)
    assert max(met.values()) == 1, "no repeated pairing"
    assert max(firsts.values()) - min(firsts.values()) <= 2
    assert tournament.status == Tournament.Status.FINISHED
    table = T.tournament_standings(tournament)
    points = {s.player: s.points for s in table}
    assert sum(points.values()) == 32  # a point a table, shared on a draw
    assert [s.points for s in table] == sorted((s.points for s in table), reverse=True)
    for s in table:  # Buchholz: the points of the four opponents met
        opponents = [b if a == s.player else a for a, b in met if s.player in (a, b)]
        assert len(opponents) == 4 and s.played == 4
        assert s.buchholz == sum(points[o] for o in opponents)
    # Round 1 paired by seed (all unrated alike: who entered first), the top half
    # against the bottom half: 1 against 9, 2 against 10.
    first = tables_of(tournament.round_set.get(number=1))
    assert {frozenset(t) for t in first[:2]} == {frozenset({players[0].pk, players[8].pk}),
                                                 frozenset({players[1].pk, players[9].pk})}


def test_an_odd_swiss_gives_each_bye_to_the_lowest_without_one(staff, short, field, seeded,
                                                                 frozen):
    players = field(5)
    tournament = make(staff, short, players, rounds=4)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    byes = []
    for number in range(1, 5):
        rnd = tournament.round_set.get(number=number)
        assert len(rnd.byes) == 1
        bye = rnd.byes[0]
        assert bye not in byes
        # Standings before the round: the bye's point is counted as soon as it is given.
        before = {s.player: s.points for s in T.tournament_standings(tournament)}
        before[bye] -= 1
        lower = [p for p, points in before.items()
                 if points < before[bye] and p not in byes and p != bye]
        assert not lower, "the lowest ranked without a bye sits out"
        byes.append(bye)
        play_round(tournament, seed=number)
    table = {s.player: s for s in T.tournament_standings(tournament)}
    for bye in byes:
        assert table[bye].played == 3  # and a bye's point
    assert sum(s.points for s in table.values()) == 4 * 2 + 4  # two tables and a bye a round


def test_twelve_players_at_tables_of_three_over_three_rounds(staff, short, field, seeded, frozen):
    players = field(12)
    tournament = make(staff, short, players, rounds=3, table_size=3)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    met = Counter()
    for number in range(1, 4):
        rnd = tournament.round_set.get(number=number)
        tables = tables_of(rnd)
        assert [len(t) for t in tables] == [3, 3, 3, 3]
        assert sorted(p for t in tables for p in t) == sorted(p.pk for p in players)
        if number > 1:  # the leaders share board 1
            ranked = [s.player for s in T.tournament_standings(tournament)]
            assert ranked[0] in tables[0]
        met.update(pair_key(a, b) for t in tables for a, b in combinations(t, 2))
        play_round(tournament, seed=number)
    assert max(met.values()) == 1, "nobody meets anyone twice"
    assert tournament.status == Tournament.Status.FINISHED
    table = T.tournament_standings(tournament)
    assert sum(s.points for s in table) == 3 * 4 * 3  # 2 + 1 + 0 a table
    for places in RoundTable.objects.filter(round__tournament=tournament).values_list(
            "places", flat=True):
        assert sum(len(p) for p in places) == 3


def test_a_six_player_round_robin(staff, short, field, seeded, frozen):
    players = field(6)
    tournament = make(staff, short, players, kind=Tournament.Kind.ROUND_ROBIN)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    met = Counter()
    for number in range(1, 6):
        rnd = tournament.round_set.get(number=number)
        met.update(pair_key(*t) for t in tables_of(rnd))
        play_round(tournament, seed=number)
    assert tournament.status == Tournament.Status.FINISHED
    assert set(met.values()) == {1} and len(met) == 15, "every pair once"
    table = T.tournament_standings(tournament)
    assert all(s.buchholz == 0 for s in table)  # a round robin has no Buchholz
    assert sum(s.points for s in table) == 15


def test_a_player_timing_out_twice_is_withdrawn_and_the_round_ends(staff, short, field, seeded,
                                                                    frozen):
    players = field(4)
    tournament = make(staff, short, players, rounds=3)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    rnd = tournament.round_set.get(number=1)
    tables = list(rnd.tables.select_related("game"))
    absent_table, other = tables
    play_round_table = other.game
    from tests.games.playout import play_out
    play_out(play_round_table, seed=1)
    # The absent table: whoever is to act never moves; the sweep times them out.
    game = absent_table.game
    game.refresh_from_db()
    absent = game.seats.get(number=game.turn_seat).player
    timeouts = 0
    while timeouts < 2:
        frozen.shift(timedelta(hours=1, seconds=1))
        game.refresh_from_db()
        if game.seats.get(number=game.turn_seat).player_id == absent.pk:
            services.timeout(game.pk, game.version)  # as the deadline sweep plays it
            timeouts += 1
        else:  # the opponent answers at once
            seat = game.turn_seat
            services.play_seat(game.pk, seat,
                               [game.match().deal.legal_actions(seat)[0].token()], game.version)
    assert T.advance(tournament.pk)
    entry = Entry.objects.get(tournament=tournament, player=absent)
    assert entry.withdrawn_at is not None
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED and game.forfeited_seat is not None
    tournament.refresh_from_db()
    assert tournament.current_round == 2, "the others are not held up"
    rnd2 = tournament.round_set.get(number=2)
    assert absent.pk not in [p for t in tables_of(rnd2) for p in t] + rnd2.byes
    assert len(rnd2.byes) == 1  # three left
    last = next(s for s in T.tournament_standings(tournament) if s.player == absent.pk)
    assert last.points == 0


def test_the_round_deadline_decides_an_unfinished_table(staff, short, field, seeded, frozen):
    players = field(2)
    tournament = make(staff, short, players, rounds=2, round_time=timedelta(hours=3))
    T.start_tournament(tournament.pk, staff)
    game = tournament.round_set.get(number=1).tables.get().game
    assert not T.advance(tournament.pk)
    frozen.shift(timedelta(minutes=50))  # within the move's hour: nobody has timed out
    assert not T.advance(tournament.pk)
    frozen.shift(timedelta(hours=2, minutes=11))
    game.refresh_from_db()
    to_act = game.seats.get(number=game.turn_seat).player_id
    assert T.advance(tournament.pk)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    tournament.refresh_from_db()
    assert tournament.current_round == 2
    first = tournament.round_set.get(number=1).tables.get()
    assert first.places[-1] == [to_act]


def test_the_beat_starts_a_tournament_at_its_time(staff, short, field, seeded, frozen):
    from .conftest import START

    tournament = make(staff, short, field(3), starts_at=START + timedelta(hours=1),
                      join_until=START + timedelta(minutes=30))
    assert T.advance_tournaments() == 0
    frozen.shift(timedelta(minutes=31))
    late = field(1, prefix="late")[0]
    with pytest.raises(Conflict):
        T.join_tournament(tournament.pk, late)
    frozen.shift(timedelta(minutes=30))
    assert T.advance_tournaments() == 1
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.PLAYING
    assert tournament.round_set.get().byes  # three players: one sits out


def test_joining_and_leaving_until_the_start(staff, short, field, seeded):
    a, b, c = field(3)
    tournament = make(staff, short, [a, b])
    with pytest.raises(Conflict):
        T.join_tournament(tournament.pk, a)
    T.leave_tournament(tournament.pk, b)
    with pytest.raises(Conflict):
        T.leave_tournament(tournament.pk, b)
    with pytest.raises(Conflict):
        T.start_tournament(tournament.pk, staff)  # one player
    T.join_tournament(tournament.pk, c)
    with pytest.raises(Forbidden):
        T.start_tournament(tournament.pk, a)
    T.start_tournament(tournament.pk, staff)
    with pytest.raises(Conflict):
        T.leave_tournament(tournament.pk, a)
    with pytest.raises(Conflict):
        T.join_tournament(tournament.pk, b)


def test_a_private_tournament_among_friends(short, field, seeded):
    maker, friend, stranger = field(3)
    with pytest.raises(Forbidden):
        T.create_tournament(maker, short, name="Open to all")
    tournament = T.create_tournament(maker, short, name="Friday", private=True)
    assert tournament.entries.filter(player=maker).exists()
    with pytest.raises(services.NotFound):
        T.join_tournament(tournament.pk, stranger)
    T.join_tournament(tournament.pk, friend, invite_token=tournament.invite_token)
    T.start_tournament(tournament.pk, maker)
    game = tournament.round_set.get().tables.get().game
    assert game.private and not services.can_view(game, stranger)


def test_staff_withdraw_and_cancel(staff, short, field, seeded, frozen):
    players = field(4)
    tournament = make(staff, short, players)
    T.start_tournament(tournament.pk, staff)
    with pytest.raises(Forbidden):
        T.withdraw_player(tournament.pk, players[0], players[1])
    T.withdraw_player(tournament.pk, players[0], staff)
    game = Game.objects.get(round_table__round__tournament=tournament, seats__player=players[0])
    assert game.status == Game.Status.FINISHED
    T.cancel_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED
    assert not Game.objects.filter(round_table__round__tournament=tournament,
                                   status=Game.Status.PLAYING).exists()


def test_cancelling_aborts_each_table_through_the_door(
        staff, short, field, seeded, frozen, monkeypatch, django_capture_on_commit_callbacks):
    """Each table in play gets its move row and its notice, as any change does."""
    from games import notify

    told, people = [], []
    monkeypatch.setattr(notify, "game_changed",
                        lambda pk, version, **kw: told.append((pk, version, "state" in kw)))
    monkeypatch.setattr(notify, "people_changed", lambda ids, **kw: people.extend(ids))
    players = field(4)
    tournament = make(staff, short, players)
    T.start_tournament(tournament.pk, staff)
    games = list(Game.objects.filter(round_table__round__tournament=tournament))
    told.clear()
    people.clear()
    with django_capture_on_commit_callbacks(execute=True):
        T.cancel_tournament(tournament.pk, staff)
    for game in games:
        after = Game.objects.get(pk=game.pk)
        assert after.status == Game.Status.ABORTED and after.version == game.version + 1
        last = after.moves.last()
        assert (last.seq, last.kind, last.actions) == (after.version, "system", ["cancel"])
        assert (game.pk, after.version, True) in told
    assert sorted(people) == sorted(p.pk for p in players)


def test_mails_say_a_round_has_started_and_give_the_final_standings(
        staff, short, field, seeded, frozen, mailoutbox, django_capture_on_commit_callbacks):
    players = field(3)
    for player in players:
        player.email = f"{player.username}@example.org"
        player.save()
    tournament = make(staff, short, players, rounds=1)
    with django_capture_on_commit_callbacks(execute=True):
        T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    game = tournament.round_set.get().tables.get().game
    seated = set(game.seats.values_list("player__email", flat=True))
    assert len(mailoutbox) == 2 and {m.to[0] for m in mailoutbox} == seated
    assert "Round 1 of Spring cup has started" in mailoutbox[0].subject
    assert game.get_absolute_url() in mailoutbox[0].body
    mailoutbox.clear()
    from tests.games.playout import play_out
    play_out(game, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        assert T.advance(tournament.pk)
    assert len(mailoutbox) == 3  # everyone entered, the bye too
    assert all("Spring cup is over" in m.subject for m in mailoutbox)
    assert "You are number" in mailoutbox[0].body and "1. " in mailoutbox[0].body


def test_computer_players_fill_short_tables_only_in_a_casual_tournament(staff, short, field,
                                                                         seeded, frozen):
    with pytest.raises(services.BadRequest):
        T.create_tournament(staff, short, name="Rated", bots_fill=True)
    players = field(5)
    tournament = make(staff, short, players, rounds=2, rated=False, bots_fill=True)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    for number in (1, 2):
        rnd = tournament.round_set.get(number=number)
        assert rnd.byes == []
        games = [t.game for t in rnd.tables.select_related("game")]
        assert len(games) == 3 and all(g.is_playing and not g.rated for g in games)
        with_bot = [g for g in games if g.seats.exclude(bot_level="").exists()]
        assert len(with_bot) == 1 and with_bot[0].seats.filter(player__isnull=False).count() == 1
        play_round(tournament, seed=number)
    table = T.tournament_standings(tournament)
    assert sorted(s.player for s in table) == sorted(p.pk for p in players)
    assert [s.rank for s in table] == [1, 2, 3, 4, 5]
    assert all(s.played == 2 for s in table)


def test_nobody_sits_with_the_computer_twice_while_another_has_not(staff, short, field,
                                                                     seeded, frozen):
    """The table a computer player fills stands in for the bye: the Swiss bye rule gives
    it to each player once before anyone has it twice, even to one who lost it and is
    last."""
    players = field(5)
    tournament = make(staff, short, players, rounds=3, rated=False, bots_fill=True)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    with_computer = []
    for number in range(1, 4):
        rnd = tournament.round_set.get(number=number)
        games = [t.game for t in rnd.tables.select_related("game")]
        (alone,) = [g for g in games if g.seats.exclude(bot_level="").exists()]
        person = alone.seats.get(player__isnull=False).player
        with_computer.append(person.pk)
        services.resign(alone.pk, person)  # last in the standings, the bye's usual place
        play_round(tournament, seed=number)
    assert len(set(with_computer)) == 3, with_computer


def test_entries_may_need_a_rating_or_an_established_one(staff, short, field):
    from games.models import Rating

    newcomer, regular = field(2)
    Rating.objects.create(player=regular, pool="individual", mu=30.0, sigma=2.0, games=40)
    strict = T.create_tournament(staff, short, name="Masters", established_only=True)
    with pytest.raises(Forbidden):
        T.join_tournament(strict.pk, newcomer)
    T.join_tournament(strict.pk, regular)
    high = T.create_tournament(staff, short, name="High", min_rating=1600)
    with pytest.raises(Forbidden):
        T.join_tournament(high.pk, newcomer)  # a newcomer's 1500
    T.join_tournament(high.pk, regular)


def test_a_round_robin_at_tables_of_three_meets_every_pair(staff, short, field, seeded, frozen):
    players = field(6)
    tournament = make(staff, short, players, kind=Tournament.Kind.ROUND_ROBIN, table_size=3)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    rounds = T.round_count(tournament)
    met = Counter()
    for number in range(1, rounds + 1):
        rnd = tournament.round_set.get(number=number)
        met.update(pair_key(a, b) for t in tables_of(rnd) for a, b in combinations(t, 2))
        play_round(tournament, seed=number)
    assert tournament.status == Tournament.Status.FINISHED and rounds == 4
    assert len(met) == 15, "every pair met"


def test_the_rounds_task_runs_on_the_play_queue_from_beat(settings):
    from games import tasks

    beat = {entry["task"]: entry for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert beat["games.tasks.tournament_rounds"]["schedule"] <= 10
    for name in ("tournament_rounds", "advance_tournament"):
        assert settings.CELERY_TASK_ROUTES[f"games.tasks.{name}"] == {"queue": "play"}
    assert settings.CELERY_TASK_ROUTES["games.tasks.tournament_mail"] == {"queue": "mail"}
    assert tasks.tournament_rounds() == 0  # nothing to start or close


def test_a_swiss_of_pairs_at_tables_of_four(staff, field, seeded, frozen):
    from games.models import RulePreset

    pairs = RulePreset.objects.create(name="Short pairs", min_players=4, max_players=4,
                                      teams="2x2", deck_size=24, hand_size=5,
                                      throw_in="all")
    players = field(8)
    with pytest.raises(services.BadRequest):
        T.create_tournament(staff, pairs, name="Pairs", table_size=2)
    tournament = make(staff, pairs, players, rounds=2, table_size=4)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    for number in (1, 2):
        rnd = tournament.round_set.get(number=number)
        assert [len(t) for t in tables_of(rnd)] == [4, 4]
        play_round(tournament, seed=number)
    assert tournament.status == Tournament.Status.FINISHED
    for table in RoundTable.objects.filter(round__tournament=tournament).select_related("game"):
        seats = list(table.game.seats.order_by("number").values_list("player", flat=True))
        partners = [{seats[0], seats[2]}, {seats[1], seats[3]}]
        assert any(set(place) in partners for place in table.places), table.places
    table = T.tournament_standings(tournament)
    assert sum(s.points for s in table) == 2 * 2 * 2  # a point for each of the winning pair


def test_two_who_blocked_each_other_are_not_paired_while_others_fit(staff, short, field, seeded,
                                                                     frozen):
    players = field(4)
    # unblocked, round 1 pairs the top half with the bottom: 1 against 3, 2 against 4
    services.friends.block(players[2], players[0])
    tournament = make(staff, short, players, rounds=2)
    T.start_tournament(tournament.pk, staff)
    tournament.refresh_from_db()
    apart = pair_key(players[0].pk, players[2].pk)
    for number in (1, 2):
        tables = tables_of(tournament.round_set.get(number=number))
        assert apart not in {pair_key(*t) for t in tables}
        play_round(tournament, seed=number)


def test_a_block_keeps_two_apart_at_tables_of_three(staff, short, field, seeded, frozen):
    players = field(6)
    # unblocked, the top three sit together (the score group's order)
    services.friends.block(players[0], players[1])
    tournament = make(staff, short, players, rounds=1, table_size=3)
    T.start_tournament(tournament.pk, staff)
    tables = tables_of(tournament.round_set.get(number=1))
    assert len(tables) == 2
    assert not any({players[0].pk, players[1].pk} <= set(t) for t in tables)
