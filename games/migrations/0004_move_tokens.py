"""The move log holds action tokens ("attack:7S", "defend:7S:9S", "take", "create"…)
instead of action dicts; rows written before are converted (and back, on reversal)."""

from django.db import migrations

CARDS = {"attack": ("card",), "transfer": ("card",), "defend": ("attack", "card")}


def token(item):
    """{"type": "defend", "attack": "7S", "card": "9S"} -> "defend:7S:9S"; tokens stay."""
    if not isinstance(item, dict):
        return item
    kind = str(item.get("type", ""))
    return ":".join([kind, *(str(item.get(field, "")) for field in CARDS.get(kind, ()))])


def to_dict(item):
    if not isinstance(item, str):
        return item
    kind, *cards = item.split(":")
    return {"type": kind, **dict(zip(CARDS.get(kind, ()), cards))}


def convert(apps, change):
    Move = apps.get_model("games", "Move")
    batch = []
    for move in Move.objects.only("pk", "actions").iterator(chunk_size=2000):
        actions = [change(item) for item in move.actions or []]
        if actions != move.actions:
            move.actions = actions
            batch.append(move)
        if len(batch) >= 500:
            Move.objects.bulk_update(batch, ["actions"])
            batch = []
    Move.objects.bulk_update(batch, ["actions"])


def forwards(apps, schema_editor):
    convert(apps, token)


def backwards(apps, schema_editor):
    convert(apps, to_dict)


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0003_reminders'),
    ]

    operations = [
        migrations.RunPython(forwards, backwards),
    ]
