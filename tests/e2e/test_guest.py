"""A guest from a link (docs/design.md, "Guests from a link"): a player makes a private
table (casual as the form comes) and copies its link; a fresh browser with no account
opens it, plays as a guest and makes a first move in under 30 seconds; then claims the
account and finds the game in "My games"."""

import random
import re
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import PASSWORD, choose_and_play, create_game, sign_up, watch

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

FIRST_MOVE_WITHIN = 30.0  # seconds from opening the link (the promise)


def test_a_friend_plays_as_a_guest_from_the_link_then_claims_the_account(
        new_page, short_preset):
    anna = watch(new_page(), "anna")
    sign_up(anna.page, "anna")
    # Private, the rating left as the form comes: casual, open to a guest.
    game_id = create_game(anna.page, preset=short_preset, players=2, private=True, rated=None)
    expect(anna.page.locator(".waiting")).to_contain_text("This game is casual")
    invite = anna.page.locator("#invite-link").input_value()

    granny = watch(new_page(), "Granny")  # a fresh browser context: no account, no cookie
    page = granny.page
    started = time.monotonic()
    page.goto(invite)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "guest-waiting-room.png", animations="disabled")
    page.get_by_label("Play as a guest: your name").fill("Granny")
    page.get_by_role("button", name="Play as a guest").click()
    page.wait_for_url(re.compile(rf"/games/{game_id}/$"))
    expect(page.locator("#table fieldset.hand .card")).to_have_count(6)

    # The deal decides who leads (R5): anna moves first if it is hers.
    rng = random.Random(40)
    deadline = time.monotonic() + FIRST_MOVE_WITHIN
    while not granny.state()["mine"]:
        assert time.monotonic() < deadline, "the guest's turn never came"
        if anna.state()["mine"]:
            choose_and_play(anna, rng)
        else:
            page.wait_for_timeout(50)
    move = choose_and_play(granny, rng)
    seconds = time.monotonic() - started
    print(f"\nfrom the invite link to the guest's first move ({move.kind}): {seconds:.1f} s")
    assert seconds < FIRST_MOVE_WITHIN
    page.screenshot(path=SCREENSHOTS / "guest-first-move.png", animations="disabled")

    # The claim: a username (their guest name, suggested), an email address, a password.
    page.goto("/accounts/claim/")
    expect(page.get_by_label("Username")).to_have_value("Granny")
    page.get_by_label("Email").fill("granny@example.org")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Claim the account").click()
    page.wait_for_url("**/games/mine/")
    expect(page.locator(".messages")).to_contain_text("log in as Granny")
    expect(page.locator(f'a[href="/games/{game_id}/"]').first).to_be_visible()
    page.screenshot(path=SCREENSHOTS / "guest-claimed-my-games.png", animations="disabled")

    # A player like any other now: their password logs them in from another browser.
    other = new_page()
    other.goto("/accounts/login/")
    other.get_by_label("Username:").fill("Granny")
    other.get_by_label("Password:").fill(PASSWORD)
    other.get_by_role("button", name="Log in").click()
    other.wait_for_url("**/")
    other.goto("/games/mine/")
    expect(other.locator(f'a[href="/games/{game_id}/"]').first).to_be_visible()
