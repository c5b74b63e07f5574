"""Tournaments' pages: the lobby's list, a tournament's page (standings, rounds, links to
tables), join and leave, a private one made among friends, the admin's actions (logged)
and the live standings over the navigation socket."""

import re
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.admin.models import LogEntry
from django.test import Client

from durak_site.asgi import application
from games import services
from games.models import Entry, Rating, Tournament
from tests.games.test_live import session_headers

from .conftest import play_round

T = services.tournament


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def cup(staff, short):
    return T.create_tournament(staff, short, name="Winter cup", move_time=timedelta(hours=1))


@pytest.mark.django_db
def test_the_lobby_lists_open_tournaments(client, cup):
    page = client.get("/").content.decode()
    assert "Winter cup" in page and cup.get_absolute_url() in page
    assert "Winter cup" in client.get("/tournaments/").content.decode()


@pytest.mark.django_db
def test_join_leave_and_play_from_the_page(cup, field, staff, seeded, frozen):
    a, b = field(2)
    for player in (a, b):
        response = client_for(player).post(f"/tournaments/{cup.pk}/join/")
        assert response.status_code == 302
    assert Entry.objects.filter(tournament=cup).count() == 2
    client_for(b).post(f"/tournaments/{cup.pk}/leave/")
    client_for(b).post(f"/tournaments/{cup.pk}/join/")
    page = client_for(a).get(cup.get_absolute_url()).content.decode()
    assert "Leave the tournament" in page and "2 players entered" in page
    # A provisional "?" by an entrant's name is said in words under the field (for phones)
    Rating.objects.create(player=a, pool=Rating.Pool.INDIVIDUAL, mu=25.0, sigma=8.0, games=1)
    page = client_for(a).get(cup.get_absolute_url()).content.decode()
    field_list = re.search(r'<ul class="field">(.*?)</ul>\s*<p class="helptext rating-key">'
                           r'A question mark after a rating means', page, re.S)
    assert field_list and 'class="rating provisional"' in field_list.group(1)
    assert client_for(a).post(f"/tournaments/{cup.pk}/start/").status_code == 302
    assert Tournament.objects.get(pk=cup.pk).is_open  # only staff start a public one
    client_for(staff).post(f"/tournaments/{cup.pk}/start/")
    cup.refresh_from_db()
    game = cup.round_set.get().tables.get().game
    page = client_for(a).get(cup.get_absolute_url()).content.decode()
    assert f'href="{game.get_absolute_url()}' in page and "Round 1" in page
    assert 'id="standings"' in page
    play_round(cup)
    page = client_for(a).get(cup.get_absolute_url()).content.decode()
    assert "Round 2" in page


@pytest.mark.django_db
def test_a_private_tournament_made_from_the_form(field, short, seeded):
    maker, friend, stranger = field(3)
    response = client_for(maker).post("/tournaments/new/", {
        "name": "Friday night", "preset": short.pk, "kind": "swiss", "table_size": 2,
        "rounds": 3, "round_time": 86400, "rated": "casual", "move_time": 3600,
        "once": "abc"})
    assert response.status_code == 302, response.content.decode()[:2000]
    made = Tournament.objects.get(name="Friday night")
    assert made.private and not made.rated and made.rounds == 3
    assert response.url == made.invite_url
    assert client_for(stranger).get(made.get_absolute_url()).status_code == 404
    assert client_for(friend).get(made.invite_url).status_code == 200
    client_for(friend).post(f"/tournaments/{made.pk}/join/", {"invite": made.invite_token})
    assert made.entries.count() == 2
    # A player may not list one in the lobby.
    response = client_for(maker).post("/tournaments/new/", {
        "name": "Everyone", "preset": short.pk, "kind": "swiss", "table_size": 2,
        "rounds": 3, "round_time": 86400, "public": "on"})
    assert response.status_code == 403


@pytest.mark.django_db
def test_the_admin_starts_withdraws_and_cancels_and_logs_it(cup, field, staff, seeded):
    staff.is_superuser = True
    staff.save()
    admin = client_for(staff)
    players = field(4)
    for player in players:
        T.join_tournament(cup.pk, player)
    admin.post("/admin/games/tournament/", {"action": "start_early",
                                            "_selected_action": [cup.pk]})
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.PLAYING
    entry = Entry.objects.get(tournament=cup, player=players[0])
    admin.post("/admin/games/entry/", {"action": "withdraw", "_selected_action": [entry.pk]})
    entry.refresh_from_db()
    assert entry.withdrawn_at is not None
    admin.post("/admin/games/tournament/", {"action": "cancel", "_selected_action": [cup.pk]})
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED
    logged = list(LogEntry.objects.filter(object_id=str(cup.pk)).values_list(
        "change_message", flat=True))
    assert len(logged) == 3 and any("Withdrew p01" in m for m in logged)
    assert admin.get(f"/admin/games/tournament/{cup.pk}/change/").status_code == 200
    response = admin.post("/admin/games/tournament/add/", {
        "name": "Autumn", "preset": cup.preset_id, "kind": "swiss", "table_size": 2,
        "rounds": 3, "deals": 1, "time_control": "move", "move_time": "1:00:00",
        "round_time": "3 00:00:00", "max_players": 64, "rated": "on",
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Autumn").created_by == staff


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_standings_update_live_on_the_tournament_page(field, staff, short):
    cup = await sync_to_async(T.create_tournament)(staff, short, name="Live cup",
                                                   move_time=timedelta(hours=1))
    (watcher,) = await sync_to_async(field)(1)
    headers = await sync_to_async(session_headers)(watcher)
    comm = WebsocketCommunicator(application, f"/ws/me/?page=tournament&tournament={cup.pk}",
                                 headers=headers)
    connected, _ = await comm.connect()
    assert connected
    await comm.receive_from(timeout=3)  # the navigation's count
    await sync_to_async(T.join_tournament)(cup.pk, watcher)
    html = await comm.receive_from(timeout=3)
    assert 'id="tournament-poke"' in html and 'hx-select="#tournament-live"' in html
    await comm.disconnect()


@pytest.mark.django_db
def test_the_standings_explain_the_tiebreak_in_words_and_shorten_headers_on_a_phone(
        cup, field, staff, seeded, frozen):
    players = field(2)
    for player in players:
        client_for(player).post(f"/tournaments/{cup.pk}/join/")
    client_for(staff).post(f"/tournaments/{cup.pk}/start/")
    page = client_for(players[0]).get(cup.get_absolute_url()).content.decode()
    standings = page[page.index('id="standings"'):page.index("</section>", page.index('id="standings"'))]
    # The tiebreak in visible words, not only in a tooltip.
    visible = re.sub(r"<[^>]+>", " ", standings)
    assert "Equal points are split by Buchholz (the points of everyone a player met)" in visible
    # Each header's short form for a phone is an <abbr> whose title is its whole name.
    for whole, short in (("Points", "Pts"), ("Deals lost", "Lost"), ("Played", "Pl.")):
        assert f'<abbr class="short" title="{whole}">{short}</abbr>' in standings
    assert '<span class="short">Bch</span>' in standings
    ru = client_for(players[0]).get(cup.get_absolute_url(),
                                    HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "При равенстве очков выше тот, у кого больше Бухгольц" in ru



@pytest.mark.django_db
def test_a_move_never_gets_more_time_than_its_round(field, short, staff, seeded):
    (maker,) = field(1)
    short.move_time = timedelta(days=1)  # the rules' own day a move, in rounds of an hour
    short.save()
    response = client_for(maker).post("/tournaments/new/", {
        "name": "Quick", "preset": short.pk, "kind": "swiss", "table_size": 2,
        "rounds": 3, "round_time": 3600, "rated": "casual", "once": "abc"})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Quick").move_time == timedelta(hours=1)
    staff.is_superuser = True
    staff.save()
    response = client_for(staff).post("/admin/games/tournament/add/", {
        "name": "Admin's", "preset": short.pk, "kind": "swiss", "table_size": 2,
        "rounds": 3, "deals": 1, "time_control": "move", "move_time": "1 00:00:00",
        "round_time": "1:00:00", "max_players": 64, "rated": "on",
        "entries-TOTAL_FORMS": 0, "entries-INITIAL_FORMS": 0})
    assert response.status_code == 302
    assert Tournament.objects.get(name="Admin's").move_time == timedelta(hours=1)
    made = T.create_tournament(staff, short, name="Fits", move_time=timedelta(minutes=5),
                               round_time=timedelta(hours=1))
    assert made.move_time == timedelta(minutes=5)


@pytest.mark.django_db
def test_a_tournament_table_says_whose_it_is_and_offers_no_rematch(cup, field, staff, seeded,
                                                                   frozen):
    from tests.games.playout import play_out

    a, b = field(2)
    for player in (a, b):
        T.join_tournament(cup.pk, player)
    T.start_tournament(cup.pk, staff)
    game = cup.round_set.get().tables.get().game
    page = client_for(a).get(f"/games/{game.pk}/").content.decode()
    line = re.search(r'<p class="tournament-line">(.*?)</p>', page, re.S)
    assert line and cup.get_absolute_url() in line.group(1) and "Winter cup" in line.group(1)
    assert "round 1 ends" in line.group(1) and "<time datetime=" in line.group(1)
    play_out(game, seed=3)
    page = client_for(a).get(f"/games/{game.pk}/").content.decode()
    assert "Back to Winter cup" in page
    assert "Rematch" not in page and "New game with these rules" not in page
    response = client_for(a).post(f"/games/{game.pk}/rematch/")
    assert response.status_code == 409 and "no rematch" in response.content.decode()
    # any other table has neither
    other = services.create_game(a, cup.preset, players=2)
    assert "tournament-line" not in client_for(a).get(f"/games/{other.pk}/").content.decode()
