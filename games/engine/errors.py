"""Errors raised by the engine."""


class IllegalAction(ValueError):
    """An action the rules do not allow right now. The message is written for a player."""
