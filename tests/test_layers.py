"""The package's layers: each module imports only from its own layer or those below, and no
import cycle joins two modules (see docs/ARCHITECTURE.md).

The imports are read from the source (every ``import`` statement, at any depth), so a lazy import
inside a function counts like one at the top; the one exception is the pictures a value draws of
itself in Jupyter (``_repr_svg_``), which import the face lazily by design.
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parent.parent / "msanalysis"

LAYERS = {
    "model": 0,    # layouts, rules, the game, what a player sees, files
    "engine": 1,   # constraints, solvers, counts, the analysis, number grids
    "play": 2,     # strategies, whole games, guess-free boards, replays
    "faces": 3,    # rendering and interaction
}
MODEL = {"errors", "files", "exact", "board", "position", "rules", "game", "formats", "replay",
         "_toollib"}
ENGINE = {"constraints", "sat", "counting", "joining", "whole", "analysis", "obvious", "numbergrid",
          "gridlogic", "solverwatch", "reconstruction", "tracker", "bitlogic", "puzzle", "sampling"}
FACES = {"text", "svg", "cli", "explorer", "__main__"}


def layer_of(module: str) -> int:
    """The layer of ``msanalysis.X`` or ``msanalysis.play.X``."""
    parts = module.split(".")
    if parts[1] == "play":
        return LAYERS["play"]
    name = parts[1]
    for layer, names in (("model", MODEL), ("engine", ENGINE), ("faces", FACES)):
        if name in names:
            return LAYERS[layer]
    raise AssertionError(f"{module} belongs to no layer: add it to tests/test_layers.py and to "
                         "docs/ARCHITECTURE.md")


def modules() -> dict[str, Path]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE.parent).with_suffix("")
        name = ".".join(relative.parts)
        if name.endswith("__init__"):
            continue  # the package's lazy exports reach every layer on purpose
        found[name] = path
    return found


def imported(name: str, package: str, node: ast.ImportFrom) -> list[str]:
    """The msanalysis modules ``from ... import ...`` in module ``name`` of ``package`` names.

    A relative import is read against the module's package, and ``from msanalysis.play import
    judge`` names the module ``msanalysis.play.judge``, not only the package it is in.
    """
    if node.level:
        base = package.split(".")[: len(package.split(".")) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    if source != "msanalysis" and not source.startswith("msanalysis."):
        return []
    submodules = {f"{source}.{alias.name}" for alias in node.names}
    found = sorted(submodules & (set(modules()) | {"msanalysis.play"}))
    if len(found) < len(submodules):
        found.append(source)  # names defined in the module itself (or exported by a package)
    return found


def imports(path: Path) -> list[tuple[str, bool]]:
    """``(imported module, inside _repr_svg_)`` for every import of msanalysis in ``path``."""
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    name = ".".join(relative.parts)
    package = name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    found = []

    def visit(node: ast.AST, in_repr: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_repr or (isinstance(child, ast.FunctionDef)
                                 and child.name == "_repr_svg_")
            if isinstance(child, ast.ImportFrom):
                found.extend((target, inside) for target in imported(name, package, child))
            elif isinstance(child, ast.Import):
                found.extend((alias.name, inside) for alias in child.names
                             if alias.name == "msanalysis"
                             or alias.name.startswith("msanalysis."))
            visit(child, inside)

    visit(tree, False)
    return found


def test_imports_are_read_whatever_their_form():
    # The forms a check of the layers could miss: relative, and a module named as a name.
    def read(source: str, name: str = "msanalysis.engine_module") -> list[str]:
        node = ast.parse(source).body[0]
        assert isinstance(node, ast.ImportFrom)
        return imported(name, name.rsplit(".", 1)[0], node)

    assert read("from msanalysis.play import judge") == ["msanalysis.play.judge"]
    assert read("from msanalysis import svg, text") == ["msanalysis.svg", "msanalysis.text"]
    assert read("from msanalysis.board import Board") == ["msanalysis.board"]
    assert read("from .play import judge") == ["msanalysis.play.judge"]
    assert read("from . import svg") == ["msanalysis.svg"]
    assert read("from ..svg import board", "msanalysis.play.best") == ["msanalysis.svg"]
    assert read("from msanalysis import Board") == ["msanalysis"]
    assert read("from numpy import array") == []
    assert read("from msanalysis import play") == ["msanalysis.play"]  # the play layer


def test_every_module_belongs_to_a_layer():
    for name in modules():
        layer_of(name)


def test_each_layer_imports_only_from_below():
    wrong = []
    for name, path in modules().items():
        for target, in_repr in imports(path):
            if target == "msanalysis":
                wrong.append(f"{name} imports from the package itself, which reaches every layer:"
                             " import from the module that defines the name")
                continue
            if in_repr and target == "msanalysis.svg":
                continue  # a value drawing itself in Jupyter: lazily, by design
            if layer_of(target) > layer_of(name):
                wrong.append(f"{name} imports {target}")
    assert not wrong, "imports that reach up a layer:\n" + "\n".join(wrong)


def test_the_core_never_imports_a_face():
    faces = {f"msanalysis.{face}" for face in FACES}
    for name, path in modules().items():
        if layer_of(name) == LAYERS["faces"]:
            continue
        for target, in_repr in imports(path):
            assert target not in faces or in_repr, f"{name} imports the face {target}"


def test_no_import_cycles():
    graph = nx.DiGraph()
    for name, path in modules().items():
        graph.add_node(name)
        for target, in_repr in imports(path):
            if not in_repr and target in modules():
                graph.add_edge(name, target)
    cycles = list(nx.simple_cycles(graph))
    assert not cycles, f"import cycles: {cycles}"


def test_the_architecture_has_a_row_for_every_module_in_its_layer():
    # docs/ARCHITECTURE.md promises one line per module, under its layer's heading.
    text = (PACKAGE.parent / "docs" / "ARCHITECTURE.md").read_text()
    modules_part = text.split("## The modules", 1)[1].split("\n## ", 1)[0]  # to the next part
    sections = modules_part.split("\n### ")[1:]
    rows = {}
    for section in sections:
        heading = section.split(maxsplit=1)[0]
        for line in section.splitlines():
            if line.startswith("| `"):
                rows[line.split("`")[1]] = LAYERS[heading]
    missing = [name for name in modules() if rows.get(name.split(".")[-1]) != layer_of(name)]
    assert not missing, f"modules without a row under their layer in ARCHITECTURE: {missing}"
