"""On PostgreSQL, the ``unaccent`` extension: the admin's searches over names ignore accents there too.

SQLite needs nothing stored: the search function is registered on each connection
(:mod:`sixdice.review.search`).  ``unaccent`` is a trusted extension (PostgreSQL 13
and later), so the database's owner may create it.
"""

from django.db import migrations


def create_unaccent(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS unaccent")


class Migration(migrations.Migration):

    dependencies = [
        ("review", "0005_reviewnote_author"),
    ]

    operations = [
        migrations.RunPython(create_unaccent, migrations.RunPython.noop, elidable=False),
    ]
