"""The transfer preset's description spoke of a rule number: players read it."""

from django.db import migrations

OLD = ("Transfer durak: before beating anything, the defender may pass the attack on by "
       "adding a card of the same rank (R32).")
NEW = ("Transfer durak: before beating anything, the defender may pass the attack on by "
       "adding a card of the same rank.")


def reword(apps, schema_editor):
    apps.get_model("games", "RulePreset").objects.filter(description=OLD).update(description=NEW)


def back(apps, schema_editor):
    apps.get_model("games", "RulePreset").objects.filter(description=NEW).update(description=OLD)


class Migration(migrations.Migration):
    dependencies = [("games", "0009_merge_0005_ratings_0008_stand_in_counts")]
    operations = [migrations.RunPython(reword, back)]
