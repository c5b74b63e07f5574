"""Cards move on the table (static/js/motion.js): a card played glides from the hand onto
the table, cards of a finished bout fly to the discard pile and a card drawn comes from the
talon; with prefers-reduced-motion nothing moves. The sounds (static/js/sound.js): tones
for your turn, a take and the end when the switch is on, none when it is off. Dealt from the stacked deck of
test_choosing_cards (hearts are trump)."""

import pytest
from playwright.sync_api import expect

from games import services
from games.models import RulePreset
from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import PASSWORD, open_table, send_move, wait_state
from tests.e2e.test_choosing_cards import log_in, stacked_game
from tests.e2e.test_screenshots import SIZES, shoot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# After each table swapped in, note what motion.js started (its animations carry the id
# "motion") and the story it told; with `freeze`, stop the flights half way for a picture.
WATCH_JS = """() => {
  window.stories = [];
  document.addEventListener('durak:story', (event) => {
    const flights = document.getAnimations().filter((a) => a.id === 'motion');
    window.stories.push(Object.assign({}, event.detail, {
      flights: flights.length,
      ghosts: [...document.querySelectorAll('.flight-ghost')].filter((g) => {
        const r = g.getBoundingClientRect();  // drawn on the screen, where the card was
        return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight;
      }).length,
      cards: flights.map((a) => a.effect.target.dataset.card).filter(Boolean)}));
    if (window.freeze) flights.forEach((a) => { a.pause(); a.currentTime = 180; });
  });
}"""

# Opens the table's own answer to "what is new?" (as its 20-second check does, over HTTP).
REFRESH_JS = """(url) => htmx.ajax('GET', url, {target: '#table', swap: 'outerHTML'})"""


def hand(page, code):
    return page.locator(f"#move fieldset.hand .pick:has([data-card='{code}'])")


def stories(page):
    return page.evaluate("() => window.stories")


def olga_leads(new_page, django_user_model, monkeypatch, **options):
    """Olga leads the 7♠ to pia, whose page is open on her turn and watched (WATCH_JS).
    Returns (olga, game, person)."""
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    pia, person = log_in(new_page, django_user_model, "pia", **options)
    game = stacked_game(monkeypatch, olga, pia, RulePreset.objects.get(name="Classic"))
    game = services.play(game.pk, olga, ["attack:7S"], game.version)
    open_table(person, game.pk, "(s) => s.mine")
    person.page.evaluate(WATCH_JS)
    return olga, game, person


def beat_the_lead(new_page, django_user_model, monkeypatch, **options):
    """Olga leads the 7♠ to pia, whose page is open on her turn; pia has tapped the 9♠
    (it beats only the 7♠: the tap plays it). Returns (olga, game, person)."""
    olga, game, person = olga_leads(new_page, django_user_model, monkeypatch, **options)
    page = person.page
    version = person.version
    answer = send_move(person, lambda: hand(page, "9S").click())
    assert not answer["message"], answer["message"]
    state = wait_state(person, "(s, v) => s.version > v", version)
    assert state["table"] == ["7S", "9S"]
    return olga, game, person


def test_a_card_played_glides_onto_the_table_and_a_finished_bout_flies_to_the_discard(
        new_page, django_user_model, monkeypatch):
    page_options = {"viewport": SIZES["phone"], "is_mobile": True, "has_touch": True}
    olga, game, person = olga_leads(new_page, django_user_model, monkeypatch, **page_options)
    page = person.page
    page.evaluate("() => { window.freeze = true; }")
    assert page.evaluate("() => document.documentElement.classList.contains('motion')")

    # The 9♠ glides from the hand onto the 7♠: stopped half way, it is between the two.
    start = hand(page, "9S").bounding_box()
    version = person.version
    send_move(person, lambda: hand(page, "9S").click())
    wait_state(person, "(s, v) => s.version > v", version)
    told = stories(page)[-1]
    assert told["flights"] >= 1 and not told["take"], told
    card = page.locator("#table .pairs .card.defence[data-card='9S']")
    flying = card.bounding_box()
    page.screenshot(path=SCREENSHOTS / "motion-mid-flight-phone.png")
    page.evaluate("() => document.getAnimations().forEach((a) => a.id === 'motion' && a.play())")
    page.wait_for_function("() => !document.getAnimations().some((a) => a.id === 'motion')")
    home = card.bounding_box()
    assert home["y"] < flying["y"] < start["y"], (start, flying, home)
    shoot(page, "motion-after-phone", SIZES["phone"])

    # Olga passes: the bout goes to the discard pile, and each draws a card from the talon
    # (pia the 8♠). The table's own check brings it, over HTTP.
    services.play(game.pk, olga, ["pass"], person.version)
    version = person.version
    page.evaluate(REFRESH_JS, f"/games/{game.pk}/")
    state = wait_state(person, "(s, v) => s.version > v", version)
    assert state["table"] == [] and "8S" in state["hand"]
    told = stories(page)[-1]
    assert told["discarded"] and not told["take"], told
    assert told["ghosts"] == 2, told  # the 7♠ and the 9♠ on their way to the pile
    assert "8S" in told["cards"], told  # from the talon into pia's hand
    page.screenshot(path=SCREENSHOTS / "motion-to-the-discard-mid-flight-phone.png")
    page.evaluate("() => document.getAnimations().forEach((a) => a.id === 'motion' && a.play())")
    page.wait_for_function("() => !document.querySelector('.flight-ghost')")
    assert page.evaluate("() => Number(document.documentElement.dataset.flights)") >= 5


def test_nothing_moves_with_reduced_motion(new_page, django_user_model, monkeypatch):
    _olga, _game, person = beat_the_lead(new_page, django_user_model, monkeypatch,
                                         viewport=SIZES["desktop"], reduced_motion="reduce")
    page = person.page
    told = stories(page)[-1]  # the story is told (for the sounds), with no flight
    assert told["flights"] == 0 and told["ghosts"] == 0, told
    assert page.evaluate("() => document.getAnimations().filter((a) => a.id === 'motion').length") == 0
    assert page.evaluate("() => document.documentElement.dataset.flights") is None
    assert not page.evaluate("() => document.documentElement.classList.contains('motion')")
    shoot(page, "motion-reduced-desktop", SIZES["desktop"])


# Every tone the page starts: the frequency of each oscillator started.
TONES_JS = """(() => {
  window.tones = [];
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function () {
    const osc = make.call(this), start = osc.start.bind(osc);
    osc.start = (...args) => { window.tones.push(osc.frequency.value); return start(...args); };
    return osc;
  };
})();"""


def test_tones_sound_for_my_turn_a_take_and_the_end_when_the_switch_is_on(
        new_page, django_user_model, monkeypatch):
    olga = django_user_model.objects.create_user(username="olga", password=PASSWORD)
    _pia, person = log_in(new_page, django_user_model, "pia")
    page = person.page
    page.add_init_script(TONES_JS)
    game = stacked_game(monkeypatch, olga, _pia, RulePreset.objects.get(name="Classic"))
    open_table(person, game.pk, "(s) => !s.mine")

    # Off: olga leads, it becomes pia's turn, and nothing sounds.
    toggle = page.get_by_role("button", name="Sounds")
    expect(toggle).to_have_attribute("aria-pressed", "false")
    game = services.play(game.pk, olga, ["attack:7S"], game.version)
    page.evaluate(REFRESH_JS, f"/games/{game.pk}/")
    wait_state(person, "(s) => s.mine")
    assert page.evaluate("() => window.tones") == []

    # On: the switch plays a sample, is remembered after a reload, and pia's next turn sounds.
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => window.tones") == [660, 880]
    page.reload()
    wait_state(person, "(s) => s.mine")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert page.evaluate("() => localStorage.getItem('durak-sound')") == "on"
    page.locator("body").click(position={"x": 5, "y": 5})  # a touch lets the page sound
    version = person.version
    send_move(person, lambda: hand(page, "9S").click())
    wait_state(person, "(s, v) => s.version > v && !s.mine", version)
    assert page.evaluate("() => window.tones") == []
    page.evaluate(WATCH_JS)
    game = services.play(game.pk, olga, ["attack:7C", "pass"], person.version)
    page.evaluate(REFRESH_JS, f"/games/{game.pk}/")
    wait_state(person, "(s) => s.mine")
    page.wait_for_function("() => window.tones.length === 2")
    assert page.evaluate("() => window.tones") == [660, 880]
    told = stories(page)[-1]  # olga's 7♣ came from her seat
    assert told["player"] == "0" and "7C" in told["cards"], told

    # Pia takes; once olga adds nothing, the three cards glide into pia's hand, with the
    # take's tone (and no turn's: olga leads again).
    page.evaluate("() => { window.tones = []; }")
    version = person.version
    send_move(person, page.get_by_role("button", name="Take the cards").click)
    state = wait_state(person, "(s, v) => s.version > v", version)
    if state["table"]:
        services.play(game.pk, olga, ["pass"], state["version"])
        page.evaluate(REFRESH_JS, f"/games/{game.pk}/")
        state = wait_state(person, "(s) => s.table.length === 0")
    assert {"7S", "9S", "7C"} <= set(state["hand"])
    told = stories(page)[-1]
    assert told["take"] and {"7S", "9S", "7C"} <= set(told["cards"]), told
    page.wait_for_function("() => window.tones.length === 2")
    assert page.evaluate("() => window.tones") == [392, 294]

    # Olga resigns: the match is over, and its three rising tones sound.
    page.evaluate("() => { window.tones = []; }")
    services.resign(game.pk, olga)
    page.evaluate(REFRESH_JS, f"/games/{game.pk}/")
    wait_state(person, "(s) => s.over")
    page.wait_for_function("() => window.tones.length === 3")
    assert page.evaluate("() => window.tones") == [523, 659, 784]
    assert stories(page)[-1]["ended"]
