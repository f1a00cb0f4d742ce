"""Who hosts a table: the name typed when it was made, and the seat the host took, if any."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0009_game_pinned'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='host_name',
            field=models.CharField(blank=True, default='', help_text='Who hosts, as the host typed it when making the table (empty: not given).', max_length=24),
        ),
        migrations.AddField(
            model_name='table',
            name='host_seat',
            field=models.PositiveSmallIntegerField(blank=True, help_text="The seat the host took on the host's own phone (0-based), if any.", null=True),
        ),
    ]
