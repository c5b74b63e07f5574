"""A year of data (docs/design.md): the game's status, privacy, preset and finish time on
each seat, with the index a player's lists read them by; filled in for the seats already
there in one UPDATE ... FROM."""

import django.db.models.deletion
from django.db import migrations, models

FILL = """
UPDATE games_seat SET game_status = g.status, game_private = g.private,
    game_preset_id = g.preset_id, game_finished_at = g.finished_at
FROM games_game AS g WHERE g.id = games_seat.game_id
"""


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0026_merge_0025_deal_commitment_0025_indexes_for_a_year'),
    ]

    operations = [
        migrations.AddField(
            model_name='seat',
            name='game_status',
            field=models.CharField(choices=[('open', 'waiting for players'), ('playing', 'playing'), ('finished', 'finished'), ('aborted', 'aborted')], default='open', editable=False, max_length=8),
        ),
        migrations.AddField(
            model_name='seat',
            name='game_private',
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name='seat',
            name='game_preset',
            field=models.ForeignKey(db_index=False, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='games.rulepreset'),
        ),
        migrations.AddField(
            model_name='seat',
            name='game_finished_at',
            field=models.DateTimeField(editable=False, null=True),
        ),
        migrations.RunSQL(FILL, migrations.RunSQL.noop, elidable=False),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(fields=['player', 'game_status', '-game_finished_at', '-game'], name='seat_player_status_finished'),
        ),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(fields=['player', 'game_private', 'game_preset', 'lost', 'game'], name='seat_player_presets'),
        ),
    ]
