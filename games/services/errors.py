"""Refused changes: each carries a message for the player and an HTTP status (4xx)."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _


class GameError(Exception):
    """A refused change: `message` is for the player, `status` the HTTP status."""

    status = 400

    def __init__(self, message: str | Promise, status: int | None = None):
        super().__init__(str(message))
        self.message = str(message)
        if status is not None:
            self.status = status


class BadRequest(GameError):
    status = 400


class IllegalMove(GameError):
    status = 400


class Forbidden(GameError):
    status = 403


class NotFound(GameError):
    status = 404


class Conflict(GameError):
    """The game is in the wrong state for this (already started, full, over…)."""

    status = 409


class StaleVersion(Conflict):
    def __init__(self, message: str | Promise | None = None, status: int | None = None):
        super().__init__(message or _("The game has moved on; here is the current table."), status)


class NotYourTurn(Conflict):
    pass


class TimeRanOut(Conflict):
    """A move after the seat's deadline: refused, and the timeout move played instead."""
