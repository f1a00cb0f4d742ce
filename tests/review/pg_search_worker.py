"""A separate process on PostgreSQL (run by test_search_postgres.py): games with accented names, then the admin's
searches over games, seats, events and notes, as JSON: for each list and query, the table codes it found."""

from __future__ import annotations

import json
import os
import re
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sixdice.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from sixdice.review.models import save_note
    from tests.review.conftest import play

    assert connection.vendor == "postgresql", connection.vendor
    joao = play("runbuster", ("João", "Bo"), seed=7)
    renee = play("sixdice", ("Renée", "Cy"), seed=3, options={"rounds": 1, "auto_balance": True})
    other = play("runbuster", ("Ana", "Di"), seed=8)
    save_note(joao, note="João contests his last roll.", disputed=True)
    save_note(renee, note="Checked with Renée.", disputed=False)
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-for-tests-1"))
    codes = {joao.table.code: "joao", renee.table.code: "renee", other.table.code: "other"}
    found: dict[str, dict[str, list[str]]] = {}
    for name in ("tables_game", "tables_seat", "tables_event", "review_reviewnote"):
        found[name] = {}
        for query in ("joão", "RENÉE", "joao", "renee", "JOÃO RENÉE"):
            page = client.get(reverse(f"admin:{name}_changelist"), {"q": query}).content.decode()
            start = page.find('id="result_list"')
            results = page[start:page.index("</table>", start)] if start >= 0 else ""
            found[name][query] = sorted({label for code, label in codes.items() if re.search(code, results)})
    print(json.dumps(found))


if __name__ == "__main__":
    sys.exit(main())
