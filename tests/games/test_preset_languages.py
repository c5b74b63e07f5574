"""A rule preset's name and description in each language: the seeded ones carry all four,
the admin edits each language without dropping the others, an empty one reads as English
(shown so in the admin), and every page and mail reads the reader's language."""

import importlib
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import mail
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.utils import translation

from games import services
from games.models import RulePreset

pytestmark = pytest.mark.django_db

seeding = importlib.import_module("games.migrations.0017_preset_languages")
T0 = datetime(2037, 12, 1, 9, 0, tzinfo=UTC)


def change_form(admin_client, preset):
    """What the admin's change form sends back unchanged: every box as shown."""
    r = admin_client.get(f"/admin/games/rulepreset/{preset.pk}/change/")
    assert r.status_code == 200
    form = r.context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if value is None or value is False:
            continue
        data[name] = "on" if value is True else field.prepare_value(value) if isinstance(
            value, timedelta) else value
    return data, r.content.decode()


def test_the_seeded_presets_carry_all_four_languages():
    classic = RulePreset.objects.get(name_en="Classic")
    assert (classic.name_fi, classic.name_nb, classic.name_ru) == (
        "Klassinen", "Klassisk", "Классический")
    for preset in RulePreset.objects.filter(name_en__in=seeding.SEEDED):
        for lang in ("en", "fi", "nb", "ru"):
            assert getattr(preset, f"name_{lang}") and getattr(preset, f"description_{lang}")
    with translation.override("ru"):
        assert classic.label == "Классический" and classic.about.startswith("Подкидной дурак")


def test_the_migration_leaves_a_description_an_admin_changed_in_english_only():
    before = MigrationLoader(connection).project_state(("games", "0017_preset_languages")).apps
    before.get_model("games", "RulePreset").objects.filter(name="Prostoy").update(
        description="Our own words.", description_en=None, description_ru=None,
        name_ru=None, name_en=None)  # as the rows were before 0017, changed in English
    seeding.into_rows(before, None)
    prostoy = RulePreset.objects.get(name="Prostoy")
    assert (prostoy.name_en, prostoy.name_ru) == ("Prostoy", "Простой")
    assert (prostoy.description_en, prostoy.description_ru) == ("Our own words.", None)


def test_a_finnish_description_survives_an_edit_of_the_english_one(admin_client):
    classic = RulePreset.objects.get(name_en="Classic")
    finnish = classic.description_fi
    data, _page = change_form(admin_client, classic)
    data["description_en"] = "Podkidnoy Durak as most people play it."
    r = admin_client.post(f"/admin/games/rulepreset/{classic.pk}/change/", data)
    assert r.status_code == 302, r.context["adminform"].form.errors
    classic.refresh_from_db()
    assert classic.description_en == "Podkidnoy Durak as most people play it."
    assert classic.description_fi == finnish and classic.name_ru == "Классический"
    with translation.override("fi"):
        assert classic.about == finnish


def test_a_new_preset_shows_its_russian_name_to_a_russian_reader(admin_client, client):
    from tests.games.test_presets import admin_form

    r = admin_client.post("/admin/games/rulepreset/add/", admin_form(
        name_en="Three-hand transfer", name_ru="Переводной втроём", min_players=3,
        max_players=3, transfer="on", description_en="Three players, transfer allowed.",
        description_ru="Трое игроков, можно переводить."))
    assert r.status_code == 302
    russian = client.get("/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Переводной втроём" in russian and "Трое игроков, можно переводить." in russian
    assert "Three-hand transfer" not in russian
    # Finnish was left empty: a Finnish reader sees the English.
    finnish = client.get("/", HTTP_ACCEPT_LANGUAGE="fi").content.decode()
    assert "Three-hand transfer" in finnish and "Three players, transfer allowed." in finnish


def test_the_admin_shows_the_english_where_a_language_is_empty(admin_client):
    preset = RulePreset.objects.create(name_en="Quick 24", description_en="A short game.",
                                       deck_size=24, hand_size=5, first_bout_limit=5,
                                       max_players=4)
    _data, page = change_form(admin_client, preset)
    box = re.search(r'<input[^>]*name="name_fi"[^>]*>', page).group(0)
    assert 'placeholder="Quick 24"' in box and 'value=' not in box
    assert re.search(r'<textarea[^>]*name="description_nb"[^>]*placeholder="A short game\."',
                     page)
    assert "Left empty, players reading this language see the English." in page


def test_a_copy_made_in_a_finnish_admin_is_named_in_every_language(admin, client):
    classic = RulePreset.objects.get(name_en="Classic")
    client.force_login(admin)
    client.post("/i18n/setlang/", {"language": "fi", "next": "/"})
    r = client.post("/admin/games/rulepreset/", {"action": "duplicate",
                                                 "_selected_action": [classic.pk]})
    assert r.status_code == 302
    copy = RulePreset.objects.get(name_en="Classic (copy)")
    assert copy.name_ru.startswith("Классический (") and copy.name_fi.startswith("Klassinen (")


def test_pages_and_mails_name_the_preset_in_the_readers_language(alice, bob, seeded):
    classic = RulePreset.objects.get(name_en="Classic")
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, classic, players=2, move_time=timedelta(days=1))
        services.join_game(game.pk, bob)
    game.refresh_from_db()
    from django.test import Client

    reader = Client()
    reader.force_login(alice)
    alice.language = "nb"
    alice.save()
    table = reader.get(game.get_absolute_url()).content.decode()
    assert '<h1 id="table-title">Klassisk <small>' in table
    lobby = reader.get("/").content.decode()  # the list of presets and the new-game form
    assert "slik de fleste spiller det" in lobby and ">Klassisk</option>" in lobby
    for seat in game.seats.select_related("player"):
        seat.player.language = "ru"
        seat.player.save()
    services.send_move_emails(now=T0 + timedelta(minutes=5))
    assert "Классический" in mail.outbox[0].subject
