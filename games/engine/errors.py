"""Errors raised by the engine: malformed action text, and actions the rules refuse."""

from __future__ import annotations

from typing import Any


class InvalidAction(ValueError):
    """Text that is not an action at all (bad syntax, unknown card code)."""


class IllegalAction(ValueError):
    """An action the rules do not allow right now. The message is written for a player.

    `code` names the kind of refusal (stable, for translations) and `params` the cards
    (as codes) and seats involved, e.g. ``IllegalAction("...", "not_in_hand", card="8D")``.
    """

    code: str
    params: dict[str, Any]

    def __init__(self, message: str, code: str = "illegal", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
