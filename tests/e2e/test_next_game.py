"""At a table waiting for someone else, "Next game waiting (N)" appears with the count of
games waiting for your move (the navigation's socket) and leads to the one with the least
time left."""

from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games import services
from games.engine import Attack
from games.models import Game, RulePreset
from tests.e2e.helpers import PASSWORD, log_in, on_another_device, quiet_notify, wait_state

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_next_game_waiting_leads_to_the_least_time_left(live, new_page, django_user_model,
                                                        monkeypatch):
    quiet_notify(monkeypatch)
    alice = django_user_model.objects.create_user("alice", "alice@example.org", PASSWORD)
    bob = django_user_model.objects.create_user("bob", "bob@example.org", PASSWORD)
    classic = RulePreset.objects.get(name="Classic")

    # Tables as dealt: who is to move is the deal's (the lowest trump leads), so deal until
    # there is one where alice is to move and two where bob is.
    to_move = {alice.pk: [], bob.pk: []}
    for _ in range(30):
        if to_move[alice.pk] and len(to_move[bob.pk]) >= 2:
            break
        made = services.create_game(alice, classic, players=2, move_time=timedelta(days=3))
        services.join_game(made.pk, bob)
        made.refresh_from_db()
        to_move[made.seats.get(number=made.turn_seat).player_id].append(made)
    here, later, sooner = to_move[alice.pk][0], to_move[bob.pk][0], to_move[bob.pk][1]
    for made, hours in ((here, 5), (later, 40), (sooner, 10)):
        Game.objects.filter(pk=made.pk).update(deadline=timezone.now() + timedelta(hours=hours))
    bob_page = log_in(new_page, "bob")
    page = bob_page.page
    page.goto(f"/games/{here.pk}/")
    button = page.locator("#next-game")
    waiting = len(to_move[bob.pk])
    expect(button).to_have_text(f"Next game waiting ({waiting})")
    button.click()
    # The least time left: sooner, unless another waiting table was dealt (3 days left).
    page.wait_for_url(f"**/games/{sooner.pk}/")
    expect(page.locator("#next-game")).to_be_hidden()  # this one waits for bob
    assert later.pk != sooner.pk
    # bob moves on another device: the navigation's socket is told, and the table hears of
    # it by its poll, which swaps the whole table in without its "your turn" mark. htmx sets
    # a swapped element's new attributes a beat after the swap: the button for the game
    # still waiting appears all the same.
    wait_state(bob_page, "(s) => s.mine")
    sooner.refresh_from_db()
    deal = sooner.match().deal
    seat = sooner.turn_seat
    lead = next(a for a in deal.legal_actions(seat) if isinstance(a, Attack))
    on_another_device(monkeypatch, services.play, sooner.pk, bob, [lead.token()], sooner.version)
    page.evaluate("""() => htmx.ajax('GET', location.pathname + '?since='
        + document.getElementById('table').dataset.version, {target: '#table', swap: 'outerHTML'})""")
    wait_state(bob_page, "(s) => !s.mine")
    expect(page.locator("#next-game")).to_be_visible()
    expect(page.locator("#next-game")).to_have_text(f"Next game waiting ({waiting - 1})")
