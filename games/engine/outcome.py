"""How a match ended and who lost it (R24, section 10), as python-chess's `Outcome` says how
a game of chess ended and who won: `Match.outcome()` gives one once the match is over."""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Termination(enum.Enum):
    """Why a match ended."""

    DEALS_PLAYED = "deals_played"
    """R24: the number of deals agreed when the table was made were played (a match of
    neither deals nor losses is a single deal)."""
    LOSS_LIMIT = "loss_limit"
    """R24: a side reached the agreed number of losses."""
    RESIGNATION = "resignation"
    """R24: a side resigned."""
    FORFEIT = "forfeit"
    """Section 10: a player ran out of time too often and forfeited, as by resigning."""


@dataclass(frozen=True)
class Outcome:
    """The end of a match. A side is a seat in individual play and a team in team play
    (`Rules.team_of`).

    `loser` is the side that lost the match: the one that resigned or forfeited, else the
    one with the most losses (R24); None when the last place is shared, a draw (a single
    deal drawn, R22, is one). `losses` counts the deals each side lost, by side, the deal
    given up by a resignation or forfeit included; `deals` is how many deals the tally
    counts. `seat` is the seat that gave the match up when one seat did: the forfeiting
    player's, or the resigning player's in individual play (a team resigns as one).
    """

    termination: Termination
    loser: int | None
    losses: tuple[int, ...]
    deals: int
    seat: int | None = None

    @property
    def is_draw(self) -> bool:
        """Nobody lost the match alone (R24)."""
        return self.loser is None

    @property
    def given_up(self) -> bool:
        """Resigned or forfeited rather than played out."""
        return self.termination in (Termination.RESIGNATION, Termination.FORFEIT)

    @property
    def winners(self) -> tuple[int, ...]:
        """R24, fewest losses wins: the sides with the fewest losses; after a resignation
        or a forfeit, every side but the one that gave up."""
        sides = range(len(self.losses))
        if self.given_up:
            return tuple(side for side in sides if side != self.loser)
        fewest = min(self.losses)
        return tuple(side for side in sides if self.losses[side] == fewest)
