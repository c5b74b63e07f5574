"""The game's pages and the htmx answers under them: the lobby, My games, a table and its
changes (join, leave, start, play, chat, resign, rematch…), replays, leaderboards."""

from django.urls import path

from . import history_views, lobby_views, views

urlpatterns = [
    path("", lobby_views.lobby, name="lobby"),
    path("games/new/", lobby_views.create, name="create_game"),
    path("games/mine/", lobby_views.my_games, name="my_games"),
    path("games/quick/", lobby_views.quick_match, name="quick_match"),
    path("games/challenge/", lobby_views.challenge, name="challenge"),
    path("games/<int:game_id>/challenge/", lobby_views.answer_challenge, name="answer_challenge"),
    path("games/vacation/", lobby_views.vacation, name="vacation"),
    path("games/<int:game_id>/", views.table, name="table"),
    path("games/<int:game_id>/join/", views.join, name="join"),
    path("games/<int:game_id>/leave/", views.leave, name="leave"),
    path("games/<int:game_id>/start/", views.start, name="start"),
    path("games/<int:game_id>/abort/", views.abort, name="abort"),
    path("games/<int:game_id>/resume/", views.resume, name="resume"),
    path("games/<int:game_id>/claim/", views.claim, name="claim"),
    path("games/<int:game_id>/play/", views.play, name="play"),
    path("games/<int:game_id>/hint/", views.hint, name="hint"),
    path("games/<int:game_id>/replay/", history_views.replay_page, name="replay"),
    path("games/<int:game_id>/review/", history_views.ask_review, name="ask_review"),
    path("games/<int:game_id>/export.json", history_views.export_game, name="export_game"),
    path("leaderboards/", history_views.leaderboards, name="leaderboards"),
    path("games/<int:game_id>/deals/<int:number>/", views.deal_record, name="deal_record"),
    path("games/<int:game_id>/resign/", views.resign, name="resign"),
    path("games/<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("games/<int:game_id>/chat/", views.chat, name="chat"),
    path("games/<int:game_id>/mute/", views.mute, name="mute"),
]
