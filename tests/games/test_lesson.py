"""The lesson ("Learn Durak in five minutes"): its arranged deal, its words at each
situation (from the learner's view), the lobby's offer to newcomers, and its table."""

import random

import pytest
from django.utils import translation

from games import services
from games.bots import choose_action
from games.engine import Attack, Card, Deal, Defend, Match, Pass, Rules, Take, full_deck
from games.models import Game
from games.present.lesson import lesson
from games.services.lesson import LESSON_SEED, LESSON_SEEDS, lesson_preset
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db  # the lesson plays the seeded Classic preset

LEARNER, BOT = 0, 1


def lesson_deal(seed: str = LESSON_SEED) -> Deal:
    preset = lesson_preset()
    assert preset is not None and preset.name == "Classic"
    return Match(preset.rules(2), deals=1, seed=seed).deal


def hand(deal, seat):
    return sorted(c.code for c in deal.hand(seat))


def learner_move(deal):
    """What the lesson tells a learner to do: lead a low card (not a trump), throw in what
    may be thrown in (not a trump), beat with the cheapest card, else take; then pass."""
    legal = deal.legal_actions(LEARNER)

    def cost(card):
        return (card.suit == deal.trump, card.rank)

    attacks = [a for a in legal if isinstance(a, Attack)]
    if attacks and not deal.table:
        return min(attacks, key=lambda a: cost(a.card))
    if plain := [a for a in attacks if a.card.suit != deal.trump]:
        return min(plain, key=lambda a: cost(a.card))
    if defends := [a for a in legal if isinstance(a, Defend)]:
        return min(defends, key=lambda a: cost(a.card))
    return next((a for a in legal if isinstance(a, Take | Pass)), legal[0])


def play_out(bot_seed, seed=LESSON_SEED):
    """The lesson's deal played to its end: the learner as told, the Easy computer with
    its own seeded choices; the history's events as (kind, seat)."""
    deal = lesson_deal(seed)
    rng = random.Random(bot_seed)
    while not deal.is_over:
        seat = deal.to_act
        action = (learner_move(deal) if seat == LEARNER
                  else choose_action("easy", deal.view(BOT), seed=rng.random()))
        deal.apply(seat, action)
    kinds = []
    for e in deal.history:
        if e["type"] == "defend":
            trump = Card.parse(e["card"]).suit == deal.trump != Card.parse(e["attack"]).suit
            kinds.append(("beat with a trump" if trump else "beat", e["seat"]))
        elif e["type"] in ("attack", "take", "exchange"):
            kinds.append((e["type"], e["seat"]))
    return deal, kinds


# ------------------------------------------------------------------- the arranged deal
def test_the_first_lesson_deals_the_hand_its_words_were_tried_with():
    deal = lesson_deal()
    assert deal.trump_card == Card.parse("6H")
    assert hand(deal, LEARNER) == sorted(["9S", "7H", "9D", "TD", "JD", "JC"])


@pytest.mark.parametrize("seed", LESSON_SEEDS)
def test_the_arranged_deal_lets_the_learner_lead_a_pair_under_the_trump_six(seed):
    deal = lesson_deal(seed)
    assert deal.trump_card.rank == 6  # the trump 6 is face up: no exchange (R27)
    assert deal.to_act == LEARNER == deal.attacker  # the lowest trump leads (R5)
    history = deal.history
    assert any(e.get("type") == "lowest_trump" and e.get("seat") == LEARNER for e in history)
    mine = deal.hand(LEARNER)
    lead = min((c for c in mine if c.suit != deal.trump), key=lambda c: c.rank)
    pair = [c for c in mine if c.rank == lead.rank]
    assert len(pair) == 2  # whichever 9 leads, the other may be thrown in (R8)
    theirs = deal.hand(BOT)
    in_suit = [c for c in pair if any(b.suit == c.suit and b.rank > c.rank for b in theirs)]
    trump_only = [c for c in pair if c not in in_suit]
    assert in_suit and trump_only  # one 9 is beaten in its suit, the other only by a trump
    assert any(b.suit == deal.trump for b in theirs)


@pytest.mark.parametrize("seed", LESSON_SEEDS)
def test_the_arranged_deal_brings_attack_beat_throw_in_trump_and_take(seed):
    """Forty deals with the Easy computer's choices varying: each brings the attack, a
    beat and a take; nearly all a throw-in and a beat with a trump."""
    runs = [play_out(bot_seed, seed)[1] for bot_seed in range(40)]
    for kinds in runs:
        assert kinds[0] == ("attack", LEARNER)
        assert ("beat", BOT) in kinds or ("beat with a trump", BOT) in kinds
        assert ("take", LEARNER) in kinds or ("take", BOT) in kinds
        assert not any(kind == "exchange" for kind, _seat in kinds)
    thrown_in = sum(kinds[1][0] in ("beat", "beat with a trump", "take")
                    and kinds[2] == ("attack", LEARNER) for kinds in runs)
    trumped = sum(("beat with a trump", BOT) in kinds for kinds in runs)
    assert thrown_in >= 32 and trumped >= 36


# ------------------------------------------------------------------- the words
def words(deal, seat=LEARNER):
    said = lesson(deal.view(seat), seat)
    return said, " ".join([said.title, *said.lines, said.trump, *said.recap])


def test_the_first_words_are_the_attack_the_trump_and_the_goal():
    said, text = words(lesson_deal())
    assert said.step == "lead-first"
    assert said.title == "Your attack"
    assert "You hold the lowest trump, 7♥, so you attack first." in text
    assert "The card under the talon, 6♥, sets the trump suit: hearts." in said.trump
    assert "Any trump beats any card of another suit." in said.trump
    assert "durak" not in text  # the goal comes once the first bout is over


def test_while_the_computer_answers_the_lesson_says_how_a_card_is_beaten():
    deal = lesson_deal()
    deal.apply(LEARNER, Attack(Card.parse("9S")))
    said, text = words(deal)
    assert said.step == "wait-defence"
    assert "a higher card of its own suit or by any trump" in text


def test_after_a_beat_in_suit_the_lesson_offers_the_throw_in():
    deal = lesson_deal()
    deal.apply(LEARNER, Attack(Card.parse("9S")))
    deal.apply(BOT, Defend(Card.parse("9S"), Card.parse("QS")))
    said, text = words(deal)
    assert said.step == "throw-in"
    assert "The computer beat 9♠ with Q♠: a higher card of the same suit." in text
    assert "throw in another card of a rank already on the table (9, Q)" in text
    assert "Tap the cards you add, then “Play selected”; or tap “Pass”" in text


def test_a_beat_with_a_trump_is_explained_as_one():
    deal = lesson_deal()
    deal.apply(LEARNER, Attack(Card.parse("9S")))
    deal.apply(BOT, Defend(Card.parse("9S"), Card.parse("QS")))
    deal.apply(LEARNER, Attack(Card.parse("9D")))
    deal.apply(BOT, Defend(Card.parse("9D"), Card.parse("8H")))
    # No 8, 9 or Q to throw in: the learner is passed over (R13), the bout's cards go to
    # the discard pile and the computer leads; the lesson still tells the trump's beat.
    said, text = words(deal)
    assert said.step == "wait-attack"
    assert "The computer beat 9♦ with 8♥, a trump: any trump beats any card" in text
    assert "went to the discard pile" in text and said.trump
    deal.apply(BOT, next(a for a in deal.legal_actions(BOT) if isinstance(a, Attack)))
    said, text = words(deal)
    assert said.step in ("defend", "must-take")
    assert "The computer beat 9♦ with 8♥, a trump" in text and said.trump


def test_with_nothing_to_throw_in_the_lesson_says_pass():
    deal = lesson_deal()
    deal.apply(LEARNER, Attack(Card.parse("JC")))
    deal.apply(BOT, Defend(Card.parse("JC"), Card.parse("QH")))
    said, text = words(deal)  # the learner holds JD: a J may go
    assert said.step == "throw-in"
    deal.apply(LEARNER, Attack(Card.parse("JD")))
    deal.apply(BOT, Defend(Card.parse("JD"), Card.parse("8H")))
    said, text = words(deal)
    assert "a trump" in text


def test_when_the_computer_takes_the_learner_may_add_cards():
    deal = lesson_deal()
    deal.apply(LEARNER, Attack(Card.parse("9D")))
    deal.apply(BOT, Take())
    said, text = words(deal)
    assert said.step == "add-to-take"
    assert said.title == "The computer takes"
    assert "(9)" in text  # 9♠ may go with it
    assert "Tap the cards you add, then “Play selected”" in text  # up to five may go


def test_after_the_bout_the_refill_and_the_next_attack_are_explained():
    deal = lesson_deal()
    deal.apply(LEARNER, Attack(Card.parse("9D")))
    deal.apply(BOT, Take())
    deal.apply(LEARNER, Pass())  # the computer picks 9♦ up; the learner attacks again (R18)
    said, text = words(deal)
    assert said.step == "lead"
    assert "The computer took the cards, so you attack again." in text
    assert "filled up to six cards from the talon" in text
    assert "The goal: get rid of all your cards." in text and "durak" in text
    # The panel keeps this step's words; how the bout ended is folded away.
    assert said.lines == ["Tap a card to attack with it: the computer must beat it or take it."]
    assert len(said.recap) == 3
    deal.apply(LEARNER, Attack(Card.parse("TD")))
    deal.apply(BOT, Take())
    if Pass() in deal.legal_actions(LEARNER) and deal.table:
        deal.apply(LEARNER, Pass())
    said, text = words(deal)
    assert said.step == "lead" and "The goal" not in text  # said once


# A stacked pack (dealer seat 0, so seat 1 gets the first card): seat 1 leads 6♣; seat 0
# holds no club and no trump (spades) in one case, a higher club in the other.
def defence_deal(learner_cards):
    seat1 = ["6S", "6C", "7C", "8C", "9C", "TC"]
    pack = [c for pair in zip(seat1, learner_cards) for c in pair] + ["7S"]
    pack += [c.code for c in full_deck(36) if c.code not in pack]
    deal = Deal.start(Rules(players=2), deck=pack, dealer=0, opener=1)
    deal.apply(BOT, Attack(Card.parse("6C")))
    return deal


def test_a_defender_who_can_beat_is_told_how_or_to_take():
    said, text = words(defence_deal(["7H", "8H", "9H", "TH", "JH", "JC"]))
    assert said.step == "defend"
    assert "The computer attacks with 6♣." in text
    assert "Take the cards" in text


def test_a_defender_who_cannot_beat_is_told_to_take():
    said, text = words(defence_deal(["7H", "8H", "9H", "TH", "JH", "QH"]))
    assert said.step == "must-take"
    assert said.title == "Take the cards"
    assert "no trump to beat 6♣" in text


def test_at_the_end_the_lesson_says_who_is_the_durak():
    deal, _kinds = play_out(0)
    said, text = words(deal)
    assert said.step == "end" and said.over
    assert said.won == (deal.loser == BOT)
    assert "durak" in text


def test_the_words_are_translated():
    deal = lesson_deal()
    english = words(deal)[1]
    for language in ("fi", "nb", "ru"):
        with translation.override(language):
            assert words(deal)[1] != english, language
    with translation.override("ru"):
        said, text = words(deal)
        assert said.title == "Ваша атака"


# ------------------------------------------------------------------- the service
@pytest.mark.django_db
def test_a_lesson_is_a_casual_private_game_against_an_easy_computer(alice):
    game = services.start_lesson(alice)
    assert game.lesson and not game.rated and game.private and game.is_playing
    seats = list(game.seats.order_by("number"))
    assert seats[0].player == alice and seats[1].bot_level == "easy"
    assert game.match().deal.to_act == LEARNER
    assert hand(game.match().deal, LEARNER) == hand(lesson_deal(), LEARNER)
    assert game.next_reminder is None and game.move_email_at is None  # no mails about it


@pytest.mark.django_db
def test_each_new_lesson_deals_another_checked_hand(alice):
    hands = []
    for _ in range(len(LESSON_SEEDS) + 1):
        game = services.start_lesson(alice)
        hands.append(tuple(hand(game.match().deal, LEARNER)))
        Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    assert hands[:len(LESSON_SEEDS)] == [tuple(hand(lesson_deal(seed), LEARNER))
                                         for seed in LESSON_SEEDS]
    assert len(set(hands)) == len(LESSON_SEEDS) and hands[-1] == hands[0]  # round again


@pytest.mark.django_db
def test_starting_a_lesson_again_resumes_the_unfinished_one(alice):
    first = services.start_lesson(alice)
    assert services.start_lesson(alice).pk == first.pk
    Game.objects.filter(pk=first.pk).update(status=Game.Status.FINISHED)
    assert services.start_lesson(alice).pk != first.pk


# ------------------------------------------------------------------- the lobby and pages
@pytest.mark.django_db
def test_the_lobby_offers_the_lesson_only_to_players_with_no_finished_game(alice, bob):
    newcomer = client_for(alice).get("/").content.decode()
    assert "Learn Durak in five minutes" in newcomer and 'action="/learn/"' in newcomer
    services.start_lesson(alice)
    assert "Go on with the lesson" in client_for(alice).get("/").content.decode()
    game = services.start_lesson(bob)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    player = client_for(bob).get("/").content.decode()
    assert "Learn Durak in five minutes" not in player
    assert 'href="/learn/"' in player  # still reachable, quietly


@pytest.mark.django_db
def test_a_visitor_is_asked_to_sign_up_for_the_lesson(client):
    assert 'href="/learn/"' in client.get("/").content.decode()
    page = client.get("/learn/").content.decode()
    assert "/accounts/signup/?next=%2Flearn%2F" in page or "signup/?next=%2Flearn%2F" in page
    assert client.post("/learn/").status_code == 302


@pytest.mark.django_db
def test_the_lesson_button_opens_the_lesson_table_with_its_words(alice):
    client = client_for(alice)
    answer = client.post("/learn/")
    assert answer.status_code == 302
    game = Game.objects.get(lesson=True)
    assert answer["Location"] == f"/games/{game.pk}/"
    assert client.post("/learn/")["Location"] == f"/games/{game.pk}/"  # resumed
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="lesson"' in page and 'data-step="lead-first"' in page
    assert "You hold the lowest trump" in page
    client.cookies["django_language"] = "ru"
    russian = client.get(f"/games/{game.pk}/").content.decode()
    assert "Ваша атака" in russian


@pytest.mark.django_db
def test_the_lesson_words_follow_the_moves_at_the_table(alice):
    client = client_for(alice)
    client.post("/learn/")
    game = Game.objects.get(lesson=True)
    answer = client.post(f"/games/{game.pk}/play/", {"action": "attack:9S",
                                                     "version": game.version})
    assert answer.status_code in (200, 302)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-step="lead-first"' not in page and 'id="lesson"' in page


@pytest.mark.django_db
def test_other_games_have_no_lesson_panel(duel):
    page = client_for(duel.seats.get(number=0).player).get(f"/games/{duel.pk}/")
    assert 'id="lesson"' not in page.content.decode()


def test_where_one_card_more_may_go_a_tap_adds_it():
    from games.present.lesson import _how_to_add

    assert _how_to_add({"limit": 2, "table": [["9S", "QS"]]}) == (
        "Tap the card to add it, or tap “Pass” when you are done.")


def test_a_lesson_played_to_the_end_finishes_and_replays(alice):
    """The learner plays as the lesson tells, the computer answers; the finished lesson is
    a finished game, replayed from its seed and its moves."""
    from games.present import replay

    game = services.start_lesson(alice)
    for _ in range(200):
        game.refresh_from_db()
        if not game.is_playing:
            break
        deal = game.match().deal
        if deal.to_act == BOT:
            services.run_bots(game.pk)  # what the Celery task does after the commit
            continue
        services.play(game.pk, alice, [learner_move(deal).token()], game.version)
    assert game.status == Game.Status.FINISHED
    assert replay.replayed(game).to_json() == game.match().to_json()
    page = client_for(alice).get(f"/games/{game.pk}/").content.decode()
    assert 'data-step="end"' in page and "Play a real game" in page
    assert "Learn Durak in five minutes" not in client_for(alice).get("/").content.decode()
