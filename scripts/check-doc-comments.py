#!/usr/bin/env python3
"""Lists the public symbols of a module that have no documentation comment, and fails if any.

    scripts/check-doc-comments.py SYMBOL_GRAPH_DIR MODULE...
    scripts/check-doc-comments.py --self-test

Reads the symbol graphs `swift package dump-symbol-graph` writes (MODULE.symbols.json and the
MODULE@OTHER.symbols.json of its extensions to other modules' types). A symbol counts as
documented when its graph carries a doc comment: its own `///` comment, or the one it inherits
from the protocol requirement it implements (as Xcode shows it). Symbols the compiler made
(no source location) are left out. Prints `FILE:LINE: undocumented public KIND NAME` for each,
so editors jump to it, then the count per module.
"""
import json
import os
import sys
import tempfile
from urllib.parse import unquote, urlparse


def graph_files(directory, module):
    for name in sorted(os.listdir(directory)):
        if name == f"{module}.symbols.json" or (name.startswith(f"{module}@") and name.endswith(".symbols.json")):
            yield os.path.join(directory, name)


def undocumented(directory, module):
    """(path, line, kind, name) of every public symbol of MODULE without a doc comment."""
    found = []
    files = list(graph_files(directory, module))
    if not files:
        raise SystemExit(f"check-doc-comments: no symbol graph for {module} in {directory}")
    for path in files:
        with open(path) as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            location = symbol.get("location")
            if location is None:
                continue
            lines = symbol.get("docComment", {}).get("lines", [])
            if any(line.get("text", "").strip() for line in lines):
                continue
            source = unquote(urlparse(location["uri"]).path)
            found.append((
                os.path.relpath(source),
                location["position"]["line"] + 1,
                symbol["kind"]["displayName"].lower(),
                ".".join(symbol["pathComponents"]),
            ))
    return sorted(set(found))


def check(directory, modules):
    total = 0
    for module in modules:
        missing = undocumented(directory, module)
        for path, line, kind, name in missing:
            print(f"{path}:{line}: undocumented public {kind} {name}")
        total += len(missing)
        print(f"check-doc-comments: {module}: {len(missing)} public symbols without a doc comment", file=sys.stderr)
    return 1 if total else 0


def self_test():
    """The check must flag a bare symbol and pass documented, inherited and compiler-made ones."""
    def symbol(name, doc=None, location=True, access="public"):
        entry = {"kind": {"displayName": "Property"}, "pathComponents": ["T", name], "accessLevel": access}
        if location:
            entry["location"] = {"uri": "file:///src/T.swift", "position": {"line": 9, "character": 2}}
        if doc is not None:
            entry["docComment"] = {"lines": [{"text": doc}]}
        return entry

    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "M.symbols.json"), "w") as f:
            json.dump({"symbols": [
                symbol("documented", "What it holds and why."), symbol("bare"), symbol("blank", "  "),
                symbol("synthesized", location=False), symbol("hidden", access="internal"),
            ]}, f)
        with open(os.path.join(tmp, "M@Swift.symbols.json"), "w") as f:
            json.dump({"symbols": [symbol("inherited", "A textual representation of this instance.")]}, f)
        names = [name for _, _, _, name in undocumented(tmp, "M")]
        if names != ["T.bare", "T.blank"]:
            print(f"check-doc-comments self-test: expected T.bare and T.blank, got {names}", file=sys.stderr)
            return 1
    print("check-doc-comments self-test: flags bare symbols, passes documented and inherited ones")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    sys.exit(check(sys.argv[1], sys.argv[2:]))
