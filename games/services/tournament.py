"""Tournaments' changes (docs/design.md, "Tournaments"): make one, join and leave until the
start, start, pair each round into tables made by the lobby's services, close a round
when its tables are over or its time has run out, withdraw a player, cancel.

The tournament row is the lock: join, leave, start, withdraw and a round's end take it
(`select_for_update`) before anything else, so a last-second join, a leave racing the
start or two ticks at once see one field. Games are locked after it, never before: a
move locks only its game, and the end of a table asks for a tick after its commit.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import notify
from ..models import (
    Entry,
    Game,
    RoundTable,
    RulePreset,
    Seat,
    Tournament,
    TournamentRound,
)
from ..tournament import (
    History,
    Pairing,
    round_robin,
    score_group_tables,
    swiss_pairs,
)
from . import offers
from .access import Someone, casual_only, need_user
from .change import SITE, locked
from .clocks import forfeit_seat
from .errors import BadRequest, Conflict, Forbidden, GameError, NotFound
from .friends import blocked_pairs
from .lobby import MAX_DEALS, _time_control, abort, create_game, join_game
from .ratings import rating_of, shown
from .tournament_mail import send_tournament_mail as send_tournament_mail
from .tournament_results import seeded
from .tournament_results import table_result as table_result
from .tournament_results import tournament_standings as tournament_standings

if TYPE_CHECKING:
    from accounts.models import Player

TIMEOUTS_TO_WITHDRAW = 2  # a player who lets their time run out twice is withdrawn
MAX_ROUNDS = 30
APART = 100  # a block weighs as a hundred meetings in the pairing: paired only if nothing else fits


# --- making one, entries ---------------------------------------------------------------


def create_tournament(creator: Someone, preset: RulePreset, *, name: str,
                      kind: str = Tournament.Kind.SWISS,
                      table_size: int = 2, rounds: int = 4, deals: int = 1,
                      time_control: str | None = None, move_time: timedelta | None = None,
                      bank_time: timedelta | None = None, increment: timedelta | None = None,
                      round_time: timedelta | None = None, starts_at: datetime | None = None,
                      join_until: datetime | None = None, rated: bool = True,
                      min_rating: int | None = None, private: bool = False, max_players: int = 64,
                      bots_fill: bool = False, established_only: bool = False) -> Tournament:
    """A new tournament. Staff make public ones; any player a private one among friends,
    which they enter at once. In a casual one (`rated` False) computer players may fill
    the tables short of players (`bots_fill`). Entries may need a rating (`min_rating`, as
    shown) or an established one (`established_only`: no longer provisional)."""
    creator = need_user(creator)
    casual_only(creator, rated)
    if not private and not creator.is_staff:
        raise Forbidden(_("Only an administrator can make a public tournament: make a private "
                          "one among friends."))
    name = (name or "").strip()
    if not name:
        raise BadRequest(_("Give the tournament a name."))
    if not isinstance(preset, RulePreset) or not preset.active:
        raise BadRequest(_("That rule preset is not offered."))
    if kind not in Tournament.Kind.values:
        raise BadRequest(_("Choose a Swiss or a round robin."))
    if table_size not in offers.table_sizes(preset):
        raise BadRequest(offers.played_by(preset))
    if not (isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS):
        raise BadRequest(_("A tournament has 1 to %(max)s rounds.") % {"max": MAX_ROUNDS})
    if not (isinstance(deals, int) and 1 <= deals <= MAX_DEALS):
        raise BadRequest(_("The number of deals or losses must be between 1 and %(max)s.")
                         % {"max": MAX_DEALS})
    if not (isinstance(max_players, int) and 2 <= max_players <= 1000):
        raise BadRequest(_("A tournament takes 2 to 1000 players."))
    if preset.teams and bots_fill:  # a computer partner would carry a person's points
        raise BadRequest(_("Computer players may not fill tables of teams."))
    if bots_fill and rated:
        raise BadRequest(_("Computer players may fill tables only in a casual tournament."))
    if starts_at is not None and join_until is not None and join_until > starts_at:
        raise BadRequest(_("Entries must close before the start."))
    clock = _time_control(preset, time_control, move_time, bank_time, increment)
    extra = {"round_time": round_time} if round_time is not None else {}
    clock["move_time"] = offers.move_time_in_round(
        clock["move_time"], round_time or Tournament._meta.get_field("round_time").default)
    with transaction.atomic():
        tournament = Tournament.objects.create(
            name=name[:80], preset=preset, kind=kind, table_size=table_size, rounds=rounds,
            deals=deals, **clock, **extra, starts_at=starts_at, join_until=join_until,
            rated=bool(rated), bots_fill=bool(bots_fill), min_rating=min_rating,
            established_only=bool(established_only),
            private=bool(private),
            max_players=max_players, created_by=creator)
        if private:
            Entry.objects.create(tournament=tournament, player=creator)
    return tournament


def locked_tournament(tournament_id: int | str) -> Tournament:
    """The tournament row, locked until the transaction ends; NotFound for a bad id."""
    try:
        return Tournament.objects.select_for_update().get(pk=int(tournament_id))
    except (TypeError, ValueError, Tournament.DoesNotExist):
        raise NotFound(_("There is no such tournament.")) from None


def can_see(tournament: Tournament, user: Someone, invite_token: object = None) -> bool:
    """Public tournaments are seen by all; a private one by its entrants, its maker, holders
    of its link and staff."""
    if not tournament.private:
        return True
    if invite_token and invite_token == tournament.invite_token:
        return True
    if user is None or not user.is_authenticated:
        return False
    return (user.is_staff or tournament.created_by_id == user.pk
            or tournament.entries.filter(player=user).exists())


def join_tournament(tournament_id: int | str, user: Someone, *, invite_token: object = None,
                    now: datetime | None = None) -> Entry:
    """Enter an open tournament before its entries close."""
    user = need_user(user)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if not can_see(tournament, user, invite_token):
            raise NotFound(_("There is no such tournament."))
        if not tournament.is_open:
            raise Conflict(_("This tournament has already started."))
        if tournament.join_until is not None and now > tournament.join_until:
            raise Conflict(_("Entries to this tournament have closed."))
        entries = tournament.entries.all()
        if entries.filter(player=user).exists():
            raise Conflict(_("You have already entered this tournament."))
        casual_only(user, tournament.rated)
        if entries.count() >= tournament.max_players:
            raise Conflict(_("This tournament is full."))
        rating = rating_of(user, "individual")
        if tournament.min_rating is not None:
            if shown(rating.mu, rating.sigma).value < tournament.min_rating:
                raise Forbidden(_("This tournament is for players rated %(min)s or more.")
                                % {"min": round(tournament.min_rating)})
        if tournament.established_only and shown(rating.mu, rating.sigma).provisional:
            raise Forbidden(_("This tournament is for players whose rating is established: "
                              "play a few more rated games first."))
        entry = Entry.objects.create(tournament=tournament, player=user)
    _tell(tournament, lobby=True)
    return entry


def leave_tournament(tournament_id: int | str, user: Someone) -> None:
    """Leave a tournament before it starts."""
    user = need_user(user)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if not tournament.is_open:
            raise Conflict(_("You can't leave a tournament once it has started: you may "
                             "resign your games."))
        deleted, _rows = tournament.entries.filter(player=user).delete()
        if not deleted:
            raise Conflict(_("You have not entered this tournament."))
    _tell(tournament, lobby=True)


# --- starting, rounds ------------------------------------------------------------------


def start_tournament(tournament_id: int | str, by: Someone = None,
                     now: datetime | None = None) -> Tournament:
    """Start now and pair the first round: staff, the maker of a private one, or the site
    at the start time (`by` None). Seeds follow the ratings, then who entered first."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if by is not None and not (by.is_staff or (tournament.private
                                                   and tournament.created_by_id == by.pk)):
            raise Forbidden(_("Only an administrator can start this tournament."))
        if not tournament.is_open:
            raise Conflict(_("This tournament has already started."))
        entries = list(tournament.entries.select_related("player"))
        if len(entries) < 2:
            if by is not None:
                raise Conflict(_("A tournament needs at least two players."))
            _end(tournament, Tournament.Status.CANCELLED, now)  # nobody came
            return tournament
        ratings = {e.pk: shown(*_mu_sigma(e.player)).ordinal for e in entries}
        entries.sort(key=lambda e: (-ratings[e.pk], e.joined_at, e.pk))
        for seed, entry in enumerate(entries, 1):
            entry.seed = seed
        Entry.objects.bulk_update(entries, ["seed"])
        tournament.status = Tournament.Status.PLAYING
        tournament.started_at = now
        _pair_round(tournament, 1, now)
    _tell(tournament, lobby=True)
    return tournament


def _mu_sigma(player: Player) -> tuple[float, float]:
    rating = rating_of(player, "individual")
    return rating.mu, rating.sigma


def round_count(tournament: Tournament) -> int:
    """Rounds to play: the number chosen for a Swiss, what the field needs for a round
    robin (the schedule _pairing follows)."""
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        return len(round_robin(seeded(tournament), tournament.table_size, seed=tournament.pk))
    return tournament.rounds


def _pair_round(tournament: Tournament, number: int, now: datetime) -> TournamentRound:
    """Pair round `number` among the players not withdrawn and make its tables, which
    start at once (their seats full)."""
    entries = list(tournament.entries.select_related("player").order_by("seed", "pk"))
    active = [e.player_id for e in entries if e.withdrawn_at is None]
    players = {e.player_id: e.player for e in entries}
    pairing = _pairing(tournament, number, seeded(tournament), active)
    rnd = TournamentRound.objects.create(tournament=tournament, number=number,
                                         byes=list(pairing.byes), started_at=now,
                                         deadline=now + tournament.round_time)
    for board, seated in enumerate(pairing.tables, 1):
        short = tournament.table_size - len(seated) if tournament.bots_fill else 0
        game = _make_table(tournament, rnd, [players[p] for p in seated], bots=short)
        RoundTable.objects.create(round=rnd, board=board, game=game)
    tournament.current_round = number
    tournament.round_deadline = rnd.deadline
    tournament.save(update_fields=["status", "started_at", "current_round", "round_deadline"])
    transaction.on_commit(partial(notify.queue_tournament_mail, tournament.pk, number),
                          robust=True)
    return rnd


def _pairing(tournament: Tournament, number: int, seeded: list[int],
             active: list[int]) -> Pairing:
    pairing = _people_pairing(tournament, number, seeded, active)
    if not tournament.bots_fill or not pairing.byes:
        return pairing
    # A casual tournament seats those left over with computer players (_make_table).
    size, left = tournament.table_size, list(pairing.byes)
    extra = tuple(tuple(left[i:i + size - 1]) for i in range(0, len(left), size - 1))
    return Pairing(pairing.tables + extra, ())


def _people_pairing(tournament: Tournament, number: int, seeded: list[int],
                    active: list[int]) -> Pairing:
    size = tournament.table_size
    if tournament.kind == Tournament.Kind.ROUND_ROBIN:
        planned = round_robin(seeded, size, seed=tournament.pk)[number - 1]
        tables, byes = [], [p for p in planned.byes if p in active]
        for table in planned.tables:
            left = tuple(p for p in table if p in active)
            if len(left) in offers.player_counts(tournament.preset):
                tables.append(left)
            else:
                byes.extend(left)  # the others were withdrawn
        return Pairing(tuple(tables), tuple(byes))
    history = History.of(_played(tournament))
    for pair in blocked_pairs(active):  # two who blocked each other meet only if nothing else fits
        history.met[pair] += APART
    standings = [s for s in tournament_standings(tournament) if s.player in active]
    ranked = [s.player for s in standings]
    if size == 2:
        return swiss_pairs(ranked, history, {s.player: s.points for s in standings})
    smaller = size - 1 in offers.player_counts(tournament.preset) and not tournament.bots_fill
    return score_group_tables(ranked, history, size, smaller_tables=smaller)


def _played(tournament: Tournament) -> Iterable[Pairing]:
    """The rounds so far as pairings: seats in order, and byes. A table that computer
    players filled (`bots_fill`) stands in for the bye, so its people count as having had
    one: nobody gets it again while another has not (the Swiss bye rule)."""
    seats: dict[int, list[int]] = {}
    filled: set[int] = set()
    for game_id, player_id in Seat.objects.filter(
            game__round_table__round__tournament=tournament
    ).order_by("game", "number").values_list("game", "player"):
        if player_id is None:  # a computer player's seat
            filled.add(game_id)
        else:
            seats.setdefault(game_id, []).append(player_id)
    for rnd in tournament.round_set.prefetch_related("tables"):
        tables = list(rnd.tables.all())
        stand_ins = [p for t in tables if t.game_id in filled for p in seats.get(t.game_id, ())]
        yield Pairing(tuple(tuple(seats.get(t.game_id, ())) for t in tables),
                      tuple(rnd.byes) + tuple(stand_ins))


def _make_table(tournament: Tournament, rnd: TournamentRound, players: list[Player],
                bots: int = 0) -> Game:
    """A table made by the lobby's services: the first player makes it, the others join
    it; full, it starts at once. A table short of players gets computer players up to
    the tournament's size (only in a casual one: _pairing)."""
    clock: dict[str, Any] = {"time_control": tournament.time_control,
                             "move_time": tournament.move_time}
    if tournament.bank_time is not None:
        clock.update(bank_time=tournament.bank_time, increment=tournament.increment)
    game = create_game(players[0], tournament.preset, players=len(players) + bots,
                       bots=bots, deals=tournament.deals, private=tournament.private,
                       rated=tournament.rated, tournament_round=rnd, **clock)
    for player in players[1:]:
        game = join_game(game.pk, player, invite_token=game.invite_token)
    return game


# --- a round's end -------------------------------------------------------------------


def advance_tournaments(now: datetime | None = None) -> int:
    """Beat: start tournaments whose start time has come, and move every tournament in
    play on (advance); returns how many changed."""
    now = now or timezone.now()
    changed = 0
    due = Tournament.objects.filter(status=Tournament.Status.OPEN, starts_at__lte=now)
    for pk in due.values_list("pk", flat=True):
        try:
            start_tournament(pk, now=now)
            changed += 1
        except GameError:
            continue  # started by hand meanwhile
    for pk in Tournament.objects.filter(status=Tournament.Status.PLAYING).values_list(
            "pk", flat=True):
        changed += advance(pk, now=now)
    return changed


def advance(tournament_id: int | str, now: datetime | None = None) -> bool:
    """Withdraw players with two timeouts (their tables are lost, nobody waits for them);
    at the round's deadline lose every unfinished table for its player to act (section
    10, as a forfeit); once the round's tables are all over, keep their results and pair
    the next round, or end the tournament. True if anything changed."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if tournament.status != Tournament.Status.PLAYING:
            return False
        rnd = tournament.round_set.get(number=tournament.current_round)
        changed = _withdraw_timed_out(tournament, now)
        tables = list(rnd.tables.select_related("game"))
        if now >= rnd.deadline:
            for table in tables:
                if table.game.is_playing and table.game.turn_seat is not None:
                    _forfeit(table.game, table.game.turn_seat, now)
                    changed = True
            tables = list(rnd.tables.select_related("game"))
        if any(not t.game.is_over for t in tables):
            return changed
        for table in tables:
            if table.places is None:
                table.places, table.deals_lost = table_result(table.game)
                table.save(update_fields=["places", "deals_lost"])
        rnd.finished_at = now
        rnd.save(update_fields=["finished_at"])
        active = tournament.entries.filter(withdrawn_at__isnull=True).count()
        if rnd.number >= round_count(tournament) or active < 2:
            _end(tournament, Tournament.Status.FINISHED, now)
        else:
            _pair_round(tournament, rnd.number + 1, now)
    _tell(tournament)
    return True


def _forfeit(game: Game, seat: int, now: datetime) -> None:
    try:
        forfeit_seat(game.pk, seat, now)
    except GameError:
        pass  # over meanwhile
    game.refresh_from_db()


def _withdraw_timed_out(tournament: Tournament, now: datetime) -> bool:
    counts = (Seat.objects.filter(game__round_table__round__tournament=tournament,
                                  player__isnull=False)
              .values("player").annotate(timeouts=Sum("timeouts_total"))
              .filter(timeouts__gte=TIMEOUTS_TO_WITHDRAW).values_list("player", flat=True))
    entries = tournament.entries.filter(player__in=list(counts), withdrawn_at__isnull=True)
    changed = False
    for entry in entries:
        _withdraw(tournament, entry, now)
        changed = True
    return changed


def _withdraw(tournament: Tournament, entry: Entry, now: datetime) -> None:
    """The entry is paired no more; a table of theirs still in play is lost by them."""
    entry.withdrawn_at = now
    entry.save(update_fields=["withdrawn_at"])
    seats = Seat.objects.filter(game__round_table__round__tournament=tournament,
                                game__status=Game.Status.PLAYING, player=entry.player_id)
    for seat in seats.select_related("game"):
        _forfeit(seat.game, seat.number, now)


def withdraw_player(tournament_id: int | str, player: Player, by: Someone,
                    now: datetime | None = None) -> Entry:
    """Staff withdraw a player from a tournament in play (or remove one not yet started)."""
    now = now or timezone.now()
    if by is not None and not by.is_staff:
        raise Forbidden(_("Only an administrator can withdraw a player."))
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        entry = tournament.entries.filter(player=player).first()
        if entry is None or entry.withdrawn_at is not None:
            raise Conflict(_("That player is not playing in this tournament."))
        if tournament.is_open:
            entry.delete()
        else:
            _withdraw(tournament, entry, now)
    _tell(tournament)
    return entry


def cancel_tournament(tournament_id: int | str, by: Someone,
                      now: datetime | None = None) -> Tournament:
    """Staff cancel a tournament (its maker too, a private one not yet started): its tables
    still in play are aborted."""
    by = need_user(by)
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        if not (by.is_staff or (tournament.is_open and tournament.private
                                and tournament.created_by_id == by.pk)):
            raise Forbidden(_("Only an administrator can cancel this tournament."))
        if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
            raise Conflict(_("This tournament is already over."))
        for pk in Game.objects.filter(round_table__round__tournament=tournament,
                                      status=Game.Status.PLAYING).values_list("pk", flat=True):
            with locked(pk, SITE) as change:  # each table through the door, after the tournament
                if change.game.is_playing:
                    abort(change, "cancel", now=now)
        _end(tournament, Tournament.Status.CANCELLED, now)
    _tell(tournament, lobby=True)
    return tournament


def _end(tournament: Tournament, status: str, now: datetime) -> None:
    tournament.status = status
    tournament.finished_at = now
    tournament.round_deadline = None
    tournament.save(update_fields=["status", "finished_at", "round_deadline"])
    if status == Tournament.Status.FINISHED:  # the final standings, by mail
        transaction.on_commit(partial(notify.queue_tournament_mail, tournament.pk, 0),
                              robust=True)


def _tell(tournament: Tournament, *, lobby: bool = False) -> None:
    """After the commit: the tournament's pages (and, with `lobby`, the lobby) refresh."""
    transaction.on_commit(lambda: notify.tournament_changed(tournament.pk, lobby=lobby),
                          robust=True)
