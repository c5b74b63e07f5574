"""The site's rate limits, one module for all of them: each is named in settings.LIMITS
and counted here in one of three ways.

- Fixed windows: `allowed` uses per `seconds`, the window starting at the first use; in
  Django's cache (`hit`: the coach's hints and reviews), or in the rows of a model that a
  Redis restart does not forget (`KeptWindows`: the account limits).
- A sliding window over rows kept anyway (`rows_full`): the chat's own messages.
- A token bucket (`Bucket`): `burst` uses at once, refilled at `per_second` (the frames
  one socket sends).

Views that change something say which limit counts them with `@limited(name)` (docs/design.md,
"Limits by default"): a use is counted before the view runs and given back when the view
refuses the request, and a use over the limit gets a 429 in the player's words.

Counting the live sockets (games.live.sockets) is another thing: connections open, not a rate.
"""

from __future__ import annotations

import functools
import hashlib
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any, NamedTuple, Protocol

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F, Model, QuerySet
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Window(NamedTuple):
    """A fixed or sliding window's limit: at most `allowed` uses in `seconds`."""

    allowed: int
    seconds: int

    @property
    def length(self) -> timedelta:
        return timedelta(seconds=self.seconds)


class Rate(NamedTuple):
    """A token bucket's limit: `per_second` on average, `burst` at once."""

    per_second: float
    burst: int


def window(name: str) -> Window:
    """The named window limit, as settings.LIMITS has it now."""
    count, seconds = settings.LIMITS[name]
    return Window(int(count), int(seconds))


def rate(name: str) -> Rate:
    """The named bucket limit, as settings.LIMITS has it now."""
    per_second, burst = settings.LIMITS[name]
    return Rate(float(per_second), int(burst))


def key(name: str, ident: object) -> str:
    """The count's key: the limit's name and a digest of who is counted (a client address,
    an email address whatever its case, a player's id)."""
    digest = hashlib.sha256(str(ident).strip().casefold().encode()).hexdigest()[:32]
    return f"{name}:{digest}"


# ------------------------------------------------------------------ fixed windows, cached
def _cache_key(name: str, ident: object) -> str:
    return f"limit:{key(name, ident)}"


def hit(name: str, ident: object) -> bool:
    """Count one use of `name` by `ident` in the cache; False, counting nothing, when it
    would go over the limit."""
    count, seconds = window(name)
    cached = _cache_key(name, ident)
    cache.add(cached, 0, timeout=seconds)  # the window starts at the first use
    try:
        used = cache.incr(cached)
    except ValueError:  # the window ended between add and incr
        cache.add(cached, 0, timeout=seconds)
        used = cache.incr(cached)
    if used > count:
        cache.decr(cached)
        return False
    return True


def refund(name: str, ident: object) -> None:
    """Give back one use of `name` counted by `hit` (the request it counted was refused)."""
    try:
        if cache.decr(_cache_key(name, ident)) < 0:
            cache.incr(_cache_key(name, ident))
    except ValueError:  # the window has ended: nothing to give back
        pass


def forget(name: str, ident: object) -> None:
    """End `ident`'s window of `name` in the cache now (as if its time had passed)."""
    cache.delete(_cache_key(name, ident))


# ------------------------------------------------------------------ fixed windows, kept
class KeptWindows:
    """Fixed windows kept in the database, in rows of `model` (fields key, count and
    expires): shared by every process, and a Redis restart forgets none of them."""

    def __init__(self, model: type[Model]):
        self.rows = model._default_manager  # `objects`, as a model has it

    def exhausted(self, name: str, ident: object) -> bool:
        """True when `ident` has used up `name`'s allowance (counts nothing)."""
        return bool(self.rows.filter(key=key(name, ident), expires__gt=timezone.now(),
                                     count__gte=window(name).allowed).exists())

    def hit(self, name: str, ident: object) -> bool:
        """Count one use; True if it is within the limit, False if it goes over."""
        count, seconds = window(name)
        counted, now = key(name, ident), timezone.now()
        live = self.rows.filter(key=counted, expires__gt=now)
        with transaction.atomic():
            # The UPDATE locks the row until the commit: no two processes read the same count.
            if not live.update(count=F("count") + 1):
                try:  # the window starts at the first use
                    with transaction.atomic():
                        self.rows.filter(expires__lte=now).delete()
                        self.rows.create(key=counted, count=1,
                                         expires=now + timedelta(seconds=seconds))
                    return True
                except IntegrityError:  # another process started it first
                    self.rows.filter(key=counted).update(count=F("count") + 1)
            used = self.rows.filter(key=counted).values_list("count", flat=True).get()
        return bool(used <= count)

    def refund(self, name: str, ident: object) -> None:
        """Give back one use counted by `hit` (the request it counted was refused)."""
        self.rows.filter(key=key(name, ident), expires__gt=timezone.now(),
                         count__gt=0).update(count=F("count") - 1)


# ------------------------------------------------------------------ sliding window, rows
def rows_full(name: str, rows: QuerySet[Any], field: str = "at") -> bool:
    """True when `rows` (the uses themselves, e.g. the messages one player wrote at one
    table) hold `name`'s allowed uses within its last `seconds` by their time `field`."""
    count, seconds = window(name)
    since = timezone.now() - timedelta(seconds=seconds)
    return bool(rows.filter(**{f"{field}__gte": since}).count() >= count)


# ------------------------------------------------------------------ token bucket
class Bucket:
    """A token bucket read on `clock` (seconds): full at first, one token a use, refilled
    at the named rate up to its burst."""

    def __init__(self, name: str, clock: Callable[[], float] = time.monotonic):
        self.per_second, self.burst = rate(name)
        self.clock = clock
        self.tokens = float(self.burst)
        self.refilled: float | None = None  # the bucket's last reading of its clock

    def allow(self) -> bool:
        """Take a token; False, taking none, when the bucket is empty."""
        now = self.clock()
        if self.refilled is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.refilled) * self.per_second)
        self.refilled = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# ------------------------------------------------------------------ limited views
class Store(Protocol):
    """Where `limited` counts: the cache (`CACHED`) or a `KeptWindows`."""

    def hit(self, name: str, ident: object) -> bool: ...

    def refund(self, name: str, ident: object) -> None: ...


class Cached:
    """The cache's fixed windows (`hit`, `refund`) as a `Store`."""

    def hit(self, name: str, ident: object) -> bool:
        return hit(name, ident)

    def refund(self, name: str, ident: object) -> None:
        refund(name, ident)


CACHED = Cached()
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
View = Callable[..., HttpResponse]

# What a refusal tells the player, by the limit's name (the page adds when to try again).
REFUSALS = {
    "games_made": _("You have made many tables in a short while."),
    "lessons": _("You have started the lesson many times in a short while."),
    "challenges_sent": _("You have sent many challenges in a short while."),
    "challenges_received": _("This player has been challenged many times in a short while. "
                             "Please challenge them again later."),
    "challenge_answers": _("You have answered many challenges in a short while."),
    "vacations": _("You have started or ended a vacation many times today."),
    "tournaments_made": _("You have made many tournaments in a short while."),
    "tournament_changes": _("You have joined, left, started or cancelled tournaments many "
                            "times in a short while."),
    "push_subscriptions": _("You have turned on notifications many times in a short while."),
    "push_unsubscriptions": _("You have turned off notifications many times in a short "
                              "while."),
    "profile_saves": _("You have saved your settings many times in a short while."),
    "password_guesses": _("Your password has been typed wrong too many times."),
    # Counted by the guests' views too (accounts.guests): a guest is a new account.
    "signup_ip": _("Too many new accounts have been made from your network."),
    "deal_checks": _("You have checked many deals in a short while."),
    "friend_changes": _("You have added, removed or blocked players many times in a short "
                        "while."),
}


def player(request: HttpRequest) -> object | None:
    """Who a limit counts by default: the logged-in player (a visitor is not counted: the
    view sends them to log in)."""
    user = getattr(request, "user", None)
    return user.pk if user is not None and user.is_authenticated else None


def made(request: HttpRequest, response: HttpResponse) -> bool:
    """The default of what counts: a request the view did not refuse (below 400)."""
    return response.status_code < 400


def limits_of(view: object) -> tuple[str, ...]:
    """The names of the limits that count a view's changes (empty: none)."""
    return tuple(getattr(view, "limits", ()))


def limited(name: str, *, who: Callable[[HttpRequest], object | None] = player,
            counts: Callable[[HttpRequest, HttpResponse], bool] = made,
            store: Store = CACHED) -> Callable[[View], View]:
    """Count the view's requests that may change something (every method but GET, HEAD,
    OPTIONS and TRACE) in the named limit, per `who(request)` (None: not counted). The use
    is counted first (two at once cannot both take the last one) and given back unless
    `counts(request, response)`; one over the limit is refused with a 429 and the view
    does not run. The view keeps the names in `limits`, for the test that walks the URLs."""

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def limited_view(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            ident = None if request.method in SAFE_METHODS else who(request)
            if ident is None:
                return view(request, *args, **kwargs)
            if not store.hit(name, ident):
                return refused(request, name)
            try:
                response = view(request, *args, **kwargs)
            except BaseException:
                store.refund(name, ident)
                raise
            if not counts(request, response):
                store.refund(name, ident)
            return response

        limited_view.limits = (*limits_of(view), name)  # type: ignore[attr-defined]
        return limited_view

    return decorate


def refused(request: HttpRequest, name: str) -> HttpResponse:
    """429 in the player's words: JSON to a JSON request, a line added to the form for
    htmx (docs/design.md, "Limits by default"), else the site's page."""
    count, seconds = window(name)
    what = REFUSALS.get(name, _("You have done this many times in a short while."))
    context = {"what": what, "minutes": max(1, seconds // 60)}
    response: HttpResponse
    if request.content_type == "application/json" or "json" in request.headers.get(
            "Accept", ""):
        response = JsonResponse({"error": str(what)}, status=429)
    elif request.headers.get("HX-Request") == "true":
        response = render(request, "_limited.html", context, status=429)
        response["HX-Reswap"] = "afterbegin"  # into the form, above its fields
    else:
        response = render(request, "429.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
