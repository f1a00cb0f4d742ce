"""The rules packages and the kit stand alone: importing them loads no Django and no Django app."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, sys
importlib.import_module(sys.argv[1])
print(json.dumps(sorted(sys.modules)))
"""


def loaded_by(module: str) -> list[str]:
    """The modules a fresh interpreter has loaded after importing ``module`` (no settings, no Django setup)."""
    result = subprocess.run(
        [sys.executable, "-c", PROBE, module], cwd=ROOT, capture_output=True, text=True, check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "module", ["sixdice.gamekit", "sixdice.rules", "runbuster.rules", "sixdice.engine", "runbuster.engine"]
)
def test_pure_packages_load_no_django_and_no_app(module):
    modules = loaded_by(module)
    assert module in modules  # the probe did import it
    forbidden = [
        m for m in modules
        if m == "django" or m.startswith("django.") or m.startswith(("sixdice.tables", "sixdice.review", "channels"))
    ]
    assert forbidden == []


def test_rules_packages_import_only_the_standard_library_and_the_kit():
    modules = loaded_by("runbuster.rules") + loaded_by("sixdice.rules")
    outside = sorted(
        m for m in modules
        if m.startswith("sixdice.") and not m.startswith(("sixdice.gamekit", "sixdice.rules"))
    )
    assert outside == []
    third_party = sorted({
        m.split(".")[0] for m in modules
        if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] not in {"sixdice", "runbuster"}
        and not m.startswith("_")
    })
    assert third_party == []


def test_the_tables_app_does_not_import_the_review_app():
    """Review builds on tables (replays, exports, the admin), never the other way round."""
    import ast

    offenders = []
    for path in sorted((ROOT / "sixdice" / "tables").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.relative_to(ROOT)}: {n}" for n in names if n.startswith("sixdice.review")]
    assert offenders == []
