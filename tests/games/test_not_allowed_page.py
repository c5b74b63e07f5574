"""An address that only a button uses (POST), opened as a link, gets the site's own page
in the reader's language (durak_site/notallowed.py), not the browser's blank error."""

import pytest

from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("url", ["/games/quick/", "/games/{game}/rematch/", "/games/{game}/chat/",
                                 "/friends/bob/challenge/"])
def test_a_button_address_opened_as_a_link_explains_itself(alice, bob, classic, url):
    from games import services

    game = services.create_game(alice, classic, players=2)
    response = client_for(alice).get(url.format(game=game.pk))
    assert response.status_code == 405 and "POST" in response["Allow"]
    assert "This address is for a button" in response.content.decode()
    finnish = client_for(alice).get(url.format(game=game.pk), HTTP_ACCEPT_LANGUAGE="fi")
    assert "Tämä osoite on painiketta varten" in finnish.content.decode()


def test_other_methods_keep_their_short_answer(alice_client):
    response = alice_client.put("/games/quick/")
    assert response.status_code == 405 and b"This address" not in response.content
