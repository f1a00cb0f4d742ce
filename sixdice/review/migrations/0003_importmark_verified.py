# A mark says whether the file was signed by this install and unchanged; fingerprints are counted again, now
# that a roll typed by a seat or by the host is the same play (sixdice.review.limits.content_hash).

from django.db import IntegrityError, migrations, models, transaction


def refingerprint(apps, schema_editor):
    from sixdice.review.limits import content_hash

    ImportMark = apps.get_model("review", "ImportMark")
    Event = apps.get_model("tables", "Event")
    for mark in ImportMark.objects.select_related("game"):
        game = mark.game
        logged = Event.objects.filter(game_id=game.pk).order_by("seq").values_list("actor", "action")
        fingerprint = content_hash(game.engine, game.options, game.players, game.first, logged)
        if fingerprint != mark.content_hash:
            try:
                with transaction.atomic():
                    ImportMark.objects.filter(pk=mark.pk).update(content_hash=fingerprint)
            except IntegrityError:  # two imported games that differ only in who typed a roll: both stay
                pass


class Migration(migrations.Migration):

    dependencies = [
        ("review", "0002_importmark"),
    ]

    operations = [
        migrations.AddField(
            model_name="importmark",
            name="verified",
            field=models.BooleanField(
                default=False,
                help_text="The file carried this install's signature and was unchanged (imported without --unsigned).",
            ),
        ),
        migrations.RunPython(refingerprint, migrations.RunPython.noop),
    ]
