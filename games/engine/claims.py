"""The trump-6 late claim (R27): a deal keeps it open until the next lead."""

from __future__ import annotations

from typing import NamedTuple


class LateClaim(NamedTuple):
    """R27: a late claim of the trump-6 exchange, open until the next lead."""

    six_holder: int  # the seat that drew the 6 in the draw that emptied the talon
    face_holder: int  # the seat that drew the face-up trump card
    face: str  # that card's code
