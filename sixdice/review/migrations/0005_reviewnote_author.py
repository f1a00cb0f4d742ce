"""Reviewer notes say who wrote them."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('review', '0004_hintshown'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='reviewnote',
            name='author',
            field=models.ForeignKey(blank=True, help_text='The staff account that last wrote the note.', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddField(
            model_name='reviewnote',
            name='author_name',
            field=models.CharField(blank=True, default='', help_text="That account's name when it wrote the note (kept if it goes).", max_length=150),
        ),
    ]
