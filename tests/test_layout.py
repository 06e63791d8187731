"""The house keeps its shape: every game package alike, imports one way, no cycles, files one can hold in mind."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from games.core import PhasedGame, all_games

ROOT = Path(__file__).parents[1]
PACKAGES = ("bot", "games", "render", "storage", "tools")
GAME_SHAPE = ("__init__.py", "README.md", "engine.py", "commands.py", "state.py", "view.py", "data.py", "data",
              "phases/__init__.py")
MAX_LINES = 600


def game_dirs() -> list[Path]:
    return sorted(p for p in (ROOT / "games").iterdir() if (p / "__init__.py").exists() and p.name != "core")


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def top_level_imports(path: Path) -> set[str]:
    """Project modules that `path` imports at module level (relative imports resolved)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base.split(".")[0] in PACKAGES:
                out.add(base)
                out.update(f"{base}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] in PACKAGES)
    return out


def sources(*packages: str) -> list[Path]:
    return sorted(p for pkg in packages for p in (ROOT / pkg).rglob("*.py"))


@pytest.mark.parametrize("game", game_dirs(), ids=lambda p: p.name)
def test_every_game_package_has_the_shared_shape(game: Path) -> None:
    missing = [part for part in GAME_SHAPE if not (game / part).exists()]
    assert not missing, f"games/{game.name} lacks {missing} (see games/_template/README.md)"
    phases = [p.stem for p in (game / "phases").glob("*.py") if p.stem != "__init__"]
    assert phases, f"games/{game.name}/phases has no phase module"


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_engine_is_a_table_of_phases(game_id: str) -> None:
    engine = all_games()[game_id]
    assert isinstance(engine, PhasedGame), f"{game_id} dispatches on its phase by hand"
    assert engine.phases, f"{game_id} declares no phases"


@pytest.mark.parametrize("package", ["games", "render", "storage", "tools"])
def test_modules_import_each_other_without_a_cycle(package: str) -> None:
    paths = {module_name(p): p for p in sources(package)}
    graph = {name: top_level_imports(path) & set(paths) - {name} for name, path in paths.items()}
    done: set[str] = set()

    def visit(node: str, trail: list[str]) -> None:
        assert node not in trail, "import cycle: " + " -> ".join([*trail[trail.index(node):], node])
        if node in done:
            return
        for nxt in sorted(graph[node]):
            if nxt.startswith(node + "."):
                continue  # a package importing its own submodule is how __init__ re-exports
            visit(nxt, [*trail, node])
        done.add(node)

    for name in graph:
        visit(name, [])


def test_dependencies_point_one_way() -> None:
    """games imports none of the others; render only games; storage nothing of the project."""
    allowed = {"games": {"games"}, "render": {"render", "games"}, "storage": {"storage"}}
    for package, ok in allowed.items():
        for path in sources(package):
            wrong = {m.split(".")[0] for m in top_level_imports(path)} - ok
            assert not wrong, f"{module_name(path)} imports {sorted(wrong)}"
    banned = {"discord", "PIL", "aiosqlite", "asyncpg", "time", "datetime", "socket", "urllib"}
    for path in sources("games"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
        bad = found & banned
        assert not bad, f"{module_name(path)}: a rules engine does no I/O and reads no clock: {bad}"


def test_no_source_file_is_longer_than_one_person_holds_in_mind() -> None:
    long = {module_name(p): n for p in sources(*PACKAGES) if (n := len(p.read_text(encoding="utf-8").splitlines()))
            > MAX_LINES}
    assert not long, f"files over {MAX_LINES} lines: {long}"
