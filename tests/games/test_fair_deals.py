"""Deals anyone can verify (docs/fairness.md): every game played to its end through the
services passes games.engine.verify; the seal shows at the table from the first card while
the seed and the salt reach no page, frame or export before the end; the "Check this deal"
page checks an export pasted, uploaded or opened from a finished game."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from games import services
from games.engine.verify import verify
from games.models import DealRecord, Game
from games.present import replay
from games.present.reader import TableReader

from .conftest import client_for
from .matchplay import play_on
from .playout import finish, table

pytestmark = pytest.mark.django_db

CHECK = "/deals/check/"


def assert_passes(game):
    record = json.loads(json.dumps(replay.record(game)))
    report = verify(record)
    assert report.ok, [str(p) for p in report.problems]
    saved = game.match()
    assert record["seed"] == saved.seed and record["salt"] == saved.salt and saved.salt
    assert [d["commitment"] for d in record["dealt"]] == report.commitments
    kept = list(DealRecord.objects.filter(game=game).order_by("number")
                .values_list("commitment", flat=True))
    assert kept == report.commitments[:len(kept)] and kept  # as the table showed them
    return report


def test_every_game_played_to_its_end_passes_the_check(alice, bob, carol, dave, classic, pairs):
    games = [
        finish(table(alice, classic, [bob], deals=3)),
        finish(table(alice, classic, [bob, carol, dave], loss_limit=2), seed=1),
        finish(table(alice, pairs, [bob, carol, dave], loss_limit=2), seed=2),
        finish(table(alice, classic, [], bots=["easy", "medium"], deals=2), seed=3),
    ]
    resigned = table(bob, classic, [carol], deals=3)
    play_on(resigned, until_deal=2)
    services.resign(resigned.pk, carol)
    resigned.refresh_from_db()
    assert resigned.status == Game.Status.FINISHED
    games.append(resigned)
    deals = sum(assert_passes(game).deals for game in games)
    assert deals >= 3 + 2 + 2 + 2 + 2


def secrets_of(game):
    match = game.match()
    return match.seed, match.salt


def test_the_seal_shows_before_the_first_card_and_the_secrets_only_after_the_end(
        alice, bob, carol, classic):
    game = table(alice, classic, [bob], deals=2)  # the site's own shuffle: a secret seed
    seed, salt = secrets_of(game)
    assert len(seed) == 32 and len(salt) == 32 and seed != salt
    clients = {0: client_for(alice), 1: client_for(bob), None: client_for(carol)}
    readers = {seat: TableReader(game.pk, user, invite="", site_root="http://testserver",
                                 language="en", time_zone=None)
               for seat, user in ((0, alice), (1, bob), (None, carol))}
    seals = set()
    for step in range(2000):
        game.refresh_from_db()
        if game.status != Game.Status.PLAYING:
            break
        match = game.match()
        seal = match.commitment()
        seals.add(seal)
        pages = []
        for seat, client in clients.items():
            if step % 10 == 0 or seat == match.deal.to_act:
                body = client.get(f"/games/{game.pk}/").content.decode()
                assert seal in body  # from the deal's first card on
                pages.append(body)
            pages.extend(readers[seat].frames(csrf_token="", version=game.version) or [])
        if step % 25 == 0:
            for path in ("replay/", "export.json", "check/", "deals/1/"):
                pages.append(clients[0].get(f"/games/{game.pk}/{path}").content.decode())
        for body in pages:
            assert seed not in body and salt not in body
        seat = match.deal.to_act
        services.play_seat(game.pk, seat, [match.deal.legal_actions(seat)[0].token()],
                           game.version)
    assert game.status == Game.Status.FINISHED and len(seals) == 2
    table_page = clients[0].get(f"/games/{game.pk}/").content.decode()
    assert f'href="/games/{game.pk}/check/"' in table_page  # at the end, beside the replay
    page = clients[None].get(f"/games/{game.pk}/replay/").content.decode()
    assert seed in page and salt in page and f"/games/{game.pk}/check/" in page
    record = DealRecord.objects.get(game=game, number=1)
    assert record.commitment in client_for(carol).get(f"/games/{game.pk}/deals/1/").content.decode()
    assert json.loads(clients[1].get(f"/games/{game.pk}/export.json").content)["salt"] == salt


def test_a_finished_game_opens_its_check(alice, bob, carol, classic):
    game = finish(table(alice, classic, [bob], deals=2))
    r = client_for(carol).get(f"/games/{game.pk}/check/")
    assert r.status_code == 200
    body = r.content.decode()
    assert "Fair: every card matches." in body
    for seal in verify(replay.record(game)).commitments:
        assert seal in body


def test_a_game_in_play_or_hidden_has_no_check(alice, bob, carol, classic):
    game = table(alice, classic, [bob], private=True)
    assert client_for(carol).get(f"/games/{game.pk}/check/").status_code == 404
    r = client_for(alice).get(f"/games/{game.pk}/check/")
    assert r.status_code == 409 and "still being played" in r.content.decode()


@pytest.fixture
def exported(alice, bob, classic):
    game = finish(table(alice, classic, [bob], deals=2))
    return json.loads(json.dumps(replay.record(game)))


def test_the_page_checks_a_pasted_or_uploaded_export(client, exported):
    page = client.get(CHECK)  # a visitor may check a deal too
    assert page.status_code == 200 and 'enctype="multipart/form-data"' in page.content.decode()
    r = client.post(CHECK, {"export": json.dumps(exported)})
    assert r.status_code == 200 and "Fair: every card matches." in r.content.decode()
    bad = copy.deepcopy(exported)
    bad["dealt"][0]["commitment"] = "f" * 64
    upload = SimpleUploadedFile("game.json", json.dumps(bad).encode(), "application/json")
    r = client.post(CHECK, {"file": upload})
    body = r.content.decode()
    assert r.status_code == 200 and "something does not match" in body
    assert "Deal 1: the seal " + "f" * 64 in body


@pytest.mark.parametrize("sent, status, words", [
    ({"export": ""}, 400, "Paste a game"),
    ({"export": "{not json"}, 400, "it is not JSON"),
    ({"export": "[1, 2]"}, 400, "That is not a game&#x27;s export."),
    ({"export": '{"format": "chess/1"}'}, 400, "That is not a game&#x27;s export."),
    ({"export": '{"format": "durak-match/1", "seed": "s", "dealt": 5}'}, 200, "no salt"),
])
def test_bad_input_gets_a_clear_answer(client, sent, status, words):
    r = client.post(CHECK, sent)
    assert r.status_code == status and words in r.content.decode()


def test_a_file_too_big_is_refused(client, settings):
    upload = SimpleUploadedFile("big.json", b" " * (1024 * 1024 + 1), "application/json")
    r = client.post(CHECK, {"file": upload})
    assert r.status_code == 413 and "too big" in r.content.decode()


def test_checks_are_limited(client, settings, exported):
    settings.LIMITS = {**settings.LIMITS, "deal_checks": (2, 3600)}
    for _ in range(2):
        assert client.post(CHECK, {"export": '{"format": "durak-match/1"}'}).status_code == 200
    assert client.post(CHECK, {"export": '{"format": "durak-match/1"}'}).status_code == 429


def test_the_checker_downloaded_from_the_page_checks_an_export_without_the_site(
        client, exported, tmp_path):
    """The page links the checker; run from the zip alone (no site, no Django on its path)
    it passes a real export and fails one with a card changed."""
    import subprocess
    import sys
    import zipfile

    page = client.get("/deals/check/").content.decode()
    assert 'href="/deals/check/durak-check.zip"' in page
    answer = client.get("/deals/check/durak-check.zip")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/zip"
    assert 'filename="durak-check.zip"' in answer["Content-Disposition"]
    (tmp_path / "durak-check.zip").write_bytes(answer.content)
    names = zipfile.ZipFile(tmp_path / "durak-check.zip").namelist()
    assert "games/engine/verify.py" in names and not any("django" in n for n in names)
    (tmp_path / "good.json").write_text(json.dumps(exported))
    bad = copy.deepcopy(exported)
    bad["dealt"][0]["commitment"] = "f" * 64  # a seal that is not the seed's
    (tmp_path / "bad.json").write_text(json.dumps(bad))

    def check(name):
        return subprocess.run(
            [sys.executable, "-S", "-m", "games.engine.verify", name], cwd=tmp_path,
            env={"PYTHONPATH": "durak-check.zip"}, capture_output=True, text=True, timeout=60)

    good = check("good.json")
    assert good.returncode == 0, good.stdout + good.stderr
    assert check("bad.json").returncode != 0
