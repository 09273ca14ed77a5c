#!/usr/bin/env python3
"""Counts DatabaseManager's public members, as DocC shows them, and fails above the limit.

Reads the SQLCipherManager symbol graph that `make docs` writes (scripts/build-docs.sh: the
compiler's own graph, public symbols only, synthesized members left out): every method,
property, initializer and static member whose parent is the DatabaseManager class, in any of
its extensions. A protocol's default implementation (DatabaseManagerDelegate) belongs to the
protocol and is not counted. The manager owns lifecycle, keys, flows, events, read/write and
observation; queries live on Database (ARCHITECTURE.md), and the limit keeps it that way.

Usage: scripts/count-manager-members.py [GRAPH_DIR] [--list]
"""
import glob
import json
import os
import sys

LIMIT = 45
MEMBER_KINDS = {
    "swift.method", "swift.property", "swift.init", "swift.subscript",
    "swift.type.method", "swift.type.property", "swift.type.subscript",
}


def members(graph_dir):
    found = {}
    for path in glob.glob(os.path.join(graph_dir, "SQLCipherManager*.symbols.json")):
        with open(path) as handle:
            graph = json.load(handle)
        for symbol in graph["symbols"]:
            components = symbol["pathComponents"]
            if components[:1] != ["DatabaseManager"] or len(components) != 2:
                continue
            if symbol["kind"]["identifier"] not in MEMBER_KINDS:
                continue
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            found[symbol["identifier"]["precise"]] = (symbol["kind"]["identifier"], symbol["names"]["title"])
    return sorted(found.values(), key=lambda member: (member[1], member[0]))


def main():
    args = [arg for arg in sys.argv[1:] if not arg.startswith("--")]
    graph_dir = args[0] if args else ".build/docs-symbol-graphs"
    if not glob.glob(os.path.join(graph_dir, "SQLCipherManager.symbols.json")):
        sys.exit(f"count-manager-members: no SQLCipherManager symbol graph in {graph_dir} (run make docs)")
    found = members(graph_dir)
    if "--list" in sys.argv:
        for kind, title in found:
            print(f"  {kind.removeprefix('swift.'):14} {title}")
    print(f"DatabaseManager: {len(found)} public members (limit {LIMIT})")
    if len(found) > LIMIT:
        sys.exit(f"count-manager-members: {len(found)} > {LIMIT}: a query belongs on Database, "
                 "an overload family folds into one call (see DatabaseCredential)")


if __name__ == "__main__":
    main()
