"""Screenshots of the lobby and the table on a phone (390x844) and a desktop (1366x900),
saved to artifacts/screenshots/ for people to look at; the pages must fit the width."""

import random
import struct

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.e2e.helpers import (
    PASSWORD,
    choose_and_play,
    create_game,
    sign_up,
    wait_my_turn_or_over,
    watch,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 900}}
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_size(path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR", f"{path} is not a PNG"
    return struct.unpack(">II", data[16:24])


# Elements that reach past the screen's right edge, unless a box that scrolls or clips
# holds them (a hand of cards, a table that scrolls sideways in its own box).
STICKING_OUT_JS = """(width) => {
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 1) continue;
    let held = false;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      if (getComputedStyle(up).overflowX !== 'visible') { held = true; break; }
    }
    if (!held) out.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(box.right)}px`);
  }
  return out.slice(0, 5);
}"""


def shoot(page, name, viewport):
    # Nothing may stick out sideways: a phone would scroll the whole page, or zoom out.
    sticking_out = page.evaluate(STICKING_OUT_JS, viewport["width"])
    assert not sticking_out, f"{name}: wider than the screen: {sticking_out}"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    path.unlink(missing_ok=True)
    page.screenshot(path=path, full_page=True, animations="disabled")  # cards at rest
    width, height = png_size(path)
    assert width == viewport["width"] and height >= viewport["height"] * 0.5, (width, height)
    assert path.stat().st_size > 15_000, f"{path} looks empty"
    return path


def test_it_saves_screenshots_of_the_lobby_and_the_table(new_page):
    desktop = watch(new_page(SIZES["desktop"]), "sasha")
    sign_up(desktop.page, "sasha")
    # A public table waiting for players, so that the lobby has a row to show.
    create_game(desktop.page, preset="Perevodnoy (transfer)", players=3, bots=0)
    # A table in play, shown in the middle of a bout.
    game_id = create_game(desktop.page, preset="Classic", players=3, bots=2, level="easy")
    rng = random.Random(5)
    for _ in range(12):
        state = wait_my_turn_or_over(desktop)
        assert not state["over"]
        if state["table"]:
            break
        choose_and_play(desktop, rng)

    phone = watch(new_page(SIZES["phone"], is_mobile=True, has_touch=True), "sasha")
    phone.page.goto("/accounts/login/")
    phone.page.get_by_label("Username:").fill("sasha")
    phone.page.get_by_label("Password:").fill(PASSWORD)
    phone.page.get_by_role("button", name="Log in").click()
    phone.page.wait_for_url("**/")

    paths = []
    for size, person in (("desktop", desktop), ("phone", phone)):
        page = person.page
        page.goto("/")
        expect(page.locator("#open-games")).to_contain_text("Perevodnoy (transfer)")
        expect(page.locator("#create-game")).to_be_visible()
        paths.append(shoot(page, f"lobby-{size}", SIZES[size]))
        page.goto(f"/games/{game_id}/")
        expect(page.locator("#table .pairs .card.attack").first).to_be_visible()
        expect(page.locator("#table fieldset.hand .card").first).to_be_visible()
        page.wait_for_timeout(300)  # the live table arrives over the socket after the page
        paths.append(shoot(page, f"table-{size}", SIZES[size]))
    assert len({p.read_bytes() for p in paths}) == 4
