"""The lobby: open games, filters, making a game."""

from datetime import timedelta

import pytest

from games import services
from games.models import Game, RulePreset

pytestmark = pytest.mark.django_db


def form(chosen, **extra):
    data = {"preset": chosen.pk, "players": 2, "bots": 0, "bot_level": "medium",
            "match_kind": "deals", "count": 1, "move_time": 300}
    data.update(extra)
    return data


def test_it_lists_open_public_games(client, alice, bob, classic, pairs):
    open_game = services.create_game(alice, classic, players=3, bots=1,
                                     move_time=timedelta(minutes=5))
    services.create_game(alice, classic, players=2, private=True)
    started = services.create_game(bob, classic, players=2, bots=1)
    team = services.create_game(bob, pairs, players=4)
    body = client.get("/").content.decode()
    assert f'href="/games/{open_game.pk}/"' in body
    assert f'href="/games/{team.pk}/"' in body
    assert f'href="/games/{started.pk}/"' not in body
    assert body.count("Look and join") == 2
    assert "2/3" in body and "5 minutes" in body and "Test classic" in body


def test_it_filters_by_preset_and_player_count(client, alice, classic, pairs):
    two = services.create_game(alice, classic, players=2)
    four = services.create_game(alice, pairs, players=4)
    hx = {"HX-Request": "true", "HX-Target": "open-games"}
    r = client.get(f"/?preset={pairs.pk}", headers=hx)
    body = r.content.decode()
    assert body.lstrip().startswith('<div id="open-games">')
    assert f"/games/{four.pk}/" in body and f"/games/{two.pk}/" not in body
    body = client.get("/?players=2").content.decode()
    assert f"/games/{two.pk}/" in body and f"/games/{four.pk}/" not in body
    assert client.get("/?players=banana&preset=x").status_code == 200  # ignored, not a 500


def test_it_makes_a_game(alice_client, classic):
    r = alice_client.post("/games/new/", form(classic, players=3, bots=1, match_kind="losses",
                                              count=3, move_time=3600, private="on"))
    game = Game.objects.get()
    assert r.status_code == 302 and r.url == f"/games/{game.pk}/"
    assert (game.players, game.loss_limit, game.deals, game.private) == (3, 3, None, True)
    assert game.move_time == timedelta(hours=1)
    assert game.seats.get(number=2).bot_level == "medium"


def test_the_lobby_jumps_to_its_forms(alice_client, classic):
    page = alice_client.get("/").content.decode()
    for anchor in ("new-title", "quick-title", "challenge-title"):
        assert f'href="#{anchor}"' in page and f'id="{anchor}"' in page


def test_with_htmx_it_redirects_the_client(alice_client, classic):
    r = alice_client.post("/games/new/", form(classic), headers={"HX-Request": "true"})
    assert r.status_code == 200 and r["HX-Redirect"] == f"/games/{Game.objects.get().pk}/"


def test_a_game_against_bots_starts_at_once(alice_client, classic, seeded):
    r = alice_client.post("/games/new/", form(classic, bots=1))
    assert r.status_code == 302
    assert Game.objects.get().status == Game.Status.PLAYING


@pytest.mark.parametrize("extra, words", [
    ({"players": 5, "preset": "pairs"}, "Test pairs is played by 4 players."),
    ({"bots": 2}, "at most 1 computer player."),
    ({"move_time": 30}, "Select a valid choice"),
    ({"count": 0}, "greater than or equal to 1"),
    ({"players": "many"}, "Select a valid choice"),
])
def test_it_refuses_a_bad_form_with_400(alice_client, classic, pairs, extra, words):
    if extra.get("preset") == "pairs":
        extra["preset"] = pairs.pk
    r = alice_client.post("/games/new/", form(classic, **extra),
                          headers={"HX-Request": "true", "HX-Target": "create-game"})
    assert r.status_code == 400
    body = r.content.decode()
    assert body.lstrip().startswith('<form id="create-game"') and words in body
    assert not Game.objects.exists()


def test_inactive_presets_are_not_offered(alice_client, classic):
    RulePreset.objects.filter(pk=classic.pk).update(active=False)
    body = alice_client.get("/").content.decode()
    create_form = body[body.index('<form id="create-game"'):]
    assert "Test classic" not in create_form
    assert alice_client.post("/games/new/", form(classic)).status_code == 400


def test_anonymous_visitors_are_asked_to_log_in(client, classic):
    page = client.get("/").content.decode()
    assert "to make a table" in page and 'href="/accounts/signup/">sign up</a>' in page
    assert 'class="jump"' not in page  # nothing to jump to
    r = client.post("/games/new/", form(classic))
    assert r.status_code == 302 and "/accounts/login/" in r.url


def test_my_games_puts_the_games_waiting_for_me_first(alice, bob, carol, classic, seeded,
                                                     alice_client):
    open_game = services.create_game(alice, classic, players=3)
    waiting = services.create_game(alice, classic, players=2)
    services.join_game(waiting.pk, bob)
    waiting.refresh_from_db()
    if waiting.turn_seat != 0:  # make it alice's turn
        deal = waiting.match().deal
        services.play(waiting.pk, bob, [deal.legal_actions(1)[0].token()], waiting.version)
        waiting.refresh_from_db()
    assert waiting.turn_seat == 0
    services.create_game(carol, classic, players=2)  # not alice's
    body = alice_client.get("/games/mine/").content.decode()
    assert body.index(f"/games/{waiting.pk}/") < body.index(f"/games/{open_game.pk}/")
    assert "Your move" in body and 'href="/games/mine/"' in body
    assert body.count('class="panel') == 2


def test_my_games_needs_a_login(client):
    assert client.get("/games/mine/").status_code == 302


def _choices(page, name):
    import re

    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S).group(1)
    return re.findall(r'<option value="(\d+)"(?![^>]*disabled)', select)  # those offered


def _create_form(page):
    return page[page.index('<form id="create-game"'):page.index("</form>",
                                                                page.index('id="create-game"'))]


def test_the_new_game_form_offers_only_what_the_chosen_preset_allows(alice_client, classic,
                                                                      pairs):
    RulePreset.objects.exclude(pk__in=[classic.pk, pairs.pk]).update(active=False)
    RulePreset.objects.filter(pk=classic.pk).update(position=1, min_players=3, max_players=5)
    page = _create_form(alice_client.get("/").content.decode())
    assert _choices(page, "players") == ["3", "4", "5"]  # the first preset's
    assert _choices(page, "bots") == ["0", "1", "2"]  # a seat left for the maker of three
    assert 'hx-get="/games/new/"' in page and 'hx-include="closest form"' in page
    # Choosing the pairs asks for the form again: four players, two pairs, the answers kept.
    r = alice_client.get("/games/new/", {"preset": pairs.pk, "players": 3, "bots": 2,
                                         "count": 7, "bot_level": "hard"},
                         headers={"HX-Request": "true", "HX-Target": "create-game"})
    page = r.content.decode()
    assert page.lstrip().startswith('<form id="create-game"')
    assert _choices(page, "players") == ["4"]
    assert '<option value="4" selected>' in page and "two pairs (4 players)" in page
    assert _choices(page, "bots") == ["0", "1", "2", "3"]
    assert 'name="count" value="7"' in page and '<option value="hard" selected>' in page
