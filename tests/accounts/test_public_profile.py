"""A player's public profile: name and record for anyone, never the email; 404 for an
unknown or deactivated player."""

import pytest

pytestmark = pytest.mark.django_db


def test_it_shows_name_and_record_to_anyone(client, alice):
    alice.display_name = "Alice the Bold"
    alice.deals_played, alice.deals_lost = 9, 4
    alice.save()
    r = client.get("/accounts/u/alice/")
    assert r.status_code == 200
    body = r.content.decode()
    assert "Alice the Bold" in body
    assert "@alice" in body
    assert "<strong>9</strong>deals played" in body
    assert "<strong>4</strong>deals lost" in body


def test_it_does_not_show_the_email(client, alice):
    assert "alice@example.org" not in client.get("/accounts/u/alice/").content.decode()


def test_it_is_404_for_unknown_players_and_says_so(client, alice):
    r = client.get("/accounts/u/nobody/")
    body = r.content.decode()
    assert r.status_code == 404 and "No player by that name" in body and "“nobody”" in body
    assert "not on the table" not in body  # not the page for a missing game


def test_a_name_in_another_case_finds_its_player(client, alice):
    r = client.get("/accounts/u/ALICE/")
    assert r.status_code == 302 and r["Location"] == "/accounts/u/alice/"


def test_it_is_404_for_deactivated_players(client, alice):
    alice.is_active = False
    alice.save()
    assert client.get("/accounts/u/alice/").status_code == 404
