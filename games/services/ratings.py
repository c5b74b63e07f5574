"""Ratings: openskill's Plackett-Luce model over the places of a finished match.

A match ranks its players (or teams) by deals lost, fewest first (R24): in a one-deal
match the durak comes last and everyone else shares first place (R21); a team wins or
loses together (R31). A forfeit (section 10) puts the forfeiting side last. Each bot level
plays at its ladder rating (BotRating, docs/ladder.md), which its games against people move
as a person's, and the bot arena too (services.ladder). Casual games, aborted games and
games without a person change nothing. Every rated person gets a RatingChange row (the
history).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db import transaction
from openskill.models import PlackettLuce, PlackettLuceRating

from ..models import BotRating, Game, Rating, RatingChange, Seat
from .access import seats_of

if TYPE_CHECKING:
    from accounts.models import Player

MODEL = PlackettLuce()  # mu 25, sigma 25/3 for a newcomer
BOT_SIGMA = MODEL.sigma / 3  # a level's starting uncertainty: a guess, settled by its games
BOT_RATINGS = {  # a level's starting mu, before its games and the arena (docs/ladder.md)
    "easy": 15.0,
    "medium": 22.0,
    "hard": 27.0,
    "expert": 31.0,
}
# Shown to people on a familiar scale: a newcomer is 1500, give or take 1000 (2 sigma).
# Durak is a game of luck too, so a rating settles slowly: while sigma is above half a
# newcomer's it is shown as provisional ("1500?", as chess sites do), not as ±900.
SCALE = 60
SPREAD_SIGMAS = 2
PROVISIONAL_SIGMA = MODEL.sigma / 2
MIN_GAMES = 3  # a leaderboard lists players with at least this many rated games
BRACKETS = {  # leaderboard: player counts per bracket (teams: every team game)
    "2": (2, 2),
    "3-4": (3, 4),
    "5-6": (5, 6),
}


@dataclass(frozen=True)
class Shown:
    """A rating for people: `value` ± `spread` (or `provisional`), and the conservative
    `ordinal` to sort by."""

    value: int
    spread: int
    ordinal: float
    provisional: bool = False


def shown(mu: float, sigma: float) -> Shown:
    return Shown(round(mu * SCALE), round(SPREAD_SIGMAS * sigma * SCALE), mu - 3 * sigma,
                 sigma > PROVISIONAL_SIGMA)


def bracket_field(pool: str, players: int) -> str | None:
    """The Rating column counting a rated game of `players` in `pool` for its leaderboard
    (None: team play, counted by `games`)."""
    if pool != Rating.Pool.INDIVIDUAL:
        return None
    for key, (low, high) in BRACKETS.items():
        if low <= players <= high:
            return "games_" + key.replace("-", "_")
    return None


def pool_of(game: Game) -> str:
    return Rating.Pool.TEAMS if game.get_rules().teams else Rating.Pool.INDIVIDUAL


def rating_of(player: Player, pool: str) -> Rating:
    """The player's rating row (unsaved with the newcomer's rating if they have none)."""
    found = Rating.objects.filter(player=player, pool=pool).first()
    return found or Rating(player=player, pool=pool, mu=MODEL.mu, sigma=MODEL.sigma)


def places(game: Game) -> dict[int, int]:
    """Team (or seat) -> place, 1 best, ties sharing a place: by deals lost (R24)."""
    match = game.match_in_play()
    losses = dict(match.losses)
    if game.forfeited_seat is not None:  # section 10: the forfeiting side comes last
        losses[match.rules.team_of(game.forfeited_seat)] = max(losses.values()) + 1
    order = sorted(set(losses.values()))
    return {side: order.index(lost) + 1 for side, lost in losses.items()}


def rate_game(game: Game) -> list[RatingChange]:
    """Update the ratings of a finished rated game's players, once; returns the changes.

    Called by results.finish_match, where every match ends (whatever ended it); does
    nothing for a casual game, a game already rated, or a game without people.
    """
    if game.status != Game.Status.FINISHED or not game.rated or not game.state:
        return []
    if RatingChange.objects.filter(game=game).exists():
        return []
    seats: list[Seat] = seats_of(game)
    if not any(seat.player_id for seat in seats):
        return []
    finished_at = game.finished_at
    assert finished_at is not None  # a finished game has its time (results.finish_match)
    pool = pool_of(game)
    rules = game.get_rules()
    place = places(game)
    sides = sorted(place)
    members = {side: [s for s in seats if rules.team_of(s.number) == side] for side in sides}
    decided = len(set(place.values())) > 1  # not a draw all round
    last = max(place.values())
    with transaction.atomic():
        # A player's rating row is locked while it changes (two games may end at once);
        # the bot levels' rows after the people's, in one order.
        rows = {s.number: _locked_rating(s.player, pool) for s in seats if s.player_id}
        bots = {s.number: s.bot_level for s in seats if not s.player_id and s.bot_level}
        levels = locked_bot_ratings(list(bots.values()), pool)
        teams = [[_model_rating(seat, rows, levels) for seat in members[side]] for side in sides]
        rated = MODEL.rate(teams, ranks=[place[side] for side in sides])
        after = {seat.number: new for side, team in zip(sides, rated)
                 for seat, new in zip(members[side], team)}
        changes: list[RatingChange] = []
        for number, row in rows.items():
            side, new = rules.team_of(number), after[number]
            changes.append(RatingChange(
                game=game, player_id=row.player_id, pool=pool, players=game.players,
                place=place[side], lost=decided and place[side] == last,
                mu_before=row.mu, sigma_before=row.sigma, mu_after=new.mu,
                sigma_after=new.sigma, at=finished_at))
            row.mu, row.sigma, row.games = new.mu, new.sigma, row.games + 1
            counted = ["mu", "sigma", "games"]
            if (field := bracket_field(pool, game.players)) is not None:
                setattr(row, field, getattr(row, field) + 1)
                counted.append(field)
            row.save(update_fields=counted)
        RatingChange.objects.bulk_create(changes)
        for level, bot in levels.items():  # its seats' changes added up: one level, one row
            seated = [n for n, lvl in bots.items() if lvl == level]
            bot.mu += sum(after[n].mu - bot.mu for n in seated)
            bot.sigma = min(after[n].sigma for n in seated)
            bot.games += 1
            bot.save(update_fields=["mu", "sigma", "games"])
    return changes


def locked_bot_ratings(levels: list[str], pool: str) -> dict[str, BotRating]:
    """The levels' rating rows, made if need be and locked for update in the levels' order
    (two transactions lock them alike, so they never wait on each other in a circle)."""
    rows: dict[str, BotRating] = {}
    for level in sorted(set(levels)):
        BotRating.objects.get_or_create(level=level, pool=pool, defaults={
            "mu": BOT_RATINGS[level], "sigma": BOT_SIGMA})
        rows[level] = BotRating.objects.select_for_update().get(level=level, pool=pool)
    return rows


def bot_rating(level: str, pool: str) -> BotRating:
    """The level's rating row (unsaved with the level's starting rating if it has none)."""
    found = BotRating.objects.filter(level=level, pool=pool).first()
    return found or BotRating(level=level, pool=pool, mu=BOT_RATINGS[level], sigma=BOT_SIGMA)


def _locked_rating(player: Player | None, pool: str) -> Rating:
    Rating.objects.get_or_create(player=player, pool=pool,
                                 defaults={"mu": MODEL.mu, "sigma": MODEL.sigma})
    return Rating.objects.select_for_update().get(player=player, pool=pool)


def _model_rating(seat: Seat, rows: dict[int, Rating],
                  levels: dict[str, BotRating]) -> PlackettLuceRating:
    """A person's current rating (a bot standing in for them plays on their rating, so
    their timeouts count against them), or the bot level's ladder rating."""
    row: Rating | BotRating | None = rows.get(seat.number) or levels.get(seat.bot_level)
    if row is None:  # an empty seat of a game that never filled it: a newcomer
        return MODEL.rating()
    return MODEL.rating(mu=row.mu, sigma=row.sigma)
