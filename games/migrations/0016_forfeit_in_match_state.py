"""A match forfeited out of time (section 10) keeps its forfeit in its saved state
(`Match.forfeit`, "forfeited": the seat), so that its outcome is a forfeit; games forfeited
before say so from their row (`Game.forfeited_seat`). Reversed, the key is dropped."""

import json

from django.db import migrations


def set_forfeited(apps, seat_of):
    """Each forfeited game's state gets "forfeited" = seat_of(game), or loses it (None)."""
    Game = apps.get_model("games", "Game")
    forfeited = Game.objects.filter(forfeited_seat__isnull=False).exclude(state="")
    for game in forfeited.only("pk", "state", "forfeited_seat").iterator():
        state = json.loads(game.state)
        seat = seat_of(game)
        if state.get("forfeited") == seat:
            continue
        if seat is None:
            del state["forfeited"]
        else:
            state["forfeited"] = seat
        game.state = json.dumps(state, separators=(",", ":"))
        game.save(update_fields=["state"])


def forwards(apps, schema_editor):
    set_forfeited(apps, lambda game: game.forfeited_seat)


def backwards(apps, schema_editor):
    set_forfeited(apps, lambda game: None)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0015_deadline_sweep'),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
