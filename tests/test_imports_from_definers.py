"""Every name is imported from the module that defines it: no module of the project re-exports another's.

A reader who sees ``from sixdice.tables.writes.services import start_game``
finds ``start_game`` in that file.  This test parses the project's modules
(the app packages and the tests) and checks each ``from <project module>
import name``: the name must be defined in that module (a function, a class,
an assignment) or be one of its submodules.  A package's ``__init__`` that
lists the name in ``__all__`` is a declared public API (``sixdice.rules``,
``runbuster.rules``, ``sixdice.gamekit``, as python-chess offers its types
from ``chess``), and importing from it is allowed.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("sixdice", "runbuster", "tests")


def module_path(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def public_api(path: Path) -> set[str]:
    """The names a package's ``__init__`` declares in ``__all__`` (empty for a plain module)."""
    if path.name != "__init__.py":
        return set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return set(ast.literal_eval(node.value))
    return set()


def defined_names(path: Path) -> set[str]:
    """Names a module binds itself: definitions and assignments at its top level (conditionals included)."""
    names: set[str] = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for target in targets:
                    names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.If, ast.Try, ast.With)):
                visit(node.body)
                visit(getattr(node, "orelse", []))
                visit(getattr(node, "finalbody", []))
                for handler in getattr(node, "handlers", []):
                    visit(handler.body)

    visit(tree.body)
    return names


def project_files() -> list[Path]:
    return [p for pkg in PACKAGES for p in (ROOT / pkg).rglob("*.py") if "migrations" not in p.parts]


def reexported_imports() -> list[str]:
    found: list[str] = []
    cache: dict[Path, set[str]] = {}
    for path in project_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1])
                source = f"{base}.{node.module}" if node.module else base
            else:
                source = node.module or ""
            if source.split(".")[0] not in PACKAGES:
                continue
            target = module_path(source)
            if target is None:
                continue
            defined = cache.setdefault(target, defined_names(target) | public_api(target))
            for alias in node.names:
                if alias.name == "*" or alias.name in defined or module_path(f"{source}.{alias.name}"):
                    continue
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {alias.name} from {source}")
    return found


def test_every_name_is_imported_from_the_module_that_defines_it():
    assert reexported_imports() == []


def test_the_check_sees_a_reexport(tmp_path, monkeypatch):
    """The check can fail: a module that imports a name another module imported is reported."""
    pkg = tmp_path / "tests"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    return 1\n")
    (pkg / "b.py").write_text("from tests.a import f\n")
    (pkg / "c.py").write_text("from tests.b import f\nfrom tests.a import f as g\n")
    monkeypatch.setattr(__import__(__name__, fromlist=["ROOT"]), "ROOT", tmp_path)
    monkeypatch.setattr(__import__(__name__, fromlist=["PACKAGES"]), "PACKAGES", ("tests",))
    assert reexported_imports() == ["tests/c.py:1 imports f from tests.b"]
