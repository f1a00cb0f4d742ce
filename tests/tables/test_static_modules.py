"""The pages' scripts are ES modules: collected with hashed names, each names the hashed files of the modules it imports.

Without that, a page would load ``dom.<hash>.js`` from its ``<script>`` tag and ``dom.js`` from an
``import``, and run two copies of one module (two registries of game boards, two live tables).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import override_settings

from sixdice.static_storage import ModuleManifestStorage

IMPORT = re.compile(r"""^\s*import\s+(?:[\w{}\s,*]+?\s+from\s+)?["']([^"']+)["']\s*;""", re.M)
SOURCES = [*sorted((settings.BASE_DIR / "static" / "js").glob("*.js")),
           settings.BASE_DIR / "sixdice" / "review" / "static" / "js" / "replay.js"]


def _imports(text: str) -> list[str]:
    return IMPORT.findall(text)


def test_the_manifest_storage_rewrites_module_imports():
    assert ModuleManifestStorage.support_js_module_import_aggregation is True


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_module_imports_by_a_relative_name_that_exists(source: Path):
    """Each import names a sibling file (``./name.js``), so the hashed names can be written in."""
    for name in _imports(source.read_text()):
        assert name.startswith("./") and name.endswith(".js"), (source.name, name)
        folder = source.parent
        assert (folder / name).exists() or (settings.BASE_DIR / "static" / "js" / name).exists(), (source.name, name)


def test_collected_modules_import_the_hashed_files(tmp_path: Path):
    root = tmp_path / "static"
    storages = {**settings.STORAGES, "staticfiles": {"BACKEND": "sixdice.static_storage.ModuleManifestStorage"}}
    with override_settings(STATIC_ROOT=root, STORAGES=storages):
        call_command("collectstatic", "--noinput", "-v0")
    paths = json.loads((root / "staticfiles.json").read_text())["paths"]
    modules = {name: hashed for name, hashed in paths.items() if name.startswith("js/") and name.endswith(".js")}
    assert "js/live.js" in modules and "js/replay.js" in modules and "js/dom.js" in modules
    hashed_names = set(paths.values())
    seen = 0
    for name, hashed in modules.items():
        text = (root / hashed).read_text()
        for target in _imports(text):
            seen += 1
            resolved = str(Path(hashed).parent / target).replace("/./", "/")
            resolved = resolved[2:] if resolved.startswith("./") else resolved
            assert resolved in hashed_names, (name, target)  # the hashed file, never the plain name
            assert (root / resolved).exists(), (name, target)
    assert seen >= 20  # the pages' modules do import each other
    live = (root / modules["js/live.js"]).read_text()
    assert re.search(r'from "\./dom\.[0-9a-f]{12}\.js";', live)


NAMED_IMPORT = re.compile(r"""^\s*import\s*\{([^}]*)\}\s*from\s*["']\./([^"']+)["']\s*;""", re.M)
EXPORT = re.compile(r"^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+(\w+)", re.M)


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.name)
def test_every_name_a_module_imports_is_exported_by_the_other(source: Path):
    """A name imported that the other module does not export stops the whole page (a module that fails to link)."""
    for names, target in NAMED_IMPORT.findall(source.read_text()):
        path = source.parent / target
        if not path.exists():
            path = settings.BASE_DIR / "static" / "js" / target
        exported = set(EXPORT.findall(path.read_text()))
        for name in (n.split(" as ")[0].strip() for n in names.split(",") if n.strip()):
            assert name in exported, (source.name, name, target)
