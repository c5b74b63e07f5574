"""A tournament's results: each finished table's places and deals lost (R19, R24, R31), the
rounds' results, and the standings they make (games.tournament.scoring)."""

from __future__ import annotations

from dataclasses import replace

from ..engine import Match
from ..engine.rules import TEAMS
from ..models import DealRecord, Game, Tournament
from ..tournament import (
    RoundResult,
    Standing,
    TableResult,
    places_from_deal,
    places_from_losses,
    standings,
)


def seeded(tournament: Tournament) -> list[int]:
    """The entries' players in seeding order."""
    return list(tournament.entries.order_by("seed", "joined_at", "pk")
                .values_list("player", flat=True))


def table_result(game: Game) -> tuple[list[list[int]], dict[str, int]]:
    """A finished table's places (player ids, best first) and deals each lost. A one-deal
    table places by who went out first (R19), the durak last; a match by deals lost
    (R24); a forfeit or resignation puts its player last. An aborted table is a draw.
    In team play a team shares its place (R31: the losing team last, the others before
    it) and its deals lost."""
    # A computer player counts at its table under an id of its own, below zero.
    seats = {s.number: s.player_id if s.player_id is not None else -(game.pk * 10 + s.number + 1)
             for s in game.seats.all()}
    players = [p for _n, p in sorted(seats.items())]
    match = game.match()
    if game.status == Game.Status.ABORTED or match is None:
        return [players], {}
    if match.rules.teams:
        return _team_result(match, seats)
    lost = {seats[side]: count for side, count in match.losses.items()
            if seats.get(side) is not None}
    outcome = match.outcome()
    gave_up = outcome.seat if outcome is not None and outcome.given_up else None
    last = [seats[gave_up]] if gave_up is not None and seats.get(gave_up) else []
    if game.deals == 1:
        record = DealRecord.objects.filter(game=game).order_by("-number").first()
        went_out = [seats[s] for s in (record.out if record else []) if seats.get(s)]
        if not last and record is not None and record.loser is not None:
            last = [seats[record.loser]]
        places = places_from_deal(players, went_out, last)
    else:
        places = places_from_losses(lost, last)
    return [list(place) for place in places], {str(p): n for p, n in lost.items()}


def _team_result(match: Match, seats: dict[int, int]) -> tuple[list[list[int]], dict[str, int]]:
    rules = match.rules
    team = {p: rules.team_of(n) for n, p in seats.items()}
    lost = {p: match.losses.get(team[p], 0) for p in seats.values()}
    outcome = match.outcome()
    if outcome is not None and outcome.given_up:  # resigned or forfeited: that team last
        last_team = outcome.loser
        lost_by = {p: (1 if team[p] == last_team else 0) for p in seats.values()}
        places = places_from_losses(lost_by)
    else:
        places = places_from_losses(lost)
    return [list(place) for place in places], {str(p): n for p, n in lost.items()}


def round_results(tournament: Tournament) -> list[RoundResult]:
    teams = TEAMS.get(tournament.preset.teams) if tournament.preset.teams else None
    team_size = teams[0] // teams[1] if teams else 1
    results = []
    for rnd in tournament.round_set.prefetch_related("tables"):
        tables = tuple(
            TableResult(places=tuple(tuple(place) for place in t.places),
                        deals_lost={int(p): n for p, n in t.deals_lost.items()},
                        team_size=team_size)
            for t in rnd.tables.all() if t.places is not None)
        results.append(RoundResult(tables=tables, byes=tuple(rnd.byes)))
    return results


def tournament_standings(tournament: Tournament) -> list[Standing]:
    """Standings after the tables finished so far (games.tournament.scoring)."""
    table = standings(seeded(tournament), round_results(tournament), table_size=tournament.table_size,
                      buchholz=tournament.kind == Tournament.Kind.SWISS)
    people = [s for s in table if s.player > 0]  # computer players are not ranked
    return [replace(s, rank=rank) for rank, s in enumerate(people, 1)]
