"""Playing a game forward quickly in tests: the first legal action of the seat to act,
made by the site (services.play_seat), as a bot or timeout would."""

from games import services
from games.models import Game


def play_on(game, *, until_deal=None, max_moves=3000) -> Game:
    """Play until the game is over, or until deal `until_deal` has begun."""
    for _ in range(max_moves):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            return game
        match = game.match()
        if until_deal is not None and match.deal_number >= until_deal:
            return game
        seat = match.deal.to_act
        token = match.deal.legal_actions(seat)[0].token()
        services.play_seat(game.pk, seat, [token], game.version)
    raise AssertionError("the game did not get there")
