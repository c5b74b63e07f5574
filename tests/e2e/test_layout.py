"""Every page a player can reach, laid out right: the lobby, tables of 2, 3, 4 and 6 players
and of 2x2, the lesson at each of its steps, the tournament pages, the profiles, the games'
history, a replay, the leaderboards and the admin's preset page, on a phone (390x844) in
each language and, in Finnish (the longest words), on a small phone (360x640) and a
desktop (1366x900).

One browser and one site for all; one page per language and screen, going from address
to address. Each page fails on: a page wider than the screen; a word broken inside itself
(its letters on two lines); text clipped by its box without an ellipsis; a row that
scrolls sideways; the table's words a player must read whole cut at all, even with an
ellipsis (the table's facts under its title, whose turn it is, "(you)" at their seat, and
the last move once the deal is over); a control of the reader's turn (a hand card to play, a beat choice, Take
or Pass) below the first screen; and, on screens 800 px high or more, the "Next game
waiting" button or the standing orders' title below it (at two, and at six with the
longest facts under the title). A table of three is also looked
at just after its menu's "Add ... as a friend": the site's notice above it keeps the hand
and the buttons on the first screen. Screenshots of the first screen go to
artifacts/screens/ for people to look at.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest

from accounts.models import Friend
from games import services
from games.engine import Attack, Deal, Defend, Match, Pass, Take, full_deck
from games.models import Game, RulePreset
from games.present.lesson import lesson
from games.services.lesson import LESSON_BOT, LESSON_SEEDS
from tests.e2e.conftest import ARTIFACTS
from tests.e2e.helpers import PASSWORD, quiet_notify
from tests.games.playout import play_out
from tests.stacking import stack_new_matches

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SCREENS = ARTIFACTS / "screens"
PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}
DESKTOP = {"width": 1366, "height": 900}
LONGEST = "fi"  # the language with the longest words
LOOKS = [*((code, PHONE) for code in ("en", "fi", "nb", "ru")), (LONGEST, SMALL),
         (LONGEST, DESKTOP)]
# Screenshots of every page in English and at the other sizes; of these in every language.
SHOT_EVERYWHERE = ("table", "lesson", "tournament")
# Names as long as players choose them, with spaces to break at only between words.
NAMES = ["Kristoffersen", "Aleksandrovna", "Johannesburg", "Vladivostokin"]

# What is wrong with the page as shown, read in one script run (a list of sentences).
LAYOUT_JS = """(size) => {
  // The screen's own size: a phone that zooms out to a wide page widens its window.
  const width = size.width, height = size.height, found = [];
  const say = (what, el) => found.push(`${what}: <${el.tagName.toLowerCase()} class="${el.className}"> `
      + JSON.stringify((el.innerText || el.textContent || '').trim().slice(0, 40)));
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 1 && r.height > 1
      && el.checkVisibility({ visibilityProperty: true }); };
  // Wider than the screen: the page scrolls sideways, or a part reaches past the edge.
  if (document.documentElement.scrollWidth > width + 1)
    found.push(`page ${document.documentElement.scrollWidth}px wide`);
  const all = [...document.body.querySelectorAll('*')];
  for (const el of all) {
    if (el.closest('.visually-hidden, [hidden], template, script, style, select, option, svg, #chat'))
      continue;
    const style = getComputedStyle(el);
    if (!shown(el)) continue;
    const box = el.getBoundingClientRect();
    if (box.right > width + 1) {
      let held = false;  // a box that scrolls or clips holds it
      for (let up = el.parentElement; up && up !== document.body; up = up.parentElement)
        if (getComputedStyle(up).overflowX !== 'visible') { held = true; break; }
      if (!held) say(`past the right edge (${Math.round(box.right)}px)`, el);
    }
    // Text clipped by its box, unless an ellipsis ends it by design.
    const clamped = style.webkitLineClamp && style.webkitLineClamp !== 'none';
    const texty = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (texty && ['hidden', 'clip'].includes(style.overflowX) && style.textOverflow !== 'ellipsis'
        && el.scrollWidth > el.clientWidth + 1)
      say(`clipped sideways (${el.scrollWidth} > ${el.clientWidth})`, el);
    if (texty && ['hidden', 'clip'].includes(style.overflowY) && !clamped
        && el.scrollHeight > el.clientHeight + 2)
      say(`clipped below (${el.scrollHeight} > ${el.clientHeight})`, el);
    // A row that hides choices behind a sideways scroll (a long "beat with" strip).
    if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1)
      say('scrolls sideways', el);
  }
  // The table's words read whole, never cut, not even by an ellipsis: its facts under the
  // title, whose turn it is, your seat's "(you)", and the last move at a deal's end.
  const ended = document.querySelector('.felt .centre[data-ended]');
  const whole = ['.table-head .meta', '.felt .turn', '.felt .seat.me .name', '.felt .seat .you',
                 ...(ended ? ['.felt .last-move'] : [])];
  for (const el of document.querySelectorAll(whole.join(', '))) {
    if (!shown(el)) continue;
    if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 2)
      say(`cut (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`, el);
  }
  // A word broken inside itself: its letters' boxes on two lines.
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    // (a seed or a seal in <code> is no word: it wraps anywhere by design)
    if (!el || el.closest('.visually-hidden, script, style, select, option, textarea, #chat, code')
        || !el.checkVisibility({ visibilityProperty: true })) continue;
    for (const m of node.textContent.matchAll(/[^\\s\\-\\u2010-\\u2015\\/·,.:;()]{3,}/g)) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0)
          .map(r => Math.round(r.top / 4)));
      if (tops.size > 1) { say(`word broken: ${JSON.stringify(m[0])}`, el); break; }
    }
  }
  // In reach on the first screen: the controls of the reader's turn, the next game, the
  // standing orders.
  const table = document.querySelector('#table');
  const below = (el) => el.getBoundingClientRect().bottom + window.scrollY > height + 1;
  if (table && table.hasAttribute('data-my-turn')) {
    const controls = table.querySelectorAll('fieldset.hand .pick, fieldset.beat .pick, '
        + '.felt .buttons:not(.tap-plays) button, form.quick button');
    for (const el of controls) if (shown(el) && below(el)) say('below the first screen', el);
  }
  // A phone's first screen (844 px high) or a desktop's; on a 640 px one the table fills it.
  if (height >= 800) {
    const next = document.querySelector('#next-game');
    if (next && shown(next) && below(next)) say('below the first screen', next);
    const orders = document.querySelector('#orders legend');
    if (orders && shown(orders) && below(orders)) say('below the first screen', orders);
  }
  return found;
}"""


def _user(django_user_model, name, **fields):
    return django_user_model.objects.create_user(username=name, password=PASSWORD, **fields)


def _stacked_game(monkeypatch, creator, preset, *, players, bots=0, others=(), deck=(),
                  **terms):
    """A game dealt so that seat 0 leads; `others` join after the creator. One deal with
    two days a move, unless `terms` say otherwise (services.create_game's)."""
    stack_new_matches(monkeypatch, list(deck), seed=f"layout-{preset}-{players}-{bots}")
    terms = {"deals": 1, "move_time": timedelta(days=2), **terms}
    game = services.create_game(creator, RulePreset.objects.get(name=preset), players=players,
                                bots=bots, bot_level="easy", **terms)
    for other in others:
        game = services.join_game(game.pk, other)
    return game


def _many_to_beat_with() -> list[str]:
    """A pack for six where seat 0 leads its lowest card and seat 1 holds the most cards
    that beat it (a long "beat with" strip)."""
    rules = RulePreset.objects.get(name="Classic").rules(6)
    best, best_count = [], -1
    for seed in range(200):
        deck = [c.code for c in full_deck(36)]
        random.Random(seed).shuffle(deck)
        deal = Deal.start(rules, deck=deck, dealer=1, opener=0)
        lead = min((a for a in deal.legal_actions(0) if isinstance(a, Attack)),
                   key=lambda a: (a.card.suit == deal.trump, a.card.rank))
        deal.apply(0, lead)
        count = sum(isinstance(a, Defend) for a in deal.legal_actions(1))
        if count > best_count:
            best, best_count = deck, count
    return best


def _learner_move(deal):
    """The lesson's advice: lead low, throw in no trump, beat cheaply, else take; pass."""
    legal = deal.legal_actions(0)
    attacks = [a for a in legal if isinstance(a, Attack)]
    cost = lambda a: (a.card.suit == deal.trump, a.card.rank)  # noqa: E731
    if attacks and not deal.table:
        return min(attacks, key=cost)
    if plain := [a for a in attacks if a.card.suit != deal.trump]:
        return min(plain, key=cost)
    if defends := [a for a in legal if isinstance(a, Defend)]:
        return min(defends, key=cost)
    return next((a for a in legal if isinstance(a, Take | Pass)), legal[0])


STEPS = {"lead-first", "lead", "throw-in", "add-to-take", "defend", "must-take",
         "wait-defence", "wait-attack", "you-take", "end"}  # games/present/lesson.py


def _lesson_steps() -> dict[str, tuple[str, list[tuple[int, str]]]]:
    """Each lesson step: a seed and the moves of its deal after which the step comes."""
    from games.bots import choose_action

    preset = RulePreset.objects.get(name="Classic")
    steps: dict[str, tuple[str, list[tuple[int, str]]]] = {}
    for bot_seed in range(20):
        seed = LESSON_SEEDS[bot_seed % len(LESSON_SEEDS)]
        deal = Match(preset.rules(2), deals=1, seed=seed).deal
        rng, moves = random.Random(bot_seed), []
        while True:
            steps.setdefault(lesson(deal.view(0), 0).step, (seed, list(moves)))
            if deal.is_over:
                break
            seat = deal.to_act
            action = (_learner_move(deal) if seat == 0
                      else choose_action(LESSON_BOT, deal.view(1), seed=rng.random()))
            deal.apply(seat, action)
            moves.append((seat, action.token()))
        if set(steps) == STEPS:
            return steps
    raise AssertionError(f"no deal brought the lesson's steps {STEPS - set(steps)}")


def _lesson_at(viewer, seed, moves) -> Game:
    game = services.create_game(viewer, RulePreset.objects.get(name="Classic"), players=2,
                                bots=[LESSON_BOT], bot_level=LESSON_BOT, deals=1, rated=False,
                                private=True, move_time=timedelta(days=2), lesson=True,
                                seed=seed)
    for seat, token in moves:
        if seat == 0:
            game = services.play(game.pk, viewer, [token], game.version)
        else:
            game = services.play_seat(game.pk, seat, [token], game.version, by_bot=True)
    return game


def _pages(monkeypatch, django_user_model) -> tuple[object, dict[str, str]]:
    """The viewer and every page to look at, by name."""
    quiet_notify(monkeypatch)
    from games import notify

    monkeypatch.setattr(notify, "tournament_changed", lambda *args, **kwargs: None)
    viewer = _user(django_user_model, NAMES[0], is_staff=True, is_superuser=True)
    others = [_user(django_user_model, name) for name in NAMES[1:]]
    pages = {"lobby": "/"}
    for players in (2, 3, 4, 6):
        game = _stacked_game(monkeypatch, viewer, "Classic", players=players,
                             bots=players - 2, others=others[:1])
        pages[f"table-{players}"] = game.get_absolute_url()
    # The table of three again, after adding the other person from its menu (the test's loop).
    pages["table-3-befriended"] = pages["table-3"]
    game = _stacked_game(monkeypatch, viewer, "Pairs 2x2", players=4, bots=3)
    pages["table-2x2"] = game.get_absolute_url()
    # Six at a table, the reader defending with many choices.
    game = _stacked_game(monkeypatch, others[0], "Classic", players=6, bots=4, others=[viewer],
                         deck=_many_to_beat_with())
    deal = game.match_in_play().deal
    lead = min((a for a in deal.legal_actions(0) if isinstance(a, Attack)),
               key=lambda a: (a.card.suit == deal.trump, a.card.rank))
    game = services.play(game.pk, others[0], [lead.token()], game.version)
    pages["table-6-defend"] = game.get_absolute_url()
    # A deal played to its end: its last move, three lines on a phone in Russian.
    game = _stacked_game(monkeypatch, viewer, "Classic", players=2, others=others[:1])
    pages["table-over"] = play_out(game, seed=0).get_absolute_url()
    # Waiting for another: "Next game waiting" and the standing orders.
    game = _stacked_game(monkeypatch, others[1], "Classic", players=2, others=[viewer])
    pages["table-2-waiting"] = game.get_absolute_url()
    # The same at six, with the longest facts under the title (a time bank, "until someone
    # loses"): two lines on a phone, and the orders' title still on the first screen.
    game = _stacked_game(monkeypatch, others[1], "Classic", players=6, bots=4, others=[viewer],
                         deals=None, loss_limit=3, time_control="bank",
                         bank_time=timedelta(days=3), increment=timedelta(days=1))
    pages["table-6-waiting"] = game.get_absolute_url()
    for step, (seed, moves) in sorted(_lesson_steps().items()):
        pages[f"lesson-{step}"] = _lesson_at(viewer, seed, moves).get_absolute_url()
    # A finished game: the history, its replay and its deal.
    game = _stacked_game(monkeypatch, viewer, "Classic", players=2, others=others[2:3])
    game = services.resign(game.pk, others[2])
    pages["history"] = "/games/mine/"
    pages["replay"] = f"/games/{game.pk}/replay/"
    pages["deal"] = f"/games/{game.pk}/deals/1/"
    # A tournament under way, a table of it finished.
    tournament = services.tournament.create_tournament(
        viewer, RulePreset.objects.get(name="Classic"), name="Perjantain pikaturnaus",
        private=True, rounds=3)
    for other in others:
        services.tournament.join_tournament(tournament.pk, other,
                                            invite_token=tournament.invite_token)
    services.tournament.start_tournament(tournament.pk, viewer)
    first = Game.objects.filter(round_table__round__tournament=tournament).order_by("pk")
    table = first.first()
    loser = table.seats.exclude(player=viewer).first().player
    services.resign(table.pk, loser)
    pages["tournaments"] = "/tournaments/"
    pages["tournament"] = f"/tournaments/{tournament.pk}/"
    pages["profile"] = "/accounts/profile/"
    pages["public-profile"] = f"/accounts/u/{others[0].username}/"
    pages["leaderboards"] = "/leaderboards/"
    pages["computer-players"] = "/leaderboards/computer/"
    preset = RulePreset.objects.get(name="Classic")
    pages["admin-preset"] = f"/admin/games/rulepreset/{preset.pk}/change/"
    return viewer, pages


def test_every_page_fits_every_screen(new_page, django_user_model, monkeypatch):
    viewer, pages = _pages(monkeypatch, django_user_model)
    SCREENS.mkdir(parents=True, exist_ok=True)
    problems = []
    for language, size in LOOKS:
        type(viewer).objects.filter(pk=viewer.pk).update(language=language)
        phone = size["width"] < 700
        page = new_page(viewport=size, is_mobile=phone, has_touch=phone)
        page.goto("/accounts/login/")
        page.locator("input[name=username]").fill(viewer.username)
        page.locator("input[name=password]").fill(PASSWORD)
        page.locator("form button[type=submit]").last.click()
        page.wait_for_url("**/")
        look = f"{language}-{size['width']}x{size['height']}"
        for name, path in pages.items():
            if name == "table-3-befriended":  # not a friend yet in this look
                Friend.objects.filter(player=viewer).delete()
            page.goto(path, wait_until="domcontentloaded")
            if name.endswith("-waiting"):  # the count comes over the page's socket
                page.wait_for_selector("#next-game:not([hidden])")
            if name == "table-3-befriended":  # the menu's button, then its notice above
                page.locator(".site-menu > summary" if phone else ".table-friends > summary").click()
                with page.expect_navigation(wait_until="domcontentloaded"):
                    page.locator(".table-friends button[value=add]").click()
                assert page.locator(".messages .message").is_visible()
                assert page.locator("#table[data-my-turn]").count() == 1
            found = page.evaluate(LAYOUT_JS, size)
            problems += [f"{look} {name}: {problem}" for problem in found]
            if size != PHONE or language == "en" or name.startswith(SHOT_EVERYWHERE):
                page.screenshot(path=SCREENS / f"{look}-{name}.png")
    assert problems == [], "\n".join(problems)
