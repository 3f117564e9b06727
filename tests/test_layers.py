"""The engine's shape, checked on its source: no import inside a function in
bot/games/babg/engine, no import cycle among its modules, the core rules importing no
component (card, tile and power handlers in specials/, haunt modules in
haunts/) and naming no card or power, the engine importing no adapter, and
no adapter touching the store (the service is the only door)."""
import ast
import pathlib

import pytest

from bot.games.babg.content import load_content

ROOT = pathlib.Path(__file__).resolve().parents[1]
ENGINE = ROOT / "bot" / "games" / "babg" / "engine"
COMPONENTS = ("bot.games.babg.engine.specials", "bot.games.babg.engine.haunts")
FRONT = {"bot.games.babg.engine", "bot.games.babg.engine.game", "bot.games.babg.engine.legal"}  # the engine's door: it assembles everything
ADAPTERS = ("bot/discord", "bot/table")
OUTSIDE = ("bot.discord", "bot.table", "bot.service", "bot.store", "bot.games.babg.render", "discord", "aiosqlite", "PIL",
           "asyncio", "sqlite3")
RULEBOOK_TILES = {"kitchen", "inner_chamber", "elfsong_tavern", "kitchen_basement", "catacomb_landing"}  # Setup


def module_name(path: pathlib.Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: pathlib.Path) -> list[tuple[str, ast.AST]]:
    """(module imported, node) for every import in the file, relative ones resolved."""
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, node) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            if node.module:  # `from . import x` imports the submodule x, not the package itself
                found.append((base, node))
            found += [(f"{base}.{alias.name}", node) for alias in node.names]
    return found


def engine_files() -> list[pathlib.Path]:
    return sorted(p for p in ENGINE.rglob("*.py") if "__pycache__" not in p.parts)


def engine_graph() -> dict[str, set[str]]:
    names = {module_name(p) for p in engine_files()}
    return {module_name(p): {m for m, _ in imports(p) if m in names and m != module_name(p)} for p in engine_files()}


def test_no_import_inside_a_function_in_the_engine():
    late = []
    for path in engine_files():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                late += [f"{path.relative_to(ROOT)}:{n.lineno}" for n in ast.walk(node)
                         if isinstance(n, (ast.Import, ast.ImportFrom))]
    assert late == []


def test_no_import_cycle_among_engine_modules():
    graph = engine_graph()
    state, cycles = {}, []

    def visit(node, trail):
        state[node] = "open"
        for nxt in sorted(graph[node]):
            if state.get(nxt) == "open":
                cycles.append(trail[trail.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, trail + [nxt])
        state[node] = "done"

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    assert cycles == []


def core_files() -> list[pathlib.Path]:
    return [p for p in engine_files() if not module_name(p).startswith(COMPONENTS) and module_name(p) not in FRONT]


def test_core_rules_import_no_component_or_haunt():
    wrong = [f"{module_name(p)} imports {m}" for p in core_files() for m, _ in imports(p) if m.startswith(COMPONENTS)]
    assert wrong == []


def test_core_rules_name_no_card_power_or_tile():
    content = load_content()
    named = set(content.cards) | set(content.adventurers) | (set(content.tiles) - RULEBOOK_TILES)
    named |= {e["name"] for a in content.adventurers.values() for e in a.power.get("effects", [])
              if e.get("do") == "special"}
    wrong = []
    for path in core_files():
        if path.name == "content.py":
            continue  # the loader reads every component's data by design
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in named:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} names {node.value!r}")
    assert wrong == []


def test_the_engine_imports_no_adapter_and_no_io():
    wrong = [f"{module_name(p)} imports {m}" for p in engine_files() for m, _ in imports(p)
             if m.split(".")[0] in OUTSIDE or m.startswith(OUTSIDE)]
    assert wrong == []


@pytest.mark.parametrize("folder", ADAPTERS)
def test_adapters_go_through_the_service(folder):
    wrong = [f"{p.relative_to(ROOT)} imports {m}" for p in sorted((ROOT / folder).rglob("*.py"))
             for m, _ in imports(p) if m == "bot.store" or m.startswith("bot.store.")]
    assert wrong == []


def test_the_checks_can_fail(tmp_path):
    """The checks see what they look for (a guard against a test that passes
    because it reads nothing)."""
    sample = ENGINE / "moves.py"
    assert any(m == "bot.games.babg.engine.effects" for m, _ in imports(sample))
    assert "bot.games.babg.engine.effects" in engine_graph()["bot.games.babg.engine.moves"]
    assert len(core_files()) > 10 and any(module_name(p).startswith(COMPONENTS) for p in engine_files())


# --- several games on one table: the shared layers know a game only through the contract -----------------

SHARED_LAYERS = ("discord", "table", "service", "store")
ALLOWED_GAME_IMPORTS = {"bot.games"}  # the registry; a system's own modules are its internals


def shared_layer_leaks(root: pathlib.Path) -> list[str]:
    """Every import, in the shared layers, of a game system's internals (anything under bot.games
    but the registry itself): they may use bot.kit (the contract) and bot.games (the registry)."""
    wrong = []
    for layer in SHARED_LAYERS:
        for path in sorted((root / "bot" / layer).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            me = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            package = me if path.name == "__init__.py" else me.rsplit(".", 1)[0]
            for node in ast.walk(ast.parse(path.read_text())):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom):
                    base = node.module or ""
                    if node.level:
                        anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                        base = ".".join(anchor + ([base] if base else []))
                    names = [base] + [f"{base}.{a.name}" for a in node.names if base == "bot"]
                for name in names:
                    if name.startswith("bot.games.") and name not in ALLOWED_GAME_IMPORTS:
                        wrong.append(f"{path.relative_to(root)}:{node.lineno} imports {name}")
    return wrong


def test_the_shared_layers_reach_a_game_only_through_the_contract_and_the_registry():
    assert shared_layer_leaks(ROOT) == []


def test_the_layer_check_finds_a_planted_import_of_a_systems_internals(tmp_path):
    for layer in SHARED_LAYERS:
        (tmp_path / "bot" / layer).mkdir(parents=True)
    planted = tmp_path / "bot" / "discord" / "planted.py"
    planted.write_text("from bot.games.babg.engine.legal import actor\n")
    (tmp_path / "bot" / "service" / "fine.py").write_text("from bot import games\nfrom bot.kit.contract import GameSystem\n")
    assert shared_layer_leaks(tmp_path) == ["bot/discord/planted.py:1 imports bot.games.babg.engine.legal"]
