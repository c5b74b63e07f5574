"""The table chat (games.services.chat, the chat frames of games.live.table): seated players
write; they and the watchers of a public game read; escaped, length- and rate-limited; a
player may mute another; nothing of it in a game you can't see."""

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from games import limits, services
from games.models import ChatMessage, ChatMute
from games.services import chat

from .conftest import client_for, table_url
from .leaks import assert_frames_no_leak
from .test_live import connect, deal_of, receive_table

CHAT_URL = "/games/{}/chat/"


def post(client, game, htmx=True, **data):
    return client.post(CHAT_URL.format(game.pk), data,
                       headers={"HX-Request": "true"} if htmx else {})


@pytest.fixture
def hidden(alice, bob, classic, seeded):
    """A private two-player game between alice and bob."""
    game = services.create_game(alice, classic, players=2, private=True,
                                move_time=timedelta(hours=1))
    services.join_game(game.pk, bob, invite_token=game.invite_token)
    return game


# ----------------------------------------------------------------------------- writing
@pytest.mark.django_db
def test_a_player_writes_and_everybody_at_a_public_table_reads_it(duel, alice, bob, carol):
    r = post(client_for(alice), duel, chat="  Hello   <b>bob</b>  ")
    assert r.status_code == 200
    message = ChatMessage.objects.get()
    assert (message.author, message.text) == (alice, "Hello <b>bob</b>")
    for user in (bob, carol):  # the opponent, and a spectator of a public game
        body = client_for(user).get(table_url(duel)).content.decode()
        assert "Hello &lt;b&gt;bob&lt;/b&gt;" in body and "<b>bob</b>" not in body


@pytest.mark.django_db
def test_a_logged_out_visitor_reads_a_public_tables_chat(duel, alice, client):
    chat.post(duel.pk, alice, text="Good luck")
    body = client.get(table_url(duel)).content.decode()
    assert "Good luck" in body and 'id="chat-form"' not in body


@pytest.mark.django_db
def test_quick_phrases_are_worded_for_each_reader(duel, alice, bob):
    r = post(client_for(bob), duel, phrase="turn")
    assert r.status_code == 200
    assert ChatMessage.objects.get().phrase == "turn"
    body = client_for(alice).get(table_url(duel)).content.decode()
    assert "Your turn!" in body
    alice.language = "ru"  # alice reads the site in Russian
    alice.save(update_fields=["language"])
    assert "Твой ход!" in client_for(alice).get(table_url(duel)).content.decode()
    assert post(client_for(bob), duel, phrase="nonsense").status_code == 400


@pytest.mark.django_db
@pytest.mark.parametrize("text, why", [
    ("", "Write something first."),
    ("   \n\t ", "Write something first."),
    ("x" * 301, "A message holds at most 300 characters."),
])
def test_bad_messages_are_refused_with_a_reason(duel, alice, text, why):
    r = post(client_for(alice), duel, chat=text)
    assert r.status_code == 400 and why in r.content.decode()
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_control_characters_are_dropped_and_300_characters_fit(duel, alice):
    chat.post(duel.pk, alice, text="a\x00b\u202ec" + "x" * 295)
    assert ChatMessage.objects.get().text == "a b c" + "x" * 295


@pytest.mark.parametrize("text, kept", [
    ("\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466", None),  # a family
    ("\U0001f469\U0001f3fd\u200d\U0001f4bb good game", None),  # a woman coding, skin tone
    ("\u2764\ufe0f\u200d\U0001f525", None),  # a heart on fire (after a variation mark)
    ("a\u200db", "a b"),  # between letters a joiner is only hidden text
    ("\u200d\U0001f600\u200d", "\U0001f600"),  # at either end it joins nothing
])
def test_emoji_joined_by_a_zero_width_joiner_stay_whole(duel, alice, text, kept):
    chat.post(duel.pk, alice, text=text)
    assert ChatMessage.objects.get().text == (text if kept is None else kept)


@pytest.mark.django_db
def test_writing_too_fast_is_refused(duel, alice, bob):
    for i in range(limits.window("chat").allowed):
        chat.post(duel.pk, alice, text=f"line {i}")
    r = post(client_for(alice), duel, chat="one more")
    assert r.status_code == 429 and "too fast" in r.content.decode()
    assert ChatMessage.objects.count() == limits.window("chat").allowed
    chat.post(duel.pk, bob, text="bob may still write")
    ChatMessage.objects.update(at=ChatMessage.objects.first().at - limits.window("chat").length)
    chat.post(duel.pk, alice, text="later it's fine")


@pytest.mark.django_db
def test_only_seated_players_write(duel, carol, hidden):
    r = post(client_for(carol), duel, chat="hi")
    assert r.status_code == 403 and "Only the players at this table" in r.content.decode()
    assert post(client_for(carol), hidden, chat="hi").status_code == 404
    assert client_for(carol).get(CHAT_URL.format(duel.pk)).status_code == 405
    with pytest.raises(services.Forbidden):
        chat.post(duel.pk, None, text="hi")
    assert not ChatMessage.objects.exists()


@pytest.mark.django_db
def test_a_cancelled_tables_chat_is_closed(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=3, move_time=timedelta(hours=1))
    services.join_game(game.pk, bob)
    chat.post(game.pk, bob, text="see you")
    services.abort_game(game.pk, alice)
    r = post(client_for(alice), game, chat="hello?")
    assert r.status_code == 409 and "chat is closed" in r.content.decode()
    assert list(ChatMessage.objects.values_list("text", flat=True)) == ["see you"]
    body = client_for(alice).get(table_url(game)).content.decode()
    assert "see you" in body and 'id="chat-form"' not in body and "chat is closed" in body
    quiet = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
    services.abort_game(quiet.pk, alice)  # nothing was said: no chat box at all
    assert 'id="chat-lines"' not in client_for(alice).get(table_url(quiet)).content.decode()


@pytest.mark.django_db
def test_no_chat_in_a_private_game_for_those_who_are_not_seated(hidden, alice, carol):
    chat.post(hidden.pk, alice, text="just between us")
    invited = client_for(carol).get(table_url(hidden) + f"?invite={hidden.invite_token}")
    assert invited.status_code == 200  # an invite holder may watch the table…
    body = invited.content.decode()
    assert "just between us" not in body and 'id="chat-lines"' not in body  # …not the chat
    assert "just between us" in client_for(alice).get(table_url(hidden)).content.decode()


@pytest.mark.django_db
def test_a_muted_player_is_not_shown(duel, alice, bob, carol):
    chat.post(duel.pk, bob, text="spam spam")
    chat.post(duel.pk, alice, text="mine")
    c = client_for(alice)
    body = c.get(table_url(duel)).content.decode()
    assert 'aria-label="Mute bob"' in body and 'aria-label="Mute alice"' not in body
    r = c.post(f"/games/{duel.pk}/mute/", {"player": bob.pk, "muted": "1"},
               headers={"HX-Request": "true"})
    assert r.status_code == 200
    body = r.content.decode()
    assert "spam spam" not in body and "Unmute bob" in body and "mine" in body
    assert ChatMute.objects.filter(user=alice, muted=bob).exists()
    assert "spam spam" in client_for(bob).get(table_url(duel)).content.decode()
    assert "spam spam" not in c.get(table_url(duel)).content.decode()  # it lasts
    c.post(f"/games/{duel.pk}/mute/", {"player": bob.pk, "muted": "0"})
    assert "spam spam" in c.get(table_url(duel)).content.decode()
    for bad in ({"player": alice.pk, "muted": "1"}, {"player": carol.pk, "muted": "1"},
                {"player": "x"}, {}):
        r = c.post(f"/games/{duel.pk}/mute/", bad, headers={"HX-Request": "true"})
        assert r.status_code == 400
    assert not ChatMute.objects.exists()


@pytest.mark.django_db
def test_the_chat_form_works_without_the_socket(duel, alice):
    r = post(client_for(alice), duel, htmx=False, chat="plain form")
    assert r.status_code == 302 and r.url == table_url(duel)
    r = post(client_for(alice), duel, htmx=False, chat="")
    assert r.status_code == 400 and "Write something first." in r.content.decode()


# ----------------------------------------------------------------------------- live
def chat_frame(html):
    assert 'hx-swap-oob="beforeend:#chat-lines"' in html, html[:200]
    return html


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.asyncio
async def test_chat_goes_live_over_the_table_socket(duel, alice, bob, carol):
    alice_ws, *_ = await connect(duel, alice)
    bob_ws, *_ = await connect(duel, bob)
    carol_ws, *_ = await connect(duel, carol)
    for comm in (alice_ws, bob_ws, carol_ws):
        await receive_table(comm)
    await alice_ws.send_json_to({"chat": "Good luck, <i>bob</i>", "HEADERS": {}})
    cleared = await alice_ws.receive_from(timeout=3)
    assert 'id="chat-error"' in cleared
    deal = await deal_of(duel)
    for comm, seat in ((alice_ws, 0), (bob_ws, 1), (carol_ws, None)):
        html = chat_frame(await comm.receive_from(timeout=3))
        assert "Good luck, &lt;i&gt;bob&lt;/i&gt;" in html and "alice" in html
        seen = await sync_to_async(assert_frames_no_leak)([html, cleared], deal, seat)
        assert seen == {"chat": 2, "result": 0}
    await bob_ws.send_json_to({"phrase": "gg"})
    html = chat_frame(await alice_ws.receive_from(timeout=3))
    assert "Good game" in html
    for comm in (alice_ws, bob_ws, carol_ws):
        await comm.disconnect()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.asyncio
async def test_a_refused_chat_message_is_answered_to_the_writer_only(duel, alice, carol):
    alice_ws, *_ = await connect(duel, alice)
    carol_ws, *_ = await connect(duel, carol)
    await receive_table(alice_ws)
    await receive_table(carol_ws)
    await alice_ws.send_json_to({"chat": "x" * 400})
    html = await alice_ws.receive_from(timeout=3)
    assert 'id="chat-error"' in html and "at most 300 characters" in html
    await carol_ws.send_json_to({"chat": "let me in"})  # a spectator can't write
    html = await carol_ws.receive_from(timeout=3)
    assert "Only the players at this table" in html
    assert await alice_ws.receive_nothing(timeout=0.3)
    assert await sync_to_async(ChatMessage.objects.count)() == 0
    await alice_ws.disconnect()
    await carol_ws.disconnect()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.asyncio
async def test_chat_frames_skip_muted_writers_and_private_spectators(hidden, alice, bob, carol):
    await sync_to_async(ChatMute.objects.create)(user=alice, muted=bob)
    alice_ws, *_ = await connect(hidden, alice)
    bob_ws, *_ = await connect(hidden, bob)
    carol_ws, ok, _ = await connect(hidden, carol, query=f"?invite={hidden.invite_token}")
    assert ok
    for comm in (alice_ws, bob_ws, carol_ws):
        await receive_table(comm)
    await sync_to_async(chat.post)(hidden.pk, bob, text="secret plan")
    assert "secret plan" in chat_frame(await bob_ws.receive_from(timeout=3))
    assert await alice_ws.receive_nothing(timeout=0.3)  # she muted bob
    assert await carol_ws.receive_nothing(timeout=0.3)  # a private game's chat is its players'
    for comm in (alice_ws, bob_ws, carol_ws):
        await comm.disconnect()


@pytest.mark.django_db
def test_taking_a_seat_brings_a_chat_you_can_write_in(alice, bob, classic, seeded):
    game = services.create_game(alice, classic, players=2, move_time=timedelta(hours=1))
    c = client_for(bob)
    before = c.get(table_url(game)).content.decode()
    assert 'id="chat"' in before and 'id="chat-form"' not in before  # reading only
    r = c.post(f"/games/{game.pk}/join/", headers={"HX-Request": "true"})
    assert r.status_code == 200
    body = r.content.decode()
    chat_part = body[body.index('<section id="chat"'):]
    assert 'hx-swap-oob="true"' in chat_part[:200] and 'id="chat-form"' in chat_part
    # Leaving the seat of a private table takes the chat away again.
    private = services.create_game(alice, classic, players=3, private=True,
                                   move_time=timedelta(hours=1))
    services.join_game(private.pk, bob, invite_token=private.invite_token)
    r = c.post(f"/games/{private.pk}/leave/", headers={"HX-Request": "true"})
    assert '<div id="chat" hidden hx-swap-oob="true"></div>' in r.content.decode()


@pytest.mark.django_db(transaction=True, serialized_rollback=True)
@pytest.mark.asyncio
async def test_cancelling_a_table_closes_its_chat_on_the_open_pages(alice, bob, classic, seeded):
    game = await sync_to_async(services.create_game)(alice, classic, players=3,
                                                     move_time=timedelta(hours=1))
    await sync_to_async(services.join_game)(game.pk, bob)
    await sync_to_async(chat.post)(game.pk, bob, text="see you")
    bob_ws, *_ = await connect(game, bob)
    await receive_table(bob_ws)
    await sync_to_async(services.abort_game)(game.pk, alice)
    await receive_table(bob_ws)
    html = await bob_ws.receive_from(timeout=3)
    assert 'id="chat" class="chat panel" aria-labelledby="chat-title" hx-swap-oob="true"' in html
    assert "see you" in html and "chat is closed" in html and 'id="chat-form"' not in html
    await bob_ws.disconnect()
