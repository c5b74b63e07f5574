"""Friends and blocks (docs/design.md, "Friends and blocks"): the friends page, adding,
removing, blocking and unblocking a player (from their profile, a table or this page), and
the one-tap challenge of a friend. Every change goes to games.services."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.context_processors import safe_next

from .. import services
from ..limits import limited
from .table import to_table


def _page(request, *, refusal: str | None = None, status: int = 200):
    mutual = {p.pk for p in services.friends.mutual_friends(request.user)}
    ctx = {
        "friends": [{"player": p, "mutual": p.pk in mutual}
                    for p in services.friends.friends_of(request.user)],
        "blocked": services.friends.blocked_players(request.user),
        "added_by": services.friends.added_by(request.user),
        "refusal": refusal,
        "friends_online": None,  # the socket fills it in (games.live.nav)
        "live_page": "friends",
    }
    return render(request, "games/friends.html", ctx, status=status)


@login_required
@require_GET
def friends(request):
    return _page(request)


def _named(request) -> int | None:
    """The challenged friend, counted in "challenges_received" (none if nobody)."""
    match = request.resolver_match
    try:
        return services.find_player(str(match.kwargs.get("username", ""))[:150]).pk
    except services.GameError:
        return None


CHANGES = {
    "add": (services.friends.add_friend, gettext_lazy("%(name)s is now one of your friends.")),
    "remove": (services.friends.remove_friend,
               gettext_lazy("%(name)s is no longer one of your friends.")),
    "block": (services.apart.block, gettext_lazy(
        "You have blocked %(name)s: they can no longer challenge you, sit at your tables or "
        "write to you.")),
    "unblock": (services.friends.unblock, gettext_lazy("You have unblocked %(name)s.")),
}


@require_POST
@limited("friend_changes")
@login_required
def change(request, username):
    """`do`: add, remove, block or unblock the player; back to `next` (their profile, the
    table) or the friends page."""
    try:
        todo = CHANGES.get(str(request.POST.get("do", "")))
        if todo is None:
            raise services.BadRequest(_("Add, remove, block or unblock the player."))
        other = services.find_player(username[:150])
        todo[0](request.user, other)
    except services.GameError as exc:
        return _page(request, refusal=exc.message, status=exc.status)
    messages.success(request, str(todo[1]) % {"name": other.name})
    return redirect(safe_next(request, request.POST.get("next")) or "friends")


@require_POST
@limited("challenges_sent")
@limited("challenges_received", who=_named)
@login_required
def challenge(request, username):
    """Challenge a friend in one tap (services.challenge_friend picks the rules)."""
    try:
        game = services.challenge_friend(request.user, services.find_player(username[:150]))
    except services.GameError as exc:
        return _page(request, refusal=exc.message, status=exc.status)
    return to_table(request, game)
