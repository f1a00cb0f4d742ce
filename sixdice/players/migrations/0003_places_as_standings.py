"""Ranks read as standings: the places a tie shares are used up (1, 1, 3; the last of eight is 8th).

Ranks were stored dense (1, 1, 2).  The order and the ties are the same, so the
ratings do not change (OpenSkill reads only the order); each finished game's
``Participant`` ranks are rewritten from its own, and each ``RatingUpdate``
takes its participant's new rank.
"""

from django.db import migrations, models

HELP = "1 for the winners; equal ranks are ties, and the places they share are used up (1, 1, 3)."


def standings(ranks: list[int]) -> list[int]:
    """Dense ranks of one game's seats (1, 1, 2) as standings (1, 1, 3): 1 + the seats ranked strictly above."""
    return [1 + sum(other < rank for other in ranks) for rank in ranks]


def dense(ranks: list[int]) -> list[int]:
    """Standings (1, 1, 3) back to dense ranks (1, 1, 2)."""
    order = {rank: i + 1 for i, rank in enumerate(sorted(set(ranks)))}
    return [order[rank] for rank in ranks]


def rewrite(participants, updates, convert) -> int:
    """Rewrite every game's participant ranks with ``convert`` and its rating updates to match; returns the
    number of rows changed."""
    by_game: dict[int, list] = {}
    for row in participants.objects.order_by("game_id", "position").iterator():
        by_game.setdefault(row.game_id, []).append(row)
    changed = 0
    for game_id, rows in by_game.items():
        new = convert([row.rank for row in rows])
        if new == [row.rank for row in rows]:
            continue  # no tie below first place (most games): nothing to rewrite
        profiled = {}
        for row, rank in zip(rows, new, strict=True):
            if row.profile_id is not None:
                profiled[row.profile_id] = rank
            if row.rank != rank:
                participants.objects.filter(pk=row.pk).update(rank=rank)
                changed += 1
        for update in updates.objects.filter(game_id=game_id):
            rank = profiled.get(update.profile_id)
            if rank is not None and update.rank != rank:
                updates.objects.filter(pk=update.pk).update(rank=rank)
                changed += 1
    return changed


def forwards(apps, schema_editor) -> None:
    rewrite(apps.get_model("players", "Participant"), apps.get_model("players", "RatingUpdate"), standings)


def backwards(apps, schema_editor) -> None:
    rewrite(apps.get_model("players", "Participant"), apps.get_model("players", "RatingUpdate"), dense)


class Migration(migrations.Migration):

    dependencies = [("players", "0002_mend_empty_public_ids")]

    operations = [
        migrations.AlterField(model_name="participant", name="rank", field=models.PositiveSmallIntegerField(help_text=HELP)),
        migrations.RunPython(forwards, backwards),
    ]
