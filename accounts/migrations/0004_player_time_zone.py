from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0003_player_language'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='time_zone',
            field=models.CharField(blank=True, max_length=64, verbose_name='time zone'),
        ),
    ]
