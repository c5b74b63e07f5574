import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_merge_0005_chat_resign_0010_preset_words'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='game',
            name='challenged',
            field=models.ForeignKey(blank=True, help_text='A private table made for this player: only they may take its free seat.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='challenges', to=settings.AUTH_USER_MODEL, verbose_name='challenged player'),
        ),
    ]
