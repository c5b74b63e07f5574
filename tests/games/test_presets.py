"""RulePreset: validated through the engine's Rules; seeded; managed in the admin."""

import pytest
from django.core.exceptions import ValidationError

from games import services
from games.engine import Rules
from games.models import Game, RulePreset

pytestmark = pytest.mark.django_db

SEEDS = ["Classic", "Perevodnoy (transfer)", "Pairs 2x2", "Two teams of three", "Three pairs",
         "First bout five", "Prostoy"]


def test_the_seed_presets_exist_and_are_valid():
    presets = {p.name: p for p in RulePreset.objects.filter(name__in=SEEDS)}
    assert sorted(presets) == sorted(SEEDS)
    for preset in presets.values():
        preset.full_clean()
        assert preset.active and preset.description
    assert list(presets["Classic"].player_counts) == [2, 3, 4, 5, 6]
    assert presets["Perevodnoy (transfer)"].rules(3).transfer is True
    assert presets["Pairs 2x2"].rules(4).teams == "2x2"
    assert presets["Two teams of three"].rules(6).teams == "2x3"
    assert presets["Three pairs"].rules(6).teams == "3x2"
    assert presets["First bout five"].rules(2).first_bout_limit == 5
    prostoy = presets["Prostoy"].rules(2)
    assert (prostoy.hand_size, prostoy.throw_in) == (5, "main_only")


def test_rules_round_trip_through_the_preset():
    preset = RulePreset(name="x", min_players=3, max_players=3, deck_size=52, transfer=True,
                        trump_exchange="off", lead_multiple=True)
    assert preset.rules(3) == Rules(players=3, deck_size=52, transfer=True,
                                    trump_exchange="off", lead_multiple=True)


@pytest.mark.parametrize("fields, words", [
    ({"teams": "2x2"}, "These teams need exactly 4 players"),
    ({"min_players": 6, "deck_size": 24}, "6 players with 6 cards each need 36 cards"),
    ({"min_players": 4, "max_players": 4, "teams": "2x2", "throw_in": "neighbours"},
     "is for play without teams"),
    ({"min_players": 5, "max_players": 3}, "fewest players can't be more"),
])
def test_impossible_combinations_are_refused_in_an_admins_words(fields, words):
    preset = RulePreset(name="Bad", **{"min_players": 2, "max_players": 6, **fields})
    with pytest.raises(ValidationError) as info:
        preset.full_clean()
    assert words in str(info.value)


# ---------------------------------------------------------------------------- admin
def test_the_admin_lists_and_filters_presets(admin_client):
    r = admin_client.get("/admin/games/rulepreset/?transfer__exact=1")
    body = r.content.decode()
    assert r.status_code == 200
    assert "Perevodnoy (transfer)" in body and "Prostoy" not in body


def admin_form(**fields):
    data = {"name_en": "New", "description_en": "", "active": "on", "position": 5,
            "min_players": 2, "max_players": 6, "teams": "", "deck_size": 36, "hand_size": 6,
            "attack_limit": 6, "first_bout_limit": 6, "throw_in": "auto",
            "trump_exchange": "six", "next_deal_start": "dealer_left", "timeout_policy": "bot",
            "timeouts_allowed": 3, "time_control": "move", "move_time": "1 00:00:00",
            "bank_time": "3 00:00:00", "increment": "1 00:00:00"}
    data.update(fields)
    return data


def test_the_admin_refuses_an_impossible_preset(admin_client):
    r = admin_client.post("/admin/games/rulepreset/add/", admin_form(teams="3x2"))
    assert r.status_code == 200
    assert "These teams need exactly 6 players" in r.content.decode()
    assert not RulePreset.objects.filter(name="New").exists()
    r = admin_client.post("/admin/games/rulepreset/add/",
                          admin_form(min_players=6, max_players=6, teams="3x2"))
    assert r.status_code == 302
    assert RulePreset.objects.get(name="New").rules(6).teams == "3x2"


def test_the_admin_duplicates_and_deactivates_presets(admin_client):
    classic = RulePreset.objects.get(name="Classic")
    r = admin_client.post("/admin/games/rulepreset/", {
        "action": "duplicate", "_selected_action": [classic.pk]})
    assert r.status_code == 302
    copy = RulePreset.objects.get(name="Classic (copy)")
    assert not copy.active and copy.options() == classic.options()
    admin_client.post("/admin/games/rulepreset/", {
        "action": "duplicate", "_selected_action": [classic.pk]})
    assert RulePreset.objects.filter(name__startswith="Classic (copy)").count() == 2
    admin_client.post("/admin/games/rulepreset/", {
        "action": "deactivate", "_selected_action": [classic.pk]})
    classic.refresh_from_db()
    assert not classic.active
    admin_client.post("/admin/games/rulepreset/", {
        "action": "activate", "_selected_action": [classic.pk]})
    classic.refresh_from_db()
    assert classic.active


def test_the_admin_lists_games_and_aborts_them(admin_client, alice, bob, classic):
    game = services.create_game(alice, classic, players=2)
    services.join_game(game.pk, bob)
    body = admin_client.get("/admin/games/game/?status__exact=playing").content.decode()
    assert "alice, bob" in body
    assert admin_client.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    r = admin_client.post("/admin/games/game/", {"action": "abort",
                                                 "_selected_action": [game.pk]})
    assert r.status_code == 302
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.moves.last().actions == ["abort"]


def test_players_cannot_use_the_admin(alice_client):
    assert alice_client.get("/admin/games/rulepreset/").status_code == 302
