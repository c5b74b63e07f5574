"""The words check: no English in the forms a player fills in (their widgets, blank choices
and errors) nor in the mails the site sends, in fi, nb and ru; Russian forms agree with
their nouns (docs/glossary.md); a tournament round's mail reads as a sentence."""

from datetime import UTC, datetime, timedelta

import polib
import pytest
import time_machine
from django.conf import settings
from django.core import mail
from django.template.loader import render_to_string
from django.utils import translation

from games import services
from games.models import RulePreset
from games.services import tournament_mail

from .compiled import compile_catalogues
from .english import ROOT, english_in
from .russian import agrees, disagreements, glossary_nouns, lone_participle, read_glossary

LANGUAGES = ["fi", "nb", "ru"]
T0 = datetime(2037, 12, 1, 9, 0, tzinfo=UTC)
MINUTE = timedelta(minutes=1)


@pytest.fixture(scope="module", autouse=True)
def _compiled():
    compile_catalogues(LANGUAGES)


def ru_entries():
    po = polib.pofile(str(ROOT / "locale" / "ru" / "LC_MESSAGES" / "django.po"))
    return [(e.msgctxt, e.msgid, e.msgstr) for e in po if not e.obsolete and e.msgstr]


# Russian agreement

def test_the_glossary_gives_each_noun_a_gender():
    nouns = read_glossary(ROOT)
    assert {"игра", "партия", "турнир", "тур", "стол"} <= set(nouns)
    assert all(gender in {"m", "f", "n", "pl"} for gender, _ in nouns.values())


def test_russian_participles_agree_with_their_nouns():
    assert disagreements(ru_entries(), read_glossary(ROOT)) == []


def test_the_agreement_check_can_fail():
    nouns = glossary_nouns("## Russian nouns and the words that agree with them\n"
                           "| Noun | English | Gender | Contexts |\n"
                           "| турнир | tournament | m | a tournament's status |\n"
                           "| игра | game | f | a game's status |\n")
    assert lone_participle("закончена") == "закончена" and lone_participle("идёт") is None
    assert lone_participle("открыт для записи") == "открыт"
    assert agrees("закончен", "m") and not agrees("закончена", "m") and agrees("начато", "n")
    assert disagreements([
        (None, "finished", "закончена"),  # a status with no noun named
        ("a tournament's status", "finished", "закончена"),  # the wrong gender
        ("a tournament's status", "cancelled", "отменён"),
        (None, "The game is over", "Игра окончен"),
        (None, "The game is over", "Игра окончена"),
        (None, "%(t)s is over", "Турнир %(t)s окончена"),
        (None, "The form is broken.", "Форма повреждена."),  # a noun the glossary lacks
        (None, "deals played", "партий сыграно"),  # counted: no subject
    ], nouns) == [
        "no noun for 'закончена' ('finished', context None)",
        "'закончена' disagrees with турнир (\"a tournament's status\")",
        "'Игра окончен': окончен disagrees with игра",
        "'Турнир %(t)s окончена': окончена disagrees with турнир",
        "no glossary entry for форма ('Форма повреждена.')",
    ]


# English in forms

def test_the_check_finds_english_left_in_a_page():
    page = ('<select><option value="">- Select an option -</option></select>'
            '<input placeholder="Type a city: Helsinki, Oslo…"><p>Tallenna</p>'
            '<p>Europe/Helsinki · suomi · English</p><script>const s = "Save";</script>')
    assert english_in(page, "fi") == ["Select an option", "Type a city"]


def _pages(client, game):
    """Each form a player sees, blank and refused, in the player's language."""
    bad_profile = {"display_name": "X\u200bY", "language": "xx", "time_zone": "Mars/Base",
                   "summary_hour": "99", "move_emails": "often"}
    return {
        "profile": client.get("/accounts/profile/"),
        "profile refused": client.post("/accounts/profile/", bad_profile),
        "email change": client.get("/accounts/email/"),
        "email change refused": client.post("/accounts/email/", {"email": "x", "password": ""}),
        "password change": client.get("/accounts/password_change/"),
        "password change refused": client.post("/accounts/password_change/", {}),
        "lobby forms": client.get("/"),
        "new game refused": client.post("/games/new/", {"players": "9"}),
        "tournament form": client.get("/tournaments/"),
        "table (moves, chat, orders)": client.get(f"/games/{game.pk}/"),
        "my games (challenges, vacation)": client.get("/games/mine/"),
    }


def _logged_out_pages(client):
    return {
        "sign-up": client.get("/accounts/signup/"),
        "sign-up refused": client.post("/accounts/signup/", {"username": "a b",
                                                             "email": "no"}),
        "log-in": client.get("/accounts/login/"),
        "log-in refused": client.post("/accounts/login/", {"username": "nobody",
                                                           "password": "wrong"}),
        "password reset": client.get("/accounts/password_reset/"),
        "password reset refused": client.post("/accounts/password_reset/", {"email": "no"}),
    }


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_in_the_forms(client, alice, bob, lang):
    alice.language = lang
    alice.is_staff = True  # the tournament form too
    alice.save()
    game = services.create_game(alice, RulePreset.objects.get(name="Classic"), players=2,
                                move_time=timedelta(days=1))
    services.join_game(game.pk, bob)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    logged_out = _logged_out_pages(client)
    client.force_login(alice)
    found = {}
    for name, response in {**logged_out, **_pages(client, game)}.items():
        assert response.status_code in (200, 400), (name, response.status_code)
        assert response["Content-Language"] == lang, name
        english = english_in(response.content.decode(), lang)
        if english:
            found[name] = english
    assert found == {}


# English in mails

def _mails(lang, alice, bob, staff):
    """Every mail the site sends, to players who speak `lang`: (what, subject, body)."""
    for player in (alice, bob):
        player.language, player.time_zone = lang, "Europe/Moscow"
        player.save()
    preset = RulePreset.objects.get(name="Classic")
    with time_machine.travel(T0, tick=False):
        game = services.create_game(alice, preset, players=2, move_time=timedelta(days=1))
        services.join_game(game.pk, bob)
        challenge = services.challenge(alice, bob, preset, move_time=timedelta(days=1))
        cup = services.tournament.create_tournament(staff, preset, name="Cup",
                                                    move_time=timedelta(hours=1))
        for player in (alice, bob):
            services.tournament.join_tournament(cup.pk, player)
        services.tournament.start_tournament(cup.pk, staff)
    mail.outbox.clear()
    services.send_move_emails(now=T0 + 5 * MINUTE)
    services.send_reminders(now=T0 + timedelta(hours=6, minutes=1))
    for player in (alice, bob):
        player.refresh_from_db()
        player.move_emails = "daily"
        player.save()
    services.send_summaries(now=T0 + timedelta(hours=1))
    services.send_challenge_mail(challenge.pk)
    tournament_mail.send_tournament_mail(cup.pk, 1)
    tournament_mail.send_tournament_mail(cup.pk, 0)
    sent = [(m.subject, m.subject, m.body) for m in mail.outbox]
    with translation.override(lang):  # the mails of accounts' templates
        for name, context in [
            ("device_link", {"player": alice, "link": "https://x.example/d/", "minutes": 15,
                             "reset": "https://x.example/r/"}),
            ("email_change", {"player": alice, "link": "https://x.example/e/",
                              "new_email": "a@example.org", "days": 2}),
        ]:
            sent.append((name, render_to_string(f"accounts/{name}_subject.txt", context),
                         render_to_string(f"accounts/{name}_email.txt", context)))
    return sent


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_english_in_the_mails(client, alice, bob, django_user_model, lang):
    staff = django_user_model.objects.create_user(username="director", is_staff=True)
    sent = _mails(lang, alice, bob, staff)
    kinds = {what.split(":")[0] for what, _, _ in sent}
    assert len(sent) >= 8, kinds  # your move, reminder, summary, challenge, rounds, accounts'
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    client.post("/accounts/password_reset/", {"email": alice.email})
    sent += [(m.subject, m.subject, m.body) for m in mail.outbox[-1:]]
    found = {what: english_in(subject + "\n" + body, lang) for what, subject, body in sent}
    assert {what: words for what, words in found.items() if words} == {}


@pytest.mark.django_db
@pytest.mark.parametrize("days, words", [
    (0, "The round ends today at"), (1, "The round ends tomorrow at"),
    (5, "The round ends on December 6 at")])
def test_a_rounds_mail_names_its_end_in_a_sentence(alice, days, words):
    class Round:
        deadline = T0 + timedelta(days=days)

    with time_machine.travel(T0, tick=False):
        _subject, body = tournament_mail._round_words(
            type("T", (), {"name": "Cup"})(), 1, Round(), alice, "https://x/t/", "https://x/c/")
    assert f"{words} " in body and "by on" not in body and "by today" not in body


@pytest.mark.django_db
def test_a_tournament_and_its_tables_say_finished_in_their_own_gender(client, alice, bob,
                                                                      django_user_model):
    from games.models import Game, Tournament

    staff = django_user_model.objects.create_user(username="director", is_staff=True)
    preset = RulePreset.objects.get(name="Classic")
    cup = services.tournament.create_tournament(staff, preset, name="Cup",
                                                move_time=timedelta(hours=1))
    for player in (alice, bob):
        services.tournament.join_tournament(cup.pk, player)
    services.tournament.start_tournament(cup.pk, staff)
    Game.objects.filter(round_table__round__tournament=cup).update(status="finished")
    Tournament.objects.filter(pk=cup.pk).update(status="finished")
    with translation.override("ru"):
        assert Game(status="finished").get_status_display() == "закончена"  # игра
    page = client.get(cup.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<strong id="tournament-status">закончен</strong>' in page  # турнир
    assert "— закончен\n" in page and "— закончена" not in page  # стол
