"""Things once broken, checked in the browser: an invite survives log-in and sign-up, a
double click makes one table, an unknown game gets the friendly 404, every page's
favicon loads."""

import re

import pytest
from playwright.sync_api import expect

from games.models import Game
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import PASSWORD, TABLE_URL, create_game, sign_up

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def shoot(page, name):
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=True)


def private_table(new_page) -> tuple[int, str]:
    """alice makes a private table for three; returns its id and the invite link she copies
    (a friend who joins leaves it waiting for the third player)."""
    alice = new_page()
    sign_up(alice, "alice")
    game_id = create_game(alice, players=3, bots=0, private=True)
    link = alice.locator("#invite-link").input_value()
    assert "invite=" in link
    return game_id, link


def take_the_seat(page, game_id, username):
    page.get_by_role("button", name="Take a seat").click()
    expect(page.locator("#table")).to_contain_text(f"{username} (you)")
    assert Game.objects.get(pk=game_id).seats.filter(player__username=username).exists()


@pytest.mark.parametrize("way", ["log in", "sign up"])
def test_invite_survives_log_in_and_sign_up(new_page, django_user_model, way):
    game_id, link = private_table(new_page)
    friend = new_page()
    friend.goto(link)
    expect(friend.get_by_role("heading", level=1)).to_be_visible()
    header = friend.locator(".site-header")
    if way == "log in":
        django_user_model.objects.create_user("boris", password=PASSWORD)
        header.get_by_role("link", name="Log in").click()
        friend.get_by_label("Username").fill("boris")
        friend.get_by_label("Password").fill(PASSWORD)
        friend.get_by_role("button", name="Log in").click()
    else:
        header.get_by_role("link", name="Sign up").click()
        friend.get_by_label("Username").fill("boris")
        friend.get_by_label("Password:", exact=True).fill(PASSWORD)
        friend.get_by_label("Password confirmation").fill(PASSWORD)
        friend.get_by_role("button", name="Create account").click()
    friend.wait_for_url(link)  # the table with its invite, not the lobby
    expect(friend.locator(".site-header")).to_contain_text("boris")
    take_the_seat(friend, game_id, "boris")
    shoot(friend, f"invite-after-{way.replace(' ', '-')}")


def test_double_click_makes_one_table(new_page):
    page = new_page()
    sign_up(page, "dora")
    page.goto("/")
    form = page.locator("#create-game")
    form.get_by_label("Computer players:", exact=True).select_option("0")  # it stays open
    posts = []
    page.on("request", lambda r: r.method == "POST" and r.url.endswith("/games/new/")
            and posts.append(r.url))
    form.get_by_role("button", name="Make the table").dblclick()
    page.wait_for_url(TABLE_URL)
    page.wait_for_selector("#table")
    page.wait_for_timeout(1500)  # room for a second request, were one sent
    games = list(Game.objects.filter(created_by__username="dora").values_list("pk", flat=True))
    assert len(games) == 1, f"{len(games)} tables from one double click ({len(posts)} posts)"
    assert TABLE_URL.search(page.url).group(1) == str(games[0])


def test_a_second_click_on_a_plain_form_sends_nothing(new_page):
    page = new_page()
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("emil")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    held = []  # the server's answer waits until both clicks are done
    page.route("**/accounts/signup/", lambda route: held.append(route)
               if route.request.method == "POST" else route.continue_())
    # Two clicks 0.3 s apart while the answer is held (clicked in the page: Playwright's
    # own click would wait for the held navigation).
    page.get_by_role("button", name="Create account").evaluate(
        "b => { b.click(); setTimeout(() => b.click(), 300); }")
    page.wait_for_timeout(1000)
    assert len(held) == 1, f"{len(held)} sign-ups sent"
    for route in held:
        route.continue_()
    page.wait_for_url(re.compile(r"/$"))
    expect(page.locator(".messages")).to_contain_text("Welcome, emil!")


def test_error_page_for_an_unknown_game_is_friendly(new_page):
    page = new_page()
    answer = page.goto("/games/987654/")
    assert answer.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("This page is not on the table")
    body = page.locator("body").inner_text()
    assert "URLconf" not in body and "games/<int:game_id>/" not in body
    # The site's look: its header, its stylesheet applied, a way back.
    header = page.locator(".site-header")
    expect(header).to_be_visible()
    expect(header).to_have_css("background-color", "rgb(31, 95, 63)")
    expect(page.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    shoot(page, "error-404")


def test_favicon_on_every_page(new_page):
    page = new_page()
    pages = ["/", "/accounts/login/", "/accounts/signup/", "/accounts/password_reset/",
             "/games/987654/"]
    sign_up(page, "fiona")
    game_id = create_game(page, players=2, bots=0)
    pages += ["/games/mine/", "/accounts/profile/", "/accounts/u/fiona/", f"/games/{game_id}/"]
    for path in pages:
        page.goto(path)
        icon = page.locator("link[rel=icon]")
        expect(icon).to_have_count(1)
        href = icon.get_attribute("href")
        answer = page.request.get(href)
        assert answer.status == 200, f"{path}: favicon {href} answers {answer.status}"
        assert answer.headers["content-type"].startswith("image/svg+xml")
        assert b"<svg" in answer.body()
    assert page.request.get("/favicon.ico").status == 200  # for browsers that ask anyway
    # For a person to look at: the icon large, and as small as in a browser's tab.
    page.set_content(f'<img src="{live_url(page)}{href}" width="192">'
                     f'<img src="{live_url(page)}{href}" width="16">')
    expect(page.locator("img").first).to_have_js_property("complete", True)
    page.set_viewport_size({"width": 240, "height": 200})
    shoot(page, "favicon")


def live_url(page) -> str:
    return re.match(r"https?://[^/]+", page.url).group(0)
