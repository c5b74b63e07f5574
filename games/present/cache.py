"""The one cache helper, as present/ has always imported it (it lives in games.kept, a
leaf the engine and bots use too)."""

from ..kept import Kept, memo

__all__ = ["Kept", "memo"]
