"""Look-alike, invisible and bot- or staff-claiming names, at sign-up and on the profile."""

import pytest
from django.contrib.auth import get_user_model

from accounts.names import skeleton_key

pytestmark = pytest.mark.django_db
SIGNUP = "/accounts/signup/"
PROFILE = "/accounts/profile/"
SECRET = "a-long-unusual-secret-42"

LOOK_ALIKE = "looks too much like another player"
MIXED = "mixes letters from different alphabets"
INVISIBLE = "invisible or control characters"
RESERVED = "kept for them"


def sign_up(client, username):
    return client.post(SIGNUP, {"username": username, "password1": SECRET, "password2": SECRET})


def set_display_name(client, name):
    return client.post(PROFILE, {"display_name": name, "email_reminders": "on"})


# ------------------------------------------------------------------------------- sign-up
@pytest.mark.parametrize(
    "username, reason",
    [
        ("\u0430dmin", MIXED),  # Cyrillic а, then Latin: mixed and confusable
        ("admin", RESERVED),
        ("Administrator", RESERVED),
        ("moderator_kate", RESERVED),
        ("staff", RESERVED),
        ("Bot", RESERVED),
        ("b0t", RESERVED),
        ("Computer2", RESERVED),
        ("бот", RESERVED),
        ("Компьютер", RESERVED),
        ("админ", RESERVED),
    ],
)
def test_sign_up_refuses_names_kept_for_bots_and_staff(client, username, reason):
    r = sign_up(client, username)
    assert r.status_code == 200
    assert reason in r.content.decode()
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("username", ["ALICE", "Alice", "\u0430lice", "a1ice", "alice\u200b"])
def test_sign_up_refuses_a_name_that_looks_like_a_player(client, alice, username):
    r = sign_up(client, username)
    assert r.status_code == 200
    body = r.content.decode()
    assert any(reason in body for reason in (
        LOOK_ALIKE, MIXED, INVISIBLE, "A user with that username already exists"))
    assert get_user_model().objects.count() == 1


def test_sign_up_refuses_a_name_like_another_players_display_name(client, alice):
    alice.display_name = "Queen of Spades"
    alice.save()
    r = sign_up(client, "queenofspades")
    assert r.status_code == 302  # different words: fine
    client.logout()
    bob_like = get_user_model().objects.create_user(username="b", display_name="Kolya")
    assert bob_like.display_name_skeleton
    r = sign_up(client, "kolya")
    assert r.status_code == 200
    assert LOOK_ALIKE in r.content.decode()


def test_sign_up_still_takes_ordinary_names(client, alice):
    for name in ["Botvinnik", "badminton_fan", "Иван", "Robot_Alice"]:
        r = sign_up(client, name)
        assert r.status_code == 302, name
        client.logout()
        assert get_user_model().objects.filter(username=name).exists()
    assert get_user_model().objects.count() == 5


# ------------------------------------------------------------------------------- profile
@pytest.mark.parametrize(
    "name, reason",
    [
        ("Computer 2 (expert)", RESERVED),
        ("Computer 3 (easy)", RESERVED),
        ("Компьютер 2 (эксперт)", RESERVED),
        ("Сomputer 2", MIXED),  # a Cyrillic С
        ("The Bot", RESERVED),
        ("Site Admin", RESERVED),
        ("Moderator", RESERVED),
        ("Staff member", RESERVED),
        ("bob", LOOK_ALIKE),
        ("B0B", LOOK_ALIKE),
        ("Bob the Great", None),  # fine: kept as a control
        ("\u202eecila", INVISIBLE),  # right-to-left override
        ("al\u200bice", INVISIBLE),  # zero-width space
        ("Mar\u200dia", INVISIBLE),  # zero-width joiner
        ("tab\there", INVISIBLE),  # a control character
        ("\u0431\u043eb", MIXED),  # Cyrillic б о + Latin b
    ],
)
def test_profile_refuses_spoofing_display_names(alice_client, alice, bob, name, reason):
    r = set_display_name(alice_client, name)
    alice.refresh_from_db()
    if reason is None:
        assert r.status_code == 302
        assert alice.display_name == name
        return
    assert r.status_code == 200
    assert reason in r.content.decode()
    assert alice.display_name == ""


def test_a_player_may_use_a_display_name_like_their_own_username(alice_client, alice):
    assert set_display_name(alice_client, "Alice").status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == "Alice"
    assert alice.display_name_skeleton == alice.username_skeleton == skeleton_key("alice")


def test_a_display_name_like_anothers_display_name_is_refused(alice_client, alice, bob):
    bob.display_name = "Dama Pik"
    bob.save()
    r = set_display_name(alice_client, "dama pik")
    assert r.status_code == 200
    assert LOOK_ALIKE in r.content.decode()
    alice.refresh_from_db()
    assert alice.display_name == ""


def test_a_very_long_skeleton_still_fits(alice_client, alice):
    # NFKC turns U+FDFA into 18 letters; the stored key has a fixed length all the same.
    name = "\ufdfa" * 40
    assert set_display_name(alice_client, name).status_code == 302
    alice.refresh_from_db()
    assert alice.display_name == name
    assert len(alice.display_name_skeleton) == 64


def test_a_name_held_already_does_not_block_saving(alice_client, alice):
    # A name from before these rules stays, and the rest of the profile can still be saved.
    get_user_model().objects.filter(pk=alice.pk).update(display_name="Bot Alice")
    r = alice_client.post(PROFILE, {"display_name": "Bot Alice"})
    assert r.status_code == 302
    alice.refresh_from_db()
    assert alice.email_reminders is False
