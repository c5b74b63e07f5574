"""What one socket's reader has been sent of a table, and the next frame for them: after a
move only what changed (fragments.frame), else the whole table; an anonymous watcher's
frame is shared by every watcher of the same view in the process (fragments.watched).
The socket (games/live/table.py) only sends what this gives it."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from accounts.models import Player

from ..models import Game
from . import fragments, render, snapshots


class TableReader:
    """One reader of one table over one socket: who they are, where they read it, and what
    their page shows after the frames sent so far."""

    def __init__(self, game_id: int, user: Player | Any, *, invite: str, site_root: str,
                 language: str, time_zone: str | None):
        self.game_id, self.user, self.invite = game_id, user, invite
        self.site_root, self.language, self.time_zone = site_root, language, time_zone
        self.signed_in = user is not None and user.is_authenticated
        self.sent_version = -1  # the newest version sent
        self.whole_version = -1  # the version of the last whole table sent
        self.shown: fragments.Shown | None = None  # what the page shows after those frames

    def watch_key(self, version: int) -> tuple[object, ...] | None:
        """What an anonymous watcher's frame of `version` depends on besides the frame
        before it (None: a signed-in reader's table is their own)."""
        if self.signed_in:
            return None
        return (self.game_id, version, self.invite, self.site_root, self.language,
                self.time_zone)

    def shared_frame(self, message: dict[str, Any]) -> tuple[Hashable, ...] | None:
        """The name of the frame this anonymous watcher is to be sent for a group event,
        shared by every watcher of the same view coming from the same table; None when the
        frame is this reader's own."""
        version = message.get("version")
        if (message.get("type") != "game.changed" or self.signed_in
                or not isinstance(version, int) or self.shown is None
                or version != self.sent_version + 1 or self.shown.version != self.sent_version):
            return None
        return (self.watch_key(version), self.shown)

    def take_watched(self, shared: tuple[Hashable, ...], csrf_token: str) -> str | None:
        """The kept frame `shared` with this reader's CSRF token, noted as sent; None if none
        is kept yet."""
        key, before = shared
        assert isinstance(before, fragments.Shown)
        if self.shown != before:
            return None
        found = fragments.watched(key, before, csrf_token=csrf_token)
        if found is None:
            return None
        html, self.shown = found
        self.sent_version = self.shown.version
        return html

    def frames(self, *, csrf_token: str, message: str | None = None, version: int | None = None,
               carried: object = None) -> list[str] | None:
        """The frames that bring the reader's page to `version` (None: as it is now;
        `carried`, the rows the group event brought); None when the table is gone. Every
        socket reading the same view at a version shares one render (render.table_view)."""
        found = snapshots.at(self.game_id, version, carried)  # read once per version for all
        if found is None:
            return None
        game, seats = found
        view = render.table_view(game, self.user, invite=self.invite, message=message,
                                 seats=seats, site_root=self.site_root, zone=self.time_zone)
        made = None
        if version is not None and self.shown is not None:  # a push: what changed, if it may
            made = fragments.frame(view, self.shown, csrf_token=csrf_token,
                                   shared_as=self.watch_key(game.version))
        if made is not None:
            html, self.shown = made
        else:  # on connect, a sync, a refusal, a gap, a new deal: the whole table
            html = view.html(csrf_token=csrf_token, oob=True)
            self.shown = fragments.shown(view)
            self.whole_version = game.version
        self.sent_version = max(self.sent_version, game.version)
        sent = [html]
        if game.status == Game.Status.ABORTED:  # a cancelled table's chat closes
            sent.append(render.chat_html(game, self.user, self.invite, csrf_token=csrf_token))
        return sent
