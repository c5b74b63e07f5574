"""A year of data (docs/design.md): the leaderboards' counts on the rating rows, each
finished seat's loss, and the indexes the long lists need; the counts filled in for the
games already played."""

from django.conf import settings
from django.db import migrations, models
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce

BRACKETS = {"games_2": (2, 2), "games_3_4": (3, 4), "games_5_6": (5, 6)}


def count_brackets(apps, schema_editor):
    Rating = apps.get_model("games", "Rating")
    RatingChange = apps.get_model("games", "RatingChange")
    for field, (low, high) in BRACKETS.items():
        counted = (RatingChange.objects.filter(
            player=OuterRef("player"), pool="individual", players__gte=low, players__lte=high)
            .order_by().values("player").annotate(n=Count("pk")).values("n"))
        Rating.objects.filter(pool="individual").update(
            **{field: Coalesce(Subquery(counted), 0)})


def mark_losers(apps, schema_editor):
    """Seat.lost of every finished match, from its saved state (as services.ratings.places
    reads it: deals lost, a forfeit last)."""
    from games.engine import Match

    Game = apps.get_model("games", "Game")
    Seat = apps.get_model("games", "Seat")
    finished = (Game.objects.filter(status="finished").exclude(state="")
                .only("pk", "state", "forfeited_seat").order_by("pk"))
    batch: list[int] = []
    losers = Q(pk__in=[])
    for game in finished.iterator(chunk_size=500):
        match = Match.from_json(game.state)
        losses = dict(match.losses)
        if game.forfeited_seat is not None:
            losses[match.rules.team_of(game.forfeited_seat)] = max(losses.values()) + 1
        batch.append(game.pk)
        if len(set(losses.values())) > 1:
            worst = max(losses.values())
            losers |= Q(game_id=game.pk, team__in=[s for s, n in losses.items() if n == worst])
        if len(batch) >= 200:
            Seat.objects.filter(game_id__in=batch).update(lost=False)
            Seat.objects.filter(losers).update(lost=True)
            batch, losers = [], Q(pk__in=[])
    if batch:
        Seat.objects.filter(game_id__in=batch).update(lost=False)
        Seat.objects.filter(losers).update(lost=True)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0024_push_failures'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='rating',
            name='games_2',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='rating',
            name='games_3_4',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='rating',
            name='games_5_6',
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name='seat',
            name='lost',
            field=models.BooleanField(blank=True, editable=False, null=True, verbose_name='lost the match'),
        ),
        migrations.AddIndex(
            model_name='seat',
            index=models.Index(fields=['player', '-game'], name='seat_player_newest'),
        ),
        migrations.AddIndex(
            model_name='ratingchange',
            index=models.Index(fields=['player', 'pool', 'at'], name='rating_change_history'),
        ),
        migrations.RunPython(count_brackets, migrations.RunPython.noop, elidable=True),
        migrations.RunPython(mark_losers, migrations.RunPython.noop, elidable=True),
    ]
