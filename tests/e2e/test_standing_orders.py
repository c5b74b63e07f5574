"""Standing orders in the browser: a player ticks "Take automatically when I cannot beat"
at the table, and when the opponent leads a card they cannot beat the site takes for them
(the real Celery worker plays it, as a bot's move) while they do nothing; their log says
it was their order, the opponent's page shows an ordinary take and no trace of the order.
Every seat's clock shows too: the seat to move counts down as a bar."""

from datetime import timedelta

import pytest
from playwright.sync_api import expect

from games import services
from games.models import Move, RulePreset, Seat
from tests.e2e import helpers
from tests.e2e.helpers import PASSWORD, open_table, quiet_notify, send_move, wait_state
from tests.e2e.test_screenshots import SIZES, shoot
from tests.stacking import stack_new_matches

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# olga (seat 0) holds 7S 7C 7D QS QC QD and leads; pia (seat 1) holds 9S 9C 9D JS JC JD;
# hearts are trump: pia beats a seven, never a queen.
DECK = ["7S", "9S", "7C", "9C", "7D", "9D", "QS", "JS", "QC", "JC", "QD", "JD", "6H"]


def hand(page, code):
    return page.locator(f"#move fieldset.hand .pick:has([data-card='{code}'])")


def test_a_take_order_takes_on_the_players_turn_and_only_they_see_it(
        new_page, django_user_model, monkeypatch):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia = django_user_model.objects.create_user(username="pia", password=PASSWORD)
    stack_new_matches(monkeypatch, DECK, seed="e2e-orders")
    quiet_notify(monkeypatch)  # made here, before the pages open
    game = services.create_game(olga, RulePreset.objects.get(name="Classic"), players=2,
                                deals=1, move_time=timedelta(days=3))
    game = services.join_game(game.pk, pia)

    pia_p = helpers.log_in(new_page, "pia")
    olga_p = helpers.log_in(new_page, "olga", viewport=SIZES["phone"], is_mobile=True,
                            has_touch=True)
    open_table(pia_p, game.pk)
    state = open_table(olga_p, game.pk, "(s) => s.mine")

    # pia ticks her order; the box stays ticked and the site says it is saved.
    orders = pia_p.page.locator("#orders")
    orders.get_by_label("Take automatically when I cannot beat").check()
    expect(pia_p.page.locator("#orders [role=status]")).to_have_text("Saved.")
    expect(pia_p.page.locator("#orders input[name=auto_take]")).to_be_checked()
    assert Seat.objects.get(game=game, number=1).auto_take
    # The seat to move (olga) counts down as a bar on pia's page: three days a move.
    bar = pia_p.page.locator("#table .seat.to-act meter.time-bar")
    expect(bar).to_have_attribute("max", "259200")
    shoot(pia_p.page, "standing-orders-desktop", SIZES["desktop"])

    # olga leads the Q♠, which nothing of pia's beats: the site takes for pia at once.
    answer = send_move(olga_p, lambda: hand(olga_p.page, "QS").click())
    assert not answer["message"], answer["message"]
    wait_state(pia_p, "(s, v) => s.version >= v + 2", state["version"])
    expect(pia_p.page.locator("#table .last-move")).to_contain_text(
        "pia takes. (your standing order)")
    expect(pia_p.page.locator("#table .log")).to_contain_text("pia takes. (your standing order)")
    move = Move.objects.filter(game=game).order_by("-seq").first()
    assert (move.kind, move.seat, move.actions) == (Move.Kind.ORDER, 1, ["take"])

    # olga's page: an ordinary take, and her turn to throw in more (R15); no trace of
    # pia's order, whose own form is olga's alone and unticked.
    olga_state = wait_state(olga_p, "(s) => s.mine && s.log.some(l => l === 'pia takes.')")
    assert olga_state["version"] == state["version"] + 2
    expect(olga_p.page.locator("#table .last-move")).to_contain_text("pia takes.")
    html = olga_p.page.content()
    assert "standing order)" not in html and 'name="seat" value="1"' not in html
    expect(olga_p.page.locator("#orders input[name=auto_take]")).not_to_be_checked()
    expect(olga_p.page.locator("#table .seat.me meter.time-bar")).to_be_visible()
    olga_p.page.locator("#orders").scroll_into_view_if_needed()
    shoot(olga_p.page, "standing-orders-phone", SIZES["phone"])


def test_every_seat_shows_its_time_in_a_bank_game(new_page, django_user_model, monkeypatch):
    from django.utils import timezone

    from games.models import Game

    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia = django_user_model.objects.create_user(username="pia", password=PASSWORD)
    stack_new_matches(monkeypatch, DECK, seed="e2e-bank")
    quiet_notify(monkeypatch)
    game = services.create_game(olga, RulePreset.objects.get(name="Classic"), players=2,
                                deals=1, time_control="bank", bank_time=timedelta(days=3),
                                increment=timedelta(hours=2))
    game = services.join_game(game.pk, pia)
    game = services.play(game.pk, olga, ["attack:7S"], game.version)  # pia to move
    Seat.objects.filter(game=game, number=0).update(bank=timedelta(days=2, hours=5))
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(hours=20))

    for size in ("desktop", "phone"):
        person = helpers.log_in(new_page, "olga", viewport=SIZES[size])
        open_table(person, game.pk)
        page = person.page
        # olga waits: her bank; pia is to move: a bar (20 hours of the 3-day bank) and words.
        expect(page.locator("#table .seat.me .seat-clock.bank")).to_contain_text(
            "2 days, 5 hours in the bank")
        bar = page.locator("#table .seat.to-act meter.time-bar")
        expect(bar).to_be_visible()
        assert 71_000 < float(bar.get_attribute("value")) <= 72_000
        expect(page.locator("#table .seat.to-act .seat-clock .countdown")).to_contain_text("left")
        shoot(page, f"seat-clocks-bank-{size}", SIZES[size])
