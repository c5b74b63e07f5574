"""A person at a table of computer players sees each bot move on its own: the table shows
every version in turn, never several as one jump. The server makes a bot's moves at
least the pace apart (half of it after the person's own move), and the page shows them
apart. The servers here keep a pace (BOT_PACE_SECONDS); the rest of the browser tier
plays without one."""

import random

import pytest
from playwright.sync_api import expect

from games.models import Move
from tests.e2e.conftest import SCREENSHOTS, serve
from tests.e2e.helpers import (
    choose_and_play,
    create_game,
    sign_up,
    wait_my_turn_or_over,
    wait_ws_version,
    watch,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

PACE = 0.8  # seconds: the servers' BOT_PACE_SECONDS
TIMER = 0.02  # seconds a countdown may fire early
PACED_REDIS_DB = 10  # not the tier's own servers' database: their worker takes none of these

# Every version the table showed, with when (ms) and its "Last move" line, in order.
RECORD_VERSIONS_JS = """() => {
  const seen = window.durakVersions = [];
  const note = () => {
    const t = document.querySelector('#table');
    if (!t) return;
    const version = Number(t.dataset.version);
    if (seen.length && seen[seen.length - 1][0] === version) return;
    const last = t.querySelector('.last-move');
    seen.push([version, performance.now(), last ? last.innerText : '']);
  };
  note();
  new MutationObserver(note).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ['data-version']});
}"""


@pytest.fixture(scope="module")
def site(django_db_setup):
    """Servers whose computer players keep a pace, for this module only."""
    yield from serve(PACED_REDIS_DB, "-paced", BOT_PACE_SECONDS=str(PACE))


def bot_runs(versions: list[int], mine: set[int]) -> list[list[int]]:
    """The runs of consecutive versions that bots made (any the person did not)."""
    runs: list[list[int]] = []
    for previous, version in zip(versions, versions[1:]):
        if version in mine:
            continue
        if runs and runs[-1][-1] == previous:
            runs[-1].append(version)
        else:
            runs.append([version])
    return runs


def test_a_bots_moves_show_one_after_another(new_page):
    person = watch(new_page(viewport={"width": 390, "height": 844}), "pacy")
    page = person.page
    sign_up(page, "pacy")
    game_id = create_game(page, players=4, bots=3, level="easy")
    # From the socket's first table on: moves made before it opened (a busy machine may be
    # slow to open it) come as one catch-up, which is what a late page should show.
    wait_ws_version(person, 1)
    page.evaluate(RECORD_VERSIONS_JS)
    rng, mine = random.Random(5), set()
    for _ in range(15):  # until two or more bot moves in a row have shown, on my turn
        state = wait_my_turn_or_over(person, timeout=30_000)
        seen = page.evaluate("() => window.durakVersions")
        versions = [v for v, _t, _line in seen]
        if state["over"] or any(len(run) >= 2 for run in bot_runs(versions, mine)):
            break
        mine.add(choose_and_play(person, rng).after)
    expect(page.locator("#table .last-move")).to_be_visible()
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "table-4-phone-after-paced-bots.png")

    seen = page.evaluate("() => window.durakVersions")
    versions = [v for v, _t, _line in seen]
    shown = {v: t / 1000 for v, t, _line in seen}
    made = {m.seq: m.at.timestamp() for m in Move.objects.filter(game_id=game_id)}
    # Every version the game went through showed, in turn: no move was skipped over.
    assert versions == list(range(versions[0], versions[-1] + 1)), seen
    runs = bot_runs(versions, mine)
    assert any(len(run) >= 2 for run in runs), (runs, seen)
    gaps = []
    for version in versions[2:]:  # (the first one shown came with the page)
        if version in mine:
            continue
        pace = PACE / 2 if version - 1 in mine else PACE
        waited, apart = made[version] - made[version - 1], shown[version] - shown[version - 1]
        gaps.append((version, pace, round(waited, 3), round(apart, 3)))
        # The server waits the pace; the page shows the move apart from the last, even when
        # a busy machine brought the last one late (up to half the pace; the person's own
        # move comes by their request's answer, a bot's by the socket).
        assert waited >= pace - TIMER, f"version {version} was made {waited:.3f} s after the last"
        assert apart >= pace / 2 - TIMER, f"version {version} showed {apart:.3f} s after the last"
    print(f"bot moves (version, pace, seconds after the one before: made, shown): {gaps}")
    # Each bot step told alone: its "Last move" line names one action (what followed aside).
    for version, _t, line in seen[1:]:
        if version not in mine:
            actions = sum(line.count(word) for word in (" attacks ", " beats ", " takes.",
                                                        " passes.", " transfers "))
            assert actions <= 1, (version, line)
