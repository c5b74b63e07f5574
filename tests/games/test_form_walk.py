"""Honest forms (docs/design.md, "Honest forms"): every combination the lobby's and the
tournaments' forms offer, for every seeded rule preset, is accepted by the server. The walk
reads the rendered forms as a browser would (options not disabled, the fragment htmx asks
for when a choice changes), posts each combination and finds no refusal; a choice the
page does not offer, sent anyway, is refused once, in the preset's words."""

import itertools
import uuid
from html.parser import HTMLParser

import pytest
from django.test import Client

from games.models import Game, RulePreset, Tournament

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
SEEDED = {"Classic", "Perevodnoy (transfer)", "Pairs 2x2", "Two teams of three", "Three pairs",
          "First bout five", "Prostoy"}


class FormReader(HTMLParser):
    """The fields of the form with `form_id`: selects and radios with the values offered
    (not disabled) and the one chosen, checkboxes (None when disabled), other inputs."""

    def __init__(self, form_id):
        super().__init__()
        self.form_id, self.inside, self.select = form_id, False, None
        self.choices: dict[str, list[str]] = {}
        self.chosen: dict[str, str] = {}
        self.boxes: dict[str, bool | None] = {}
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.inside = a.get("id") == self.form_id
        if not self.inside:
            return
        if tag == "select":
            self.select = a["name"]
            self.choices[self.select] = []
        elif tag == "option" and self.select and "disabled" not in a:
            self.choices[self.select].append(a["value"])
            if "selected" in a or self.select not in self.chosen:
                self.chosen[self.select] = a["value"]
        elif tag == "input" and a.get("type") == "radio" and "disabled" not in a:
            self.choices.setdefault(a["name"], []).append(a["value"])
            if "checked" in a or a["name"] not in self.chosen:
                self.chosen[a["name"]] = a["value"]
        elif tag == "input" and a.get("type") == "checkbox":
            self.boxes[a["name"]] = None if "disabled" in a else "checked" in a
        elif tag in ("input", "textarea") and a.get("name") and a.get("type") != "submit":
            self.values[a["name"]] = a.get("value") or ""

    def handle_endtag(self, tag):
        if tag == "select":
            self.select = None
        elif tag == "form":
            self.inside = False

    def answers(self, **chosen) -> dict:
        """What the browser sends with these choices and the rest as shown."""
        data = {**self.values, **self.chosen}
        data.update({name: "on" for name, on in self.boxes.items() if on})
        data.update(chosen)
        data["once"] = uuid.uuid4().hex  # a fresh form each time (games.once)
        return {k: v for k, v in data.items() if v is not None}


def read(html: str, form_id: str) -> FormReader:
    reader = FormReader(form_id)
    reader.feed(html)
    assert reader.choices or reader.values, f"no form {form_id!r} in the page"
    return reader


@pytest.fixture(autouse=True)
def _no_limits(settings):
    settings.LIMITS = {name: (10**6, 60) for name in settings.LIMITS}


@pytest.fixture
def seeded_presets():
    names = set(RulePreset.objects.filter(active=True).values_list("name", flat=True))
    assert SEEDED <= names, "the seeded presets (migration 0002)"


def refusals(client: Client, url: str, sent: list[dict]) -> list[tuple[dict, int, str]]:
    found = []
    for data in sent:
        r = client.post(url, data)
        if r.status_code != 302:
            page = r.content.decode()
            alert = page[page.find('role="alert"'):][:300] if 'role="alert"' in page else ""
            found.append((data, r.status_code, alert or page[page.find("errorlist"):][:300]))
    return found


def others(reader: FormReader, *skip: str) -> list[dict]:
    """Each other choice offered, one at a time, the rest as shown."""
    return [reader.answers(**{name: value}) for name, values in reader.choices.items()
            if name not in skip for value in values] + [
        reader.answers(**{name: "on"}) for name, on in reader.boxes.items() if on is False]


def test_every_new_game_the_form_offers_is_made(alice_client, seeded_presets):
    page = read(alice_client.get("/").content.decode(), "create-game")
    sent = []
    for preset in page.choices["preset"]:
        fitted = read(alice_client.get("/games/new/", {"preset": preset},
                                       headers={**HX, "HX-Target": "create-game"}
                                       ).content.decode(), "create-game")
        assert fitted.chosen["preset"] == preset
        for players in fitted.choices["players"]:
            form = read(alice_client.get("/games/new/", {"preset": preset, "players": players},
                                         headers={**HX, "HX-Target": "create-game"}
                                         ).content.decode(), "create-game")
            sent += [form.answers(players=players, bots=bots) for bots in form.choices["bots"]]
    sent += others(page, "preset", "players", "bots")
    assert len(sent) > 100
    assert refusals(alice_client, "/games/new/", sent) == []
    assert Game.objects.count() == len(sent)


def test_every_quick_match_the_form_offers_is_found(alice_client, seeded_presets):
    page = read(alice_client.get("/").content.decode(), "quick-match")
    presets = page.choices["preset"]
    offered = set(RulePreset.objects.filter(pk__in=presets).values_list("name", flat=True))
    assert offered == SEEDED - {"Pairs 2x2", "Two teams of three", "Three pairs"}
    sent = [page.answers(preset=p) for p in presets] + others(page, "preset")
    assert refusals(alice_client, "/games/quick/", sent) == []


def test_every_challenge_the_form_offers_is_sent(alice_client, bob, seeded_presets):
    page = read(alice_client.get("/").content.decode(), "challenge-form")
    sent = [page.answers(preset=p, opponent="bob") for p in page.choices["preset"]]
    sent += [{**answers, "opponent": "bob"} for answers in others(page, "preset")]
    assert refusals(alice_client, "/games/challenge/", sent) == []


def test_every_tournament_the_form_offers_is_made(alice_client, seeded_presets):
    page = read(alice_client.get("/tournaments/").content.decode(), "create-tournament")
    assert "public" not in page.boxes  # only staff list one in the lobby
    hx = {**HX, "HX-Target": "create-tournament"}
    sent = []
    for preset in page.choices["preset"]:
        fitted = read(alice_client.get("/tournaments/new/", {"preset": preset}, headers=hx)
                      .content.decode(), "create-tournament")
        for rated in fitted.choices["rated"]:
            form = read(alice_client.get("/tournaments/new/", {"preset": preset, "rated": rated},
                                         headers=hx).content.decode(), "create-tournament")
            fills = [None, "on"] if form.boxes["bots_fill"] is not None else [None]
            for size, kind, fill in itertools.product(form.choices["table_size"],
                                                      form.choices["kind"], fills):
                sent.append(form.answers(name="Cup", rated=rated, table_size=size, kind=kind,
                                         bots_fill=fill))
    sent += [{**answers, "name": "Cup"} for answers in others(
        page, "preset", "rated", "table_size", "kind")]
    assert len(sent) > 40
    assert refusals(alice_client, "/tournaments/new/", sent) == []
    assert Tournament.objects.count() == len(sent)


def test_a_choice_not_offered_is_refused_once_in_the_presets_words(alice_client,
                                                                   seeded_presets):
    pairs = RulePreset.objects.get(name="Pairs 2x2")
    page = read(alice_client.get("/").content.decode(), "quick-match")
    r = alice_client.post("/games/quick/", page.answers(preset=pairs.pk))
    body = r.content.decode()
    assert r.status_code == 400
    assert body.count("Pairs 2x2 is played by 4 players.") == 1, "said once, min == max"
    assert "4 to 4" not in body
    page = read(alice_client.get("/tournaments/").content.decode(), "create-tournament")
    with_ru = {"HTTP_ACCEPT_LANGUAGE": "ru"}
    r = alice_client.post("/tournaments/new/", page.answers(
        name="Cup", preset=pairs.pk, table_size=3), **with_ru)
    body = r.content.decode()
    assert r.status_code == 400 and "от 4 до 4" not in body
    assert body.count("4 игрока") == 1
    assert not Tournament.objects.exists() and not Game.objects.exists()


def test_the_forms_asked_again_with_nonsense_answers_come_back_whole(alice_client,
                                                                     seeded_presets):
    nonsense = {"preset": "x", "players": "-3", "bots": "many", "count": "1e9",
                "table_size": "99", "rated": "both", "rounds": "", "starts_at": "yesterday",
                "round_time": "soon", "bots_fill": "on", "public": "on", "kind": "knockout"}
    for url, target in (("/games/new/", "create-game"), ("/tournaments/new/",
                                                         "create-tournament")):
        r = alice_client.get(url, nonsense, headers={**HX, "HX-Target": target})
        assert r.status_code == 200
        form = read(r.content.decode(), target)
        assert form.choices["preset"] and form.chosen["preset"] in form.choices["preset"]
    assert not Game.objects.exists() and not Tournament.objects.exists()


def test_the_chosen_rules_are_described_beside_the_choice(alice_client, seeded_presets):
    perevodnoy = RulePreset.objects.get(name="Perevodnoy (transfer)")
    perevodnoy.description = "Pass the attack on <b>with a card</b> of its rank."
    perevodnoy.save()
    hx = {**HX, "HX-Target": "create-game"}
    page = alice_client.get("/games/new/", {"preset": perevodnoy.pk}, headers=hx).content.decode()
    assert "Pass the attack on &lt;b&gt;with a card&lt;/b&gt; of its rank." in page
    hx = {**HX, "HX-Target": "create-tournament"}
    page = alice_client.get("/tournaments/new/", {"preset": perevodnoy.pk}, headers=hx).content.decode()
    assert "Pass the attack on &lt;b&gt;with a card&lt;/b&gt; of its rank." in page
