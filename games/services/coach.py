"""The coach's hint at a casual table: the move a search bot would make for your seat, and
why in a few words. Asked for over HTTP, computed by a Celery task from your seat's view
only (games.bots.coach), kept in the cache for that version of the game."""

from __future__ import annotations

from django.core.cache import cache
from django.utils.translation import gettext as _

from .. import notify
from ..bots.coach import hint
from ..describe import label
from ..models import Game
from .core import need_user, own_seat
from .errors import Conflict, Forbidden, NotFound

HINT_WORLDS = 24  # sampled deals: well under a second
HINT_SECONDS = 600  # how long a hint is kept


def _key(game_id: int, version: int, seat: int) -> str:
    return f"hint:{game_id}:{version}:{seat}"


def _check(game_id, user):
    need_user(user)
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no such game."))
    seat = own_seat(game, user)
    if game.rated:
        raise Forbidden(_("Hints are for casual games, not rated ones."))
    if not game.is_playing:
        raise Conflict(_("The game is not being played."))
    if seat.bot_level:
        raise Conflict(_("A computer player is standing in for you: take your seat back first."))
    if not game.match().deal.legal_actions(seat.number):
        raise Conflict(_("Nothing to do right now: wait for your turn."))
    return game, seat


def ask_hint(game_id, user) -> tuple[int, int]:
    """Queue the coach for the user's seat at this version; (version, seat)."""
    game, seat = _check(game_id, user)
    if cache.get(_key(game.pk, game.version, seat.number)) is None:
        notify.queue_hint(game.pk, game.version, seat.number)
    return game.version, seat.number


def hint_for(game_id, user, version) -> dict | None:
    """The hint for the user's seat at `version`, in the user's words, once the coach has
    it (else None)."""
    game, seat = _check(game_id, user)
    kept = cache.get(_key(game.pk, version, seat.number))
    if kept is None:
        return None
    return {**kept, "text": advice_words(kept["reason"], kept["card"])}


def compute_hint(game_id: int, version: int, seat: int) -> bool:
    """The task: the coach looks at the seat's view (nothing else) and keeps its advice."""
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is None or not game.is_playing:
        return False  # moved on: nobody needs this hint any more
    advice = hint(game.match().deal.view(seat), worlds=HINT_WORLDS, seed=version)
    cache.set(_key(game_id, version, seat), {
        "token": advice.action.token(),
        "chance": round(advice.chance * 100),
        "reason": advice.reason,
        "card": advice.card,
    }, HINT_SECONDS)
    return True


def advice_words(reason: str, card: str | None) -> str:
    """The coach's reason in the player's words."""
    name = label(card) if card else ""
    words = {
        "wins": _("Play the %(card)s: it wins by force.") if card else _("This wins by force."),
        "exchange": _("Take the %(card)s for your trump 6: a higher trump for a low one."),
        "take": _("Take the cards: beating this would cost you more than picking it up."),
        "must_take": _("Take the cards: nothing in your hand beats them all."),
        "stop": _("Stop throwing in: keep your cards for the next bout."),
        "pass": _("Pass: there is nothing worth adding."),
        "transfer": _("Transfer with the %(card)s: let the next player defend."),
        "keeps_trumps": _("Beat with the %(card)s: it keeps your trumps."),
        "cheapest": _("Beat with the %(card)s: the cheapest card that does it."),
        "beat": _("Beat with the %(card)s."),
        "throw_in": _("Throw in the %(card)s: the defender must beat it too."),
        "lowest": _("Lead the %(card)s: get rid of your lowest card first."),
        "lead": _("Lead the %(card)s."),
    }
    return words.get(reason, _("This gives you the best chance.")) % {"card": name}
