"""Every model change has its migration: `makemigrations --check` finds nothing to write."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration():
    out = io.StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # --check exits 1 when a migration is missing
        pytest.fail(f"a model change has no migration (exit {exc.code}):\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()
