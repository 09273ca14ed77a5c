#!/usr/bin/env python3
"""Lists the public symbols of a symbol-graph folder that have no documentation comment of
their own (none, or only the text inherited from a protocol requirement), and exits 1 when
there is any (used by `make docs`). Compiler-synthesized members have no source location and
are skipped."""
import json
import pathlib
import sys

folder = pathlib.Path(sys.argv[1])
missing = []
for graph in sorted(folder.glob("SQLCipherManager*.symbols.json")):
    for symbol in json.loads(graph.read_text())["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        if symbol["kind"]["identifier"] == "swift.extension":
            continue
        location = symbol.get("location", {}).get("uri")
        if location is None:
            continue  # synthesized by the compiler (a RawRepresentable init…): nothing to write
        comment = symbol.get("docComment") or {}
        lines = comment.get("lines") or []
        # A comment from elsewhere (another file, or far from the declaration) is a protocol
        # requirement's, inherited: not its own. Its own ends just above the declaration
        # (attributes may sit in between).
        declared = symbol["location"]["position"]["line"]
        ends = lines[-1].get("range", {}).get("end", {}).get("line", -100) if lines else -100
        own = (comment.get("uri") == location and 0 < declared - ends <= 4
               and any(line.get("text", "").strip() for line in lines))
        if not own:
            where = location.split("/Sources/")[-1]
            missing.append(f"{'.'.join(symbol['pathComponents'])} ({symbol['kind']['displayName']}) {where}")
for entry in sorted(set(missing)):
    print(f"undocumented: {entry}")
if missing:
    print(f"{len(set(missing))} public symbols have no documentation comment of their own", file=sys.stderr)
    sys.exit(1)
print("every public symbol is documented")
