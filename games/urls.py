"""The game's pages and the htmx answers under them: the lobby, My games, a table and its
changes (join, leave, start, play, chat, resign, rematch…), replays, leaderboards,
tournaments."""

from django.conf import settings
from django.urls import path, re_path

from .views import deals, device, friends, history, ladder, lobby, table, tournament

LANGS = "|".join(code for code, _name in settings.LANGUAGES)  # the manifest's and offline page's

urlpatterns = [
    path("", lobby.lobby, name="lobby"),
    path("sw.js", device.service_worker, name="service_worker"),
    path("manifest.webmanifest", device.manifest, name="manifest"),
    path("offline/", device.offline, name="offline"),
    re_path(rf"^offline/(?P<lang>{LANGS})/$", device.offline, name="offline_in"),
    re_path(rf"^manifest\.(?P<lang>{LANGS})\.webmanifest$", device.manifest, name="manifest_in"),
    path("push/subscribe/", device.push_subscribe, name="push_subscribe"),
    path("push/unsubscribe/", device.push_unsubscribe, name="push_unsubscribe"),
    path("games/new/", lobby.create, name="create_game"),
    path("games/mine/", lobby.my_games, name="my_games"),
    path("games/next/", lobby.next_game, name="next_game"),
    path("games/quick/", lobby.quick_match, name="quick_match"),
    path("learn/", lobby.learn, name="learn"),
    path("games/challenge/", lobby.challenge, name="challenge"),
    path("games/<int:game_id>/challenge/", lobby.answer_challenge, name="answer_challenge"),
    path("games/vacation/", lobby.vacation, name="vacation"),
    path("games/<int:game_id>/", table.table, name="table"),
    path("games/<int:game_id>/join/", table.join, name="join"),
    path("games/<int:game_id>/guest/", table.play_as_guest, name="play_as_guest"),
    path("games/<int:game_id>/leave/", table.leave, name="leave"),
    path("games/<int:game_id>/start/", table.start, name="start"),
    path("games/<int:game_id>/abort/", table.abort, name="abort"),
    path("games/<int:game_id>/resume/", table.resume, name="resume"),
    path("games/<int:game_id>/claim/", table.claim, name="claim"),
    path("games/<int:game_id>/play/", table.play, name="play"),
    path("games/<int:game_id>/hint/", table.hint, name="hint"),
    path("games/<int:game_id>/orders/", table.orders, name="orders"),
    path("games/<int:game_id>/replay/", history.replay_page, name="replay"),
    path("games/<int:game_id>/review/", history.ask_review, name="ask_review"),
    path("games/<int:game_id>/export.json", history.export_game, name="export_game"),
    path("leaderboards/", history.leaderboards, name="leaderboards"),
    path("leaderboards/computer/", ladder.bot_ladder, name="bot_ladder"),
    path("deals/check/", deals.check_deal, name="check_deal"),
    path("games/<int:game_id>/check/", deals.check_game, name="check_game"),
    path("games/<int:game_id>/deals/<int:number>/", table.deal_record, name="deal_record"),
    path("games/<int:game_id>/resign/", table.resign, name="resign"),
    path("games/<int:game_id>/rematch/", table.rematch, name="rematch"),
    path("games/<int:game_id>/chat/", table.chat, name="chat"),
    path("games/<int:game_id>/mute/", table.mute, name="mute"),
    path("friends/", friends.friends, name="friends"),
    path("friends/<str:username>/", friends.change, name="friend_change"),
    path("friends/<str:username>/challenge/", friends.challenge, name="challenge_friend"),
    path("tournaments/", tournament.tournaments, name="tournaments"),
    path("tournaments/new/", tournament.create, name="create_tournament"),
    path("tournaments/<int:tournament_id>/", tournament.tournament, name="tournament"),
    path("tournaments/<int:tournament_id>/join/", tournament.join, name="join_tournament"),
    path("tournaments/<int:tournament_id>/guest/", tournament.play_as_guest,
         name="tournament_guest"),
    path("tournaments/<int:tournament_id>/leave/", tournament.leave, name="leave_tournament"),
    path("tournaments/<int:tournament_id>/start/", tournament.start, name="start_tournament"),
    path("tournaments/<int:tournament_id>/cancel/", tournament.cancel, name="cancel_tournament"),
]
