"""Games dealt from a stacked pack: the lobby's `new_match` replaced for one test."""

from games import services
from games.engine import Deal, Match, full_deck


def stack_new_matches(monkeypatch, deck: list[str], *, seed: str = "stacked") -> None:
    """New matches deal `deck` first (R3: one card at a time from the dealer's left, dealer
    seat 1, so seat 0 gets deck[0], deck[2]…), then the rest of the pack; seat 0 leads."""
    def new_match(rules, *, deals=None, loss_limit=None):
        match = Match(rules, deals=deals, loss_limit=loss_limit, seed=seed)
        pack = deck + [c.code for c in full_deck(rules.deck_size) if c.code not in deck]
        match.deal = Deal.start(rules, deck=pack, dealer=1, opener=0)
        return match

    monkeypatch.setattr(services.lobby, "new_match", new_match)
