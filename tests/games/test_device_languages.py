"""What a device keeps of the site speaks the page's language: the web app manifest (a
browser fetches it without the site's cookies, so the page names its language's) and the
offline page the service worker keeps, which every visitor's browser gets, logged in or
not; the profile's notification switch answers in words."""

import re

import pytest

from tests.i18n.compiled import compile_catalogues

pytestmark = pytest.mark.django_db
LANGUAGES = ["en", "fi", "nb", "ru"]


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    compile_catalogues()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_page_links_the_manifest_in_its_language(client, lang):
    page = client.get("/leaderboards/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
    href = re.search(r'<link rel="manifest" href="([^"]+)">', page).group(1)
    assert href == f"/manifest.{lang}.webmanifest"
    client.cookies.clear()
    manifest = client.get(href, HTTP_ACCEPT_LANGUAGE="en").json()  # no cookie, any browser
    assert manifest["lang"] == lang and manifest["start_url"] == "/games/mine/"
    english = client.get("/manifest.en.webmanifest").json()
    if lang != "en":
        assert manifest["description"] != english["description"]
    if lang == "ru":
        assert manifest["name"] == manifest["short_name"] == "Дурак"
        assert manifest["description"].startswith("Подкидной дурак")


def test_an_unknown_language_has_no_manifest_nor_offline_page(client):
    assert client.get("/manifest.xx.webmanifest").status_code == 404
    assert client.get("/offline/xx/").status_code == 404
    assert client.get("/manifest.webmanifest").json()["lang"] == "en"  # the old address


@pytest.mark.parametrize(("lang", "heading"), [
    ("en", "You are offline"), ("fi", "Yhteys on poikki"), ("nb", "Du er frakoblet"),
    ("ru", "Нет подключения к сети")])
def test_every_visitor_gets_the_worker_and_its_offline_page_in_their_language(
        client, lang, heading):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()  # logged out
    # One worker for every language: a new address would replace it while a page loads.
    assert '<meta name="service-worker" content="/sw.js">' in page
    assert client.get("/", HTTP_ACCEPT_LANGUAGE=lang)["Content-Language"] == lang
    assert re.search(r'<script src="/static/js/worker\.js[^"]*" defer></script>', page)
    offline = client.get(f"/offline/{lang}/", HTTP_ACCEPT_LANGUAGE="en")
    assert offline.status_code == 200 and f"<h1>{heading}</h1>" in offline.content.decode()
    assert f'<html lang="{lang}">' in offline.content.decode()
    worker = client.get("/sw.js").content.decode()  # it keeps the last page's language's
    assert '"/offline/" + lang + "/"' in worker and 'get("Content-Language")' in worker


def test_the_profile_has_one_notification_switch_and_words_for_each_failure(alice_client):
    page = alice_client.get("/accounts/profile/").content.decode()
    assert "Turn on notifications" not in page
    # The push switch, and the stand-in for browsers without push: both hidden until
    # static/js/push.js shows the one that works here.
    switches = re.findall(r"<button[^>]*data-(?:push|notify)-toggle[^>]*>", page)
    assert len(switches) == 2 and all(" hidden" in s for s in switches)
    push = next(s for s in switches if "data-push-toggle" in s)
    for reason in ("working", "done", "denied", "unsupported", "timeout", "failed"):
        assert re.search(rf'data-{reason}="[^"]+"', push), reason
    assert "a private window cannot" in push
