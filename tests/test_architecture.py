"""The shape of the house (docs/architecture.md): no import circles inside ``cardsim``, no upward
import between its layers, no source file over the size limit.

The import graph is read from the sources with ``ast``, not by importing them: every ``import x``
and ``from x import y`` counts, at module level or inside a function (an import hidden in a
function is still a dependency, and hiding a circle that way is what this test refuses). Names
looked up by string on first use (``registry.lazy("cardsim.games.x.engine", ...)``, the
``COMMANDS`` table of ``cli/main.py``, the lazy public API of ``cardsim/__init__.py``) are read as
well, as *lazy* edges: they may point upward only where ``LAZY_UPWARD`` says why.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "cardsim"
MAX_LINES = 1000

# layer of a module = the longest entry it starts with; a layer may import its own layer and
# the layers listed for it (docs/architecture.md draws the same table).
ANALYSIS = (
    "cardsim.analysis",
    "cardsim.analysis.stats",
    "cardsim.analysis.experiments",
    "cardsim.analysis.reports",
)
BASE = ("cardsim.core", "cardsim.text", "cardsim.version")
LAYERS = {
    "cardsim.cli": (
        "cardsim.api",
        "cardsim.experiments",
        *ANALYSIS,
        "cardsim.charts",
        "cardsim.feedback",
        "cardsim.games",
        *BASE,
        "cardsim.schemas",
    ),
    "cardsim.api": ("cardsim.experiments", *ANALYSIS, "cardsim.charts", "cardsim.feedback", *BASE),
    "cardsim.experiments": (*ANALYSIS, *BASE),
    # analysis, room by room: stats < the public records (results, values) < experiments < reports
    "cardsim.analysis.reports": (
        "cardsim.analysis",
        "cardsim.analysis.stats",
        "cardsim.analysis.experiments",
        "cardsim.charts",
        *BASE,
    ),
    "cardsim.analysis.experiments": ("cardsim.analysis", "cardsim.analysis.stats", *BASE),
    "cardsim.analysis": ("cardsim.analysis.stats", "cardsim.charts", *BASE),
    "cardsim.analysis.stats": BASE,
    "cardsim.charts": BASE,
    "cardsim.feedback": BASE,
    "cardsim.games": BASE,
    "cardsim.core": ("cardsim.text", "cardsim.version"),
    "cardsim.text": (),
    "cardsim.version": (),
    "cardsim.schemas": (),
}
# the package root names its version and, loaded on first use, the public API
LAYERS["cardsim"] = ("cardsim.version", "cardsim.api", "cardsim.analysis")

# lazy (by-string) edges that point up a layer on purpose: (importer prefix, imported prefix, why)
LAZY_UPWARD = (
    (
        "cardsim.core.registry",
        "cardsim.games",
        "the registry is the plug: it names the built-in rulesets and loads one when asked",
    ),
)


def module_files() -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its ``__init__``)."""
    modules = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    """The longest prefix of a dotted name that is a module of the package."""
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


_LAZY_CALLS = {"lazy", "lazy_call", "import_module"}


def _named_modules(node: ast.AST, modules: dict[str, Path]) -> set[str]:
    """Modules of the package named exactly by a string under ``node`` (``"pkg.mod"`` or
    ``"pkg.mod:attr"``)."""
    found = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            name = sub.value.partition(":")[0]
            if "." in name and name in modules:  # not the bare "cardsim" (the program's name)
                found.add(name)
    return found


def _lazy_references(tree: ast.Module, modules: dict[str, Path]) -> set[str]:
    """Modules loaded by name on first use: the first argument of ``lazy(...)``,
    ``lazy_call(...)`` or ``importlib.import_module(...)``, and the strings of a module-level
    table (``COMMANDS``, ``_BUILTIN``, ``_LAZY``) that such a call reads."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in _LAZY_CALLS:
                found |= _named_modules(node.args[0], modules)
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            found |= _named_modules(node.value, modules)
    return found


def imports_of(module: str, path: Path, modules: dict[str, Path]) -> tuple[set[str], set[str]]:
    """(direct imports, lazy by-name references) of one module, as package module names."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    direct = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                direct.add(_resolve(alias.name, modules))
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(module, path, node)
            for alias in node.names:
                # ``from pkg import sub`` imports the submodule; ``from mod import name`` the module
                direct.add(_resolve(f"{base}.{alias.name}", modules))
    direct.discard(None)
    direct.discard(module)
    lazy = _lazy_references(tree, modules) - direct - {module}
    return direct, lazy


def import_graph() -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    modules = module_files()
    direct, lazy = {}, {}
    for module, path in modules.items():
        direct[module], lazy[module] = imports_of(module, path, modules)
    return direct, lazy


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = counter
                counter += 1
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph.get(child, ())))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return found


def layer_of(module: str) -> str:
    for layer in sorted(LAYERS, key=len, reverse=True):
        if module == layer or module.startswith(layer + "."):
            return layer
    raise AssertionError(f"{module} is in no layer of LAYERS: add it (docs/architecture.md)")


def upward(graph: dict[str, set[str]], allowed=()) -> list[str]:
    bad = []
    for module, targets in sorted(graph.items()):
        here = layer_of(module)
        for target in sorted(targets):
            there = layer_of(target)
            if there == here or there in LAYERS[here]:
                continue
            if any(module.startswith(a) and target.startswith(b) for a, b, _ in allowed):
                continue
            bad.append(f"{module} -> {target} ({here} may not import {there})")
    return bad


def test_the_graph_is_read():
    """The reader finds edges it must find (else every check below passes vacuously)."""
    direct, lazy = import_graph()
    assert "cardsim.core.errors" in direct["cardsim.cli.main"]
    assert "cardsim.games.pina_pirata.engine" in lazy["cardsim.games.pina_pirata"]
    assert "cardsim.cli.run" in lazy["cardsim.cli.main"]


def test_cycle_finder_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_layer_check_finds_a_planted_upward_import():
    planted = {"cardsim.core.runner": {"cardsim.cli.main", "cardsim.core.spec"}}
    assert upward(planted) == [
        "cardsim.core.runner -> cardsim.cli.main (cardsim.core may not import cardsim.cli)"
    ]
    assert upward({"cardsim.analysis.stats.seats": {"cardsim.analysis.reports.report"}}) != []


def test_no_import_circles():
    direct, _ = import_graph()
    assert cycles(direct) == []


def test_no_import_circles_counting_lazy_references():
    """A by-string reference is a dependency too when it is followed: no circle through one."""
    direct, lazy = import_graph()
    assert cycles(with_lazy(direct, lazy)) == []


def with_lazy(direct, lazy) -> dict[str, set[str]]:
    """Direct and lazy edges together, but for the documented plug (``LAZY_UPWARD``): the
    registry names the games and the games import the core, by design."""
    plug = {
        (m, t)
        for m in lazy
        for t in lazy[m]
        if any(m.startswith(a) and t.startswith(b) for a, b, _ in LAZY_UPWARD)
    }
    return {m: direct[m] | {t for t in lazy[m] if (m, t) not in plug} for m in direct}


def test_no_upward_imports():
    direct, _ = import_graph()
    assert upward(direct) == []


def test_lazy_references_point_up_only_where_documented():
    _, lazy = import_graph()
    assert upward(lazy, LAZY_UPWARD) == []


def test_no_numba_in_analysis_or_charts():
    """STYLE: analysis/ and charts/ are pandas and matplotlib only."""
    offenders = []
    for module, path in module_files().items():
        if module.startswith(("cardsim.analysis", "cardsim.charts")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and not node.level:
                    names = [node.module or ""]
                offenders += [module for n in names if n.split(".")[0] == "numba"]
    assert offenders == []


def test_no_source_file_over_the_limit():
    long = {
        str(p.relative_to(PACKAGE.parent)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert long == {}


def _top_level_names(tree: ast.Module) -> set[str]:
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names}
        else:
            for sub in ast.walk(node):
                if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
                    names.add(sub.id)
            # the lazy public API of the package root (PEP 562 ``__getattr__`` over ``_LAZY``)
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                if any(getattr(target, "id", "") == "_LAZY" for target in node.targets):
                    names |= {k.value for k in node.value.keys if isinstance(k, ast.Constant)}
    return names


def test_every_import_of_the_package_resolves():
    """Every ``cardsim`` import, in a function or not, in the package, tests, benchmarks,
    examples and studies names a module that exists and a name it defines: a moved module
    leaves no import behind that would fail only when its function runs."""
    modules = module_files()
    trees = {m: ast.parse(p.read_text(encoding="utf-8")) for m, p in modules.items()}
    defined = {m: _top_level_names(tree) for m, tree in trees.items()}
    root = PACKAGE.parent
    files = [*PACKAGE.rglob("*.py")]
    for folder in ("tests", "benchmarks", "examples", "analysis"):
        files += sorted((root / folder).rglob("*.py"))
    broken = []
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                broken += [
                    f"{path.name}: import {a.name}"
                    for a in node.names
                    if a.name.startswith("cardsim.") and a.name not in modules
                ]
            elif isinstance(node, ast.ImportFrom) and not node.level:
                base = node.module or ""
                if base != "cardsim" and not base.startswith("cardsim."):
                    continue
                if base not in modules:
                    broken.append(f"{path.name}: from {base}")
                    continue
                broken += [
                    f"{path.name}: from {base} import {a.name}"
                    for a in node.names
                    if f"{base}.{a.name}" not in modules
                    and a.name not in defined[base]
                    and a.name != "*"
                ]
    assert broken == []


if __name__ == "__main__":
    direct, lazy = import_graph()
    print("circles:", cycles(direct))
    print("circles with lazy:", cycles(with_lazy(direct, lazy)))
    print("upward:", *upward(direct), sep="\n  ")
    print("lazy upward:", *upward(lazy, LAZY_UPWARD), sep="\n  ")
