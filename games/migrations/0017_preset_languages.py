"""A rule preset's name and description in each language (games/translation.py,
django-modeltranslation). The seeded presets' translations lived in the catalogues, keyed by
the English text, and an admin's edit of that text lost them: they move into the rows here."""

from django.db import migrations, models

# The seeded presets (0002) in fi, nb and ru, as the catalogues had them.
SEEDED = {
    "Classic": {
        "fi": ("Klassinen",
               "Podkidnoy-durak niin kuin useimmat sitä pelaavat: 36 korttia, kuusi kädessä, "
               "kaikki saavat heittää sisään (viidellä tai kuudella pelaajalla vain puolustajan "
               "naapurit), valttikuutosen vaihto."),
        "nb": ("Klassisk",
               "Podkidnoy durak slik de fleste spiller det: 36 kort, seks på hånden, alle kan "
               "legge til (med fem eller seks spillere bare forsvarerens naboer), trumfbytte med "
               "sekseren."),
        "ru": ("Классический",
               "Подкидной дурак, как в него играет большинство: 36 карт, по шесть на руках, "
               "подкидывают все (при пяти-шести игроках — только соседи отбивающегося), обмен "
               "козырной шестёрки."),
    },
    "Perevodnoy (transfer)": {
        "fi": ("Perevodnoy (siirto)",
               "Siirtodurak: ennen kuin puolustaja kaataa mitään, hän voi siirtää hyökkäyksen "
               "eteenpäin lisäämällä samanarvoisen kortin."),
        "nb": ("Perevodnoy (sende videre)",
               "Durak med videresending: før forsvareren slår noe, kan hen sende angrepet videre "
               "ved å legge til et kort av samme valør."),
        "ru": ("Переводной",
               "Переводной дурак: пока ничего не побито, отбивающийся может перевести ход, "
               "добавив карту того же достоинства."),
    },
    "Pairs 2x2": {
        "fi": ("Parit 2x2",
               "Neljä pelaajaa kahtena parina, parit istuvat vastakkain. Pari häviää, kun vain "
               "sen pelaajilla on vielä kortteja."),
        "nb": ("Par 2x2",
               "Fire spillere i to par, makkerne sitter overfor hverandre. Et par taper når bare "
               "dets spillere har kort igjen."),
        "ru": ("Пары 2x2",
               "Четверо игроков, две пары, партнёры сидят друг напротив друга. Пара "
               "проигрывает, когда карты остались только у её игроков."),
    },
    "Two teams of three": {
        "fi": ("Kaksi kolmen joukkuetta",
               "Kuusi pelaajaa kahtena kolmen hengen joukkueena, istuvat vuorotellen."),
        "nb": ("To lag på tre", "Seks spillere i to lag på tre, som sitter annenhver."),
        "ru": ("Две команды по трое",
               "Шестеро игроков, две команды по трое, сидят через одного."),
    },
    "Three pairs": {
        "fi": ("Kolme paria", "Kuusi pelaajaa kolmena parina, parit istuvat vastakkain."),
        "nb": ("Tre par", "Seks spillere i tre par, makkerne sitter overfor hverandre."),
        "ru": ("Три пары", "Шестеро игроков, три пары, партнёры сидят друг напротив друга."),
    },
    "First bout five": {
        "fi": ("Ensimmäisessä hyökkäyksessä viisi",
               "Klassiset säännöt, mutta jaon ensimmäisessä hyökkäyksessä saa pelata enintään "
               "viisi korttia."),
        "nb": ("Fem i første angrepsrunde",
               "Klassiske regler, men høyst fem kort i første angrepsrunde i hvert giv."),
        "ru": ("Первый заход — пять карт",
               "Классические правила, но в первом заходе партии можно сыграть не больше пяти "
               "карт."),
    },
    "Prostoy": {
        "fi": ("Prostoy (yksinkertainen)",
               "Yksinkertainen durak: viisi korttia kädessä, ja vain päähyökkääjä hyökkää."),
        "nb": ("Prostoj (enkel)",
               "Enkel durak: fem kort på hånden, og bare hovedangriperen angriper."),
        "ru": ("Простой",
               "Простой дурак: по пять карт на руках, ходит только главный атакующий."),
    },
}
SEEDED_DESCRIPTIONS = {  # the English descriptions the translations above were made for
    "Classic": "Podkidnoy Durak as most people play it: 36 cards, six in hand, everybody may "
               "throw in (only the defender's neighbours at five or six players), trump 6 "
               "exchange.",
    "Perevodnoy (transfer)": "Transfer durak: before beating anything, the defender may pass "
                             "the attack on by adding a card of the same rank.",
    "Pairs 2x2": "Four players in two pairs, partners sitting opposite. A pair loses when only "
                 "its players still hold cards.",
    "Two teams of three": "Six players in two teams of three, seated alternately.",
    "Three pairs": "Six players in three pairs, partners sitting opposite.",
    "First bout five": "Classic rules, but at most five cards may be played in the first bout "
                       "of a deal.",
    "Prostoy": "Simple durak: five cards in hand, and only the main attacker attacks.",
}


def into_rows(apps, schema_editor):
    """English from the untranslated columns; fi, nb and ru for a seeded preset whose English
    is still as seeded (a name or description an admin changed keeps no old translation)."""
    RulePreset = apps.get_model("games", "RulePreset")
    for preset in RulePreset.objects.all():
        preset.name_en = preset.name_en or preset.name
        preset.description_en = preset.description_en or preset.description
        for lang, (name, description) in SEEDED.get(preset.name, {}).items():
            if not getattr(preset, f"name_{lang}"):
                setattr(preset, f"name_{lang}", name)
            if (preset.description == SEEDED_DESCRIPTIONS[preset.name]
                    and not getattr(preset, f"description_{lang}")):
                setattr(preset, f"description_{lang}", description)
        preset.save()


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0016_forfeit_in_match_state'),
    ]

    operations = [
        migrations.AddField(
            model_name='rulepreset',
            name='description_en',
            field=models.TextField(blank=True, help_text='Shown to players choosing a game.', null=True, verbose_name='description'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='description_fi',
            field=models.TextField(blank=True, help_text='Shown to players choosing a game.', null=True, verbose_name='description'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='description_nb',
            field=models.TextField(blank=True, help_text='Shown to players choosing a game.', null=True, verbose_name='description'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='description_ru',
            field=models.TextField(blank=True, help_text='Shown to players choosing a game.', null=True, verbose_name='description'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='name_en',
            field=models.CharField(max_length=80, null=True, unique=True, verbose_name='name'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='name_fi',
            field=models.CharField(max_length=80, null=True, unique=True, verbose_name='name'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='name_nb',
            field=models.CharField(max_length=80, null=True, unique=True, verbose_name='name'),
        ),
        migrations.AddField(
            model_name='rulepreset',
            name='name_ru',
            field=models.CharField(max_length=80, null=True, unique=True, verbose_name='name'),
        ),
        migrations.RunPython(into_rows, migrations.RunPython.noop),
    ]
