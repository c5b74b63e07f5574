"""A player's profile with its rating chart, the replay of a finished game stepped with
the arrow keys, and the pages in Finnish, Norwegian and Russian with no English word left.

The games are played through the services in the test process (every seat a random legal
move, as in tests/games); the browser reads them from the running site.
"""

import re
from pathlib import Path

import polib
import pytest
from playwright.sync_api import expect

from games.models import Game, Rating, RulePreset
from games.present import replay
from games.services import create_game
from tests.e2e.helpers import PASSWORD, quiet_notify
from tests.e2e.test_screenshots import SIZES, shoot
from tests.games.playout import finish, table

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
DESKTOP = SIZES["desktop"]
WORD = re.compile(r"[^\W\d_]{2,}")
PLACEHOLDER = re.compile(r"%\(\w+\)\w|<[^>]+>|{{.*?}}")


@pytest.fixture
def played(django_user_model, monkeypatch):
    """alice and bob: four finished rated games, a casual one, and one being played."""
    quiet_notify(monkeypatch)  # nobody watches these tables live
    alice = django_user_model.objects.create_user(username="alice", password=PASSWORD)
    bob = django_user_model.objects.create_user(username="bob", password=PASSWORD)
    classic = RulePreset.objects.get(name="Classic")
    finished = [finish(table(alice, classic, [bob]), seed=n) for n in range(4)]
    finished.append(finish(table(alice, classic, [bob], rated=False), seed=7))
    playing = table(alice, classic, [bob])
    return {"alice": alice, "finished": finished, "playing": playing}


def log_in(page, username):
    page.goto("/accounts/login/")
    page.get_by_label("Username:").fill(username)
    page.get_by_label("Password:").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url("**/")


def test_the_profile_shows_the_rating_chart(new_page, played):
    page = new_page(DESKTOP)
    log_in(page, "alice")
    page.goto("/accounts/u/alice/")
    chart = page.locator("svg.rating-chart")
    expect(chart).to_have_count(1)
    expect(chart).to_be_visible()
    assert chart.bounding_box()["width"] > 300
    assert len(chart.locator("polyline").get_attribute("points").split()) == 5
    expect(page.locator(".rating").first).to_contain_text("?")  # a few games: provisional
    expect(page.get_by_role("link", name="Replay")).to_have_count(5)
    shoot(page, "profile-desktop", DESKTOP)
    phone = new_page(SIZES["phone"], is_mobile=True, has_touch=True)
    log_in(phone, "alice")
    phone.goto("/accounts/u/alice/")
    expect(phone.locator("svg.rating-chart")).to_be_visible()
    # The replay links fit on the screen: no scrolling the results sideways to find them.
    edges = phone.locator("table.recent a").evaluate_all("links => links.map(a => a.getBoundingClientRect().right)")
    assert len(edges) == 5 and max(edges) <= SIZES["phone"]["width"], edges
    shoot(phone, "profile-phone", SIZES["phone"])  # and nothing sticks out sideways
    # In the lobby a provisional "?" beside a name is said in words too (no hover on a phone)
    create_game(played["alice"], RulePreset.objects.get(name="Classic"), players=2)
    phone.goto("/")
    expect(phone.locator("#open-games .rating.provisional")).to_have_count(1)
    key = phone.get_by_text("A question mark after a rating means it is still provisional.")
    expect(key).to_be_visible()
    shoot(phone, "lobby-provisional-phone", SIZES["phone"])
    Rating.objects.filter(player=played["alice"]).update(sigma=3.0)  # settled: no "?"
    phone.reload()
    expect(phone.locator("#open-games .rating")).to_contain_text("±")
    expect(key).to_be_hidden()
    page.goto("/leaderboards/")
    expect(page.locator("table.leaderboard:not(.bots)")).to_contain_text("alice")


def test_the_replay_steps_with_the_arrow_keys(new_page, played):
    game = played["finished"][0]
    page = new_page(DESKTOP)
    page.goto(f"/games/{game.pk}/replay/?move=2")
    expect(page.locator(".replay-steps .step")).to_contain_text("Move 2 of")
    page.keyboard.press("ArrowRight")
    page.wait_for_url(re.compile(r"move=3$"))
    expect(page.locator(".replay-steps .step")).to_contain_text("Move 3 of")
    page.keyboard.press("ArrowLeft")
    page.wait_for_url(re.compile(r"move=2$"))
    page.keyboard.press("End")
    page.wait_for_url(re.compile(rf"move={len(replay.moves_of(game))}$"))
    expect(page.locator(".replay-move")).to_contain_text(re.compile("is the durak|is drawn"))
    expect(page.locator("a[rel=next]")).to_have_count(0)
    for number in range(1, 30):  # a move with cards on the table, for the screenshot
        page.goto(f"/games/{game.pk}/replay/?move={number}")
        if page.locator(".pairs .card").count():
            break
    expect(page.locator(".pairs .card").first).to_be_visible()
    shoot(page, "replay-desktop", DESKTOP)
    expect(page.get_by_text("Step through the moves with the arrow keys.")).to_be_visible()
    phone = new_page(SIZES["phone"], is_mobile=True, has_touch=True)
    phone.goto(page.url.replace(page.url.split("/games/")[0], ""))
    # A phone has no arrow keys: it is not told of them.
    expect(phone.get_by_text("Step through the moves with the arrow keys.")).to_be_hidden()
    expect(phone.get_by_text("The game is over, so every hand is shown.")).to_be_visible()
    shoot(phone, "replay-phone", SIZES["phone"])


# ------------------------------------------------------------------------------ languages
def vocabulary(lang: str) -> tuple[set[str], set[str]]:
    """(English words of the catalogue's msgids, the words of its translations)."""
    english, native = set(), set()
    for entry in polib.pofile(str(ROOT / f"locale/{lang}/LC_MESSAGES/django.po")):
        for text in (entry.msgid, entry.msgid_plural or ""):
            english |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}
        for text in [entry.msgstr, *entry.msgstr_plural.values()]:
            native |= {w.lower() for w in WORD.findall(PLACEHOLDER.sub(" ", text))}
    return english, native


def english_left(page, lang: str, data: set[str]) -> set[str]:
    """English words on the page (the language switcher, which names each language in
    its own, and seeds and seals in <code>, hex where "be" may stand, left out; `data`:
    names people chose, not words of the site)."""
    text = page.evaluate("""() => {
        const body = document.body.cloneNode(true);
        body.querySelectorAll('.languages, code').forEach(e => e.remove());
        return body.innerText;
    }""")
    english, native = vocabulary(lang)
    words = {w.lower() for w in WORD.findall(text)} - data
    return {w for w in words if w in english and w not in native}


def test_no_english_word_is_left_in_finnish_norwegian_or_russian(new_page, played):
    # Data, not the site's words: the players' names. (The seeded presets' names and
    # descriptions are translated like the site's words.)
    data = {"alice", "bob"}
    finished, playing = played["finished"][0], played["playing"]
    pages = {"lobby": "/", "table": f"/games/{playing.pk}/",
             "result": f"/games/{finished.pk}/", "profile": "/accounts/u/alice/",
             "replay": f"/games/{finished.pk}/replay/?move=3"}
    page = new_page(DESKTOP)
    log_in(page, "alice")
    english = {name: english_left((page.goto(url), page)[1], "fi", data)
               for name, url in pages.items()}
    assert english["lobby"] and english["profile"]  # in English the check finds English
    for lang in ("fi", "nb", "ru"):
        page.goto("/")
        page.locator(f'.languages button[value="{lang}"]').click()
        expect(page.locator("html")).to_have_attribute("lang", lang)
        for name, url in pages.items():
            page.goto(url)
            assert english_left(page, lang, data) == set(), f"{lang} {name}"
        if lang == "ru":
            page.goto(pages["profile"])
            expect(page.locator("h2#ratings-title")).to_have_text("Рейтинг")
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 5


def test_a_review_asked_for_appears_by_itself(new_page, played):
    """The Celery worker reviews the game while the player looks at the same move."""
    page = new_page(DESKTOP)
    log_in(page, "alice")
    game = played["finished"][0]
    page.goto(f"/games/{game.pk}/replay/?move=5")
    page.get_by_role("button", name="Ask the coach for a review").click()
    page.wait_for_url(re.compile(r"move=5#review$"))
    review = page.locator("#review")
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    expect(review.locator(".marks, p").filter(
        has_text=re.compile("chose to|found no move"))).to_be_visible(timeout=90_000)
    assert navigations == []  # no reload: the section swapped itself in
    expect(page.locator(".replay-steps .step")).to_contain_text("Move 5 of")
