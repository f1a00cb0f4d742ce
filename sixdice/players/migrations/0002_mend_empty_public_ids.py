"""Profiles added in the admin before it gave them one had an empty public id: each gets its own now."""

import secrets

from django.db import migrations


def give_public_ids(profiles) -> int:
    """Give every profile of the model ``profiles`` whose public id is empty a fresh one; returns how many."""
    mended = 0
    for profile in profiles.objects.filter(public_id=""):
        while True:
            candidate = secrets.token_urlsafe(6)[:8]
            if not profiles.objects.filter(public_id=candidate).exists():
                break
        profiles.objects.filter(pk=profile.pk).update(public_id=candidate)
        mended += 1
    return mended


def forwards(apps, schema_editor) -> None:
    give_public_ids(apps.get_model("players", "Profile"))


class Migration(migrations.Migration):

    dependencies = [("players", "0001_initial")]

    operations = [migrations.RunPython(forwards, migrations.RunPython.noop)]
