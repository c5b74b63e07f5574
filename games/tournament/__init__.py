"""Tournaments' pure parts: pairing a round (pairing.py) and points and standings
(scoring.py). Standard library only, like the engine; games.services.tournament keeps
the rows and makes the tables."""

from .pairing import (
    History,
    Pairing,
    round_robin,
    score_group_tables,
    swiss_pairs,
    table_sizes,
)
from .scoring import (
    RoundResult,
    Standing,
    TableResult,
    bye_points,
    places_from_deal,
    places_from_losses,
    standings,
)

__all__ = [
    "History", "Pairing", "round_robin", "score_group_tables", "swiss_pairs", "table_sizes",
    "RoundResult", "Standing", "TableResult", "bye_points", "places_from_deal",
    "places_from_losses", "standings",
]
