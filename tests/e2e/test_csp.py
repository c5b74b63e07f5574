"""The Content-Security-Policy: the lobby and a live table work under it, with no
violation in the browser's console."""

import random

import pytest

from tests.e2e.helpers import (
    choose_and_play,
    create_game,
    sign_up,
    wait_my_turn_or_over,
    wait_ws_version,
    watch,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_lobby_and_a_table_run_under_the_csp_without_a_violation(new_page):
    page = new_page()
    person = watch(page, "celia")
    console = []
    page.on("console", lambda msg: console.append(msg.text))
    policies = []
    page.on("response", lambda r: r.request.resource_type == "document" and policies.append(
        r.headers.get("content-security-policy", "")))

    sign_up(page, "celia")
    game_id = create_game(page, bots=1)
    state = wait_my_turn_or_over(person)
    wait_ws_version(person, state["version"])  # the socket got through connect-src
    if state["mine"]:
        choose_and_play(person, random.Random(7))  # htmx and the table script at work
    page.goto("/")
    page.goto(f"/games/{game_id}/")
    wait_my_turn_or_over(person)

    assert policies and all("script-src 'self'" in p for p in policies), policies
    assert all("unsafe-inline" not in p.split("script-src")[1].split(";")[0] for p in policies)
    violations = [t for t in console if "Content Security Policy" in t]
    assert not violations, violations

    # The watch sees a violation when there is one: an image from elsewhere is refused.
    page.evaluate("""() => { const img = document.createElement("img");
        img.src = "https://example.invalid/x.png"; document.body.append(img); }""")
    page.wait_for_timeout(500)
    assert [t for t in console if "Content Security Policy" in t]
