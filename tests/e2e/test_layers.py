"""The bot's modules import one way: no cycles, no imports inside functions to dodge one, and the
Discord adapter reaches the game only through the manager (it reads nothing from storage)."""
from __future__ import annotations

import ast
from pathlib import Path

BOT = Path(__file__).parents[2] / "bot"
SKIP = {"bench.py"}  # a tool on its way out of the package


def modules() -> dict[str, ast.Module]:
    out = {}
    for path in sorted(BOT.rglob("*.py")):
        if path.name in SKIP:
            continue
        name = ".".join(("bot", *path.relative_to(BOT).with_suffix("").parts)).removesuffix(".__init__")
        out[name] = ast.parse(path.read_text(encoding="utf-8"))
    return out


def imported(name: str, tree: ast.Module, *, top_level: bool) -> set[str]:
    """The bot modules `name` imports (at module level, or inside functions)."""
    package = name if name == "bot" or tree_is_package(name) else name.rsplit(".", 1)[0]
    functions = [f for f in ast.walk(tree) if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
    nodes = tree.body if top_level else [n for f in functions for n in ast.walk(f)]
    out: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[:len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            if base.startswith("bot"):
                out.add(base)
                out.update(f"{base}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("bot"))
    return out


def tree_is_package(name: str) -> bool:
    return (BOT.parent / name.replace(".", "/") / "__init__.py").exists()


def test_the_bot_modules_import_each_other_without_a_cycle():
    mods = modules()
    graph = {name: imported(name, tree, top_level=True) & set(mods) - {name} for name, tree in mods.items()}
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        assert node not in path, "import cycle: " + " -> ".join([*path[path.index(node):], node])
        if node in done:
            return
        for nxt in sorted(graph[node]):
            visit(nxt, [*path, node])
        done.add(node)

    for name in graph:
        visit(name, [])


def test_no_function_imports_a_bot_module_except_the_lazy_discord_factory():
    lazy = {name: {m for m in imported(name, tree, top_level=False) if not m.startswith("bot.bench")}
            for name, tree in modules().items()}
    assert {name: found for name, found in lazy.items() if found} == {
        "bot": {"bot.discord_adapter.app", "bot.discord_adapter.app.build_bot"}}  # discord.py loads only to run it


def test_the_discord_adapter_reads_nothing_from_storage():
    """It opens the database for the manager and closes it at the end; everything else goes through the manager."""
    for path in (BOT / "discord_adapter").glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        used = {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Attribute) and node.value.attr == "storage"}
        assert used <= {"close"}, f"{path.name} reaches into storage: {sorted(used)}"
