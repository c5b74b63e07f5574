"""Two people sign up, one opens a private table, the other joins by its invite link, and
they play a whole deal by clicking; each sees the other's moves arrive live."""

import random

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    choose_and_play,
    create_game,
    finish_line,
    sign_up,
    wait_state,
    wait_version_above,
    wait_ws_version,
    watch,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True), pytest.mark.service_worker]

MAX_MOVES = 400  # a two-player deal of 24 cards takes far fewer


def test_it_plays_a_private_deal_between_two_people_live(new_page, short_preset):
    anna = watch(new_page(), "anna")
    boris = watch(new_page(), "boris")
    sign_up(anna.page, "anna")
    sign_up(boris.page, "boris")

    game_id = create_game(anna.page, preset=short_preset, players=2, bots=0, private=True)
    expect(anna.page.locator("#table .meta")).to_contain_text("private")
    expect(anna.page.locator(".seat-list")).to_contain_text("empty seat")
    invite = anna.page.locator("#invite-link").input_value()
    assert f"/games/{game_id}/?invite=" in invite

    # Without the link the private table is not there for boris.
    response = boris.page.goto(f"/games/{game_id}/")
    assert response.status == 404

    boris.page.goto(invite)
    expect(boris.page.locator(".seat-list")).to_contain_text("anna")
    waiting_version = anna.version
    anna_navigations = len(anna.navigations)
    boris.page.get_by_role("button", name="Take a seat").click()

    # The table is full, so the deal starts: anna's waiting room turns into the table
    # without a reload.
    started = wait_version_above(anna, waiting_version)
    wait_ws_version(anna, started["version"])
    assert len(anna.navigations) == anna_navigations
    for person in (anna, boris):
        expect(person.page.locator("#table .seats")).to_contain_text("anna")
        expect(person.page.locator("#table .seats")).to_contain_text("boris")
        expect(person.page.locator("#table fieldset.hand .card")).to_have_count(6)

    people = [anna, boris]
    navigations = {p.username: len(p.navigations) for p in people}
    rng = random.Random(20240601)
    kinds = []
    for _ in range(MAX_MOVES):
        states = [p.state() for p in people]
        if all(s["over"] for s in states):
            break
        assert len({s["version"] for s in states}) == 1, states
        movers = [p for p, s in zip(people, states) if s["mine"]]
        assert len(movers) == 1, [s["turn"] for s in states]
        mover = movers[0]
        other = people[1 - people.index(mover)]
        move = choose_and_play(mover, rng)
        kinds.append(move.kind)
        # The other person sees the move arrive over the WebSocket, without reloading.
        seen = wait_state(other, "(s, v) => s.version >= v", move.after)
        wait_ws_version(other, move.after)
        assert seen["version"] == move.after
        assert seen["log"] == mover.state()["log"], "both see the same account of the deal"
        assert seen["table"] == mover.state()["table"], "both see the same cards on the table"
    else:
        pytest.fail(f"no end after {MAX_MOVES} moves")

    assert {p.username: len(p.navigations) for p in people} == navigations, (
        "the pages were never reloaded during the deal")
    # With the socket open, the moves went over it, not as requests of their own. On a
    # loaded machine a socket may drop and come back, and a move in that gap goes over
    # HTTP (the page's fallback), or its frame may be reported late: two at most.
    sent = sum(len(p.moves_sent) for p in people)
    posted = sum(len(p.move_posts) for p in people)
    assert sent >= len(kinds) - 2 and sent + posted <= len(kinds) and posted <= 2, (
        sent, posted, len(kinds))
    assert "attack" in kinds and ("beat" in kinds or "take" in kinds)

    # The end: both see who lost (the durak) or the draw, the same way.
    finals = [p.state() for p in people]
    line = finish_line(finals[0])
    assert line == finish_line(finals[1])
    for person in people:
        expect(person.page.locator("#table .turn")).to_contain_text("Game over.")
        assert not person.page.locator("#table fieldset.hand input").count()
        assert not person.page.get_by_role("button", name="Take the cards").count()
    tally = anna.page.locator("#table .final-tally tbody tr")  # the result panel
    expect(tally).to_have_count(2)
    losses = {tally.nth(i).locator("td").nth(0).inner_text(): tally.nth(i).locator("td").nth(1)
              .inner_text() for i in range(2)}
    if line.endswith("is the durak!"):
        durak = line.removesuffix(" is the durak!")
        assert durak in ("anna", "boris")
        assert losses[durak] == "1" and list(losses.values()).count("0") == 1
        expect(anna.page.locator("#table .turn")).to_contain_text(f"The durak: {durak}")
    else:
        assert set(losses.values()) == {"0"}
        expect(anna.page.locator("#table .turn")).to_contain_text("The deal was drawn.")
