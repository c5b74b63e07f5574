"""The profile's time zones: current names only (no old aliases), grouped by region, each
with its city and UTC offset, a box to find one by city; a zone saved or sent by a browser
under an old name is read as its current one."""

import re
from datetime import UTC, datetime

import pytest
import time_machine
from django.utils import translation

from accounts.zones import canonical, current_zones, zone_choices, zone_label
from tests.i18n.compiled import compile_catalogues

pytestmark = pytest.mark.django_db
URL = "/accounts/profile/"
WINTER = datetime(2037, 1, 15, 12, 0, tzinfo=UTC)


def _options(body):
    select = re.search(r'<select name="time_zone".*?</select>', body, re.S).group(0)
    return re.findall(r'<option value="([^"]*)"', select), select


def test_only_current_names_are_offered_grouped_by_region(client, alice):
    with time_machine.travel(WINTER, tick=False):  # offsets without summer time
        client.force_login(alice)
        body = client.get(URL).content.decode()
    values, select = _options(body)
    assert "Asia/Kolkata" in values and "Europe/Kyiv" in values and "Europe/Oslo" in values
    for alias in ("Asia/Calcutta", "Europe/Kiev", "US/Eastern", "Asia/Saigon", "GB"):
        assert alias not in values
    assert 380 < len(values) < 450  # one or more a country, not 519 names and aliases
    assert '<optgroup label="Europe">' in select and '<optgroup label="Asia">' in select
    assert '<option value="Europe/Helsinki">Helsinki (UTC+02:00)</option>' in select
    assert '<option value="Asia/Kolkata">Kolkata (UTC+05:30)</option>' in select
    assert ">Buenos Aires (UTC−03:00)</option>" in select
    # Found by typing a city: the box names the list it narrows, its script is on the page.
    assert re.search(r'<input type="search" class="zone-filter" data-zone-filter="id_time_zone"',
                     body)
    assert re.match(r'<select name="time_zone"[^>]* id="id_time_zone">', select)
    assert "/static/js/zones.js" in body


def test_the_regions_are_in_the_players_words(alice_client, alice):
    alice.language = "ru"
    alice.save()
    compile_catalogues(["ru"])
    _, select = _options(alice_client.get(URL).content.decode())
    assert '<optgroup label="Европа">' in select and '<optgroup label="Тихий океан">' in select
    assert "Europe" not in re.findall(r'optgroup label="([^"]*)"', select)


def test_an_old_name_on_a_profile_shows_and_saves_as_the_current_one(alice_client, alice):
    alice.time_zone = "Asia/Calcutta"
    alice.save()
    _, select = _options(alice_client.get(URL).content.decode())
    assert re.search(r'<option value="Asia/Kolkata" selected>', select)
    r = alice_client.post(URL, {"display_name": "", "time_zone": "Asia/Kolkata"})
    assert r.status_code == 302
    alice.refresh_from_db()
    assert alice.time_zone == "Asia/Kolkata"


def test_a_browser_sending_an_old_name_is_saved_under_the_current_one(alice_client, alice):
    alice_client.cookies["tz"] = "Europe/Kiev"  # what older browsers' Intl says
    alice_client.get("/")
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Kyiv"


def test_a_zone_the_list_lacks_is_kept_when_the_profile_is_saved(alice_client, alice):
    alice.time_zone = "Etc/GMT+3"
    alice.save()
    values, _ = _options(alice_client.get(URL).content.decode())
    assert "Etc/GMT+3" in values
    alice_client.post(URL, {"display_name": "", "time_zone": "Etc/GMT+3"})
    alice.refresh_from_db()
    assert alice.time_zone == "Etc/GMT+3"


def test_an_alias_posted_is_refused_and_changes_nothing(alice_client, alice):
    alice.time_zone = "Europe/Oslo"
    alice.save()
    r = alice_client.post(URL, {"display_name": "", "time_zone": "Asia/Calcutta"})
    assert r.status_code == 200 and 'id="id_time_zone_error"' in r.content.decode()
    alice.refresh_from_db()
    assert alice.time_zone == "Europe/Oslo"


def test_the_names_and_labels():
    zones = current_zones()
    assert {"UTC", "Europe/Moscow", "Asia/Vladivostok", "America/New_York"} <= zones
    assert not {"Asia/Calcutta", "Europe/Kiev", "W-SU", "Etc/GMT+3"} & zones
    assert canonical("W-SU") == "Europe/Moscow" and canonical("Europe/Moscow") == "Europe/Moscow"
    assert canonical("Europe/Oslo") == "Europe/Oslo"  # a country's own zone, though a link
    with translation.override("en"):
        assert zone_label("America/St_Johns", WINTER) == "St. John’s (UTC−03:30)"
        assert zone_label("America/Indiana/Knox", WINTER) == "Knox, Indiana (UTC−06:00)"


@pytest.mark.parametrize("language, label", [
    ("ru", "Москва (UTC+03:00)"), ("fi", "Moskova (UTC+03:00)"), ("nb", "Moskva (UTC+03:00)")])
def test_cities_are_named_in_the_readers_language(language, label):
    with translation.override(language):
        assert zone_label("Europe/Moscow", WINTER) == label
        europe = dict(zone_choices(WINTER)[1:][0][1])
    assert europe["Europe/Moscow"] == label


def test_without_zone_tab_every_zone_of_a_region_is_offered(monkeypatch):
    from accounts import zones

    monkeypatch.setattr(zones, "_tz_file", lambda name: "")
    monkeypatch.setattr(zones, "current_zones", zones.current_zones.__wrapped__)
    offered = zones.current_zones()
    assert "Europe/Helsinki" in offered and len(offered) > 300
    assert zones.canonical("Asia/Calcutta") == "Asia/Calcutta"  # no links known: itself
