"""The environment, read here only and strictly (docs/design.md, "Strict environment"): a
value that is not what its variable takes stops the start with a message naming the
variable. Unset or empty: the default. Used by durak_site.settings and scripts/*.py."""

from __future__ import annotations

import math
import os

from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS, FALSE_WORDS = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def envstr(name: str, default: str, *, strip: bool = True) -> str:
    """The text of `name` (its ends trimmed unless `strip` is false: a password's are its own)."""
    value = os.getenv(name, "")
    return (value.strip() if strip else value) or default


def envbool(name: str, default: str) -> bool:
    value = envstr(name, default)
    if value.lower() in TRUE_WORDS:
        return True
    if value.lower() in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(
        f"{name} must be 1/true/yes/on or 0/false/no/off (any case), not {value!r}")


def envint(name: str, default: str) -> int:
    value = envstr(name, default)
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {value!r}") from None


def envfloat(name: str, default: str | None) -> float | None:
    """A number of seconds, fractions allowed; None when unset and no default."""
    value = os.getenv(name, "").strip() or default
    if value is None:
        return None
    try:
        number = float(value)
    except ValueError:
        number = math.nan
    if not math.isfinite(number):
        raise ImproperlyConfigured(f"{name} must be a number (e.g. 2 or 0.5), not {value!r}")
    return number


def envchoice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of `choices` (any case: given as the choice is spelled)."""
    value = envstr(name, default)
    for choice in choices:
        if value.lower() == choice.lower():
            return choice
    *most, last = choices
    words = f"{', '.join(most)} or {last}" if most else last
    raise ImproperlyConfigured(f"{name} must be {words}, not {value!r}")


def envlist(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.getenv(name, default).split(",") if item.strip()]
