"""Seed the rule presets the site starts with (combinations of the options of
docs/rules.md section 9)."""

from django.db import migrations

# English only: 0017 gives them their other languages (games/translation.py).

PRESETS = [
    dict(
        name="Classic", position=10, min_players=2, max_players=6,
        description=(
            "Podkidnoy Durak as most people play it: 36 cards, six in hand, everybody "
            "may throw in (only the defender's neighbours at five or six players), trump 6 "
            "exchange."),
    ),
    dict(
        name="Perevodnoy (transfer)", position=20, min_players=2, max_players=6, transfer=True,
        description=(
            "Transfer durak: before beating anything, the defender may pass the attack "
            "on by adding a card of the same rank."),
    ),
    dict(
        name="Pairs 2x2", position=30, min_players=4, max_players=4, teams="2x2",
        description=(
            "Four players in two pairs, partners sitting opposite. A pair loses when "
            "only its players still hold cards."),
    ),
    dict(
        name="Two teams of three", position=40, min_players=6, max_players=6, teams="2x3",
        description=(
            "Six players in two teams of three, seated alternately."),
    ),
    dict(
        name="Three pairs", position=50, min_players=6, max_players=6, teams="3x2",
        description=(
            "Six players in three pairs, partners sitting opposite."),
    ),
    dict(
        name="First bout five", position=60, min_players=2, max_players=6, first_bout_limit=5,
        description=(
            "Classic rules, but at most five cards may be played in the first bout of "
            "a deal."),
    ),
    dict(
        name="Prostoy", position=70, min_players=2, max_players=6, hand_size=5,
        throw_in="main_only",
        description=(
            "Simple durak: five cards in hand, and only the main attacker attacks."),
    ),
]


def seed(apps, schema_editor):
    RulePreset = apps.get_model("games", "RulePreset")
    for fields in PRESETS:
        RulePreset.objects.update_or_create(name=fields["name"], defaults=fields)


def unseed(apps, schema_editor):
    RulePreset = apps.get_model("games", "RulePreset")
    RulePreset.objects.filter(name__in=[p["name"] for p in PRESETS], games__isnull=True).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
    ]

    operations = [migrations.RunPython(seed, unseed)]
