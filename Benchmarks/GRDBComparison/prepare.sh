#!/usr/bin/env bash
# Builds the GRDB side-by-side (BENCHMARKS.md, "GRDB 7.8 side by side") in .build/grdb-comparison:
# GRDB's sources at tag $GRDB_TAG from the local git checkout $GRDB_REPO (SwiftPM fetches
# nothing here), edited for SQLCipher 3.4.1 as below, and this folder's bench package beside them.
# Nothing of GRDB enters the repository. Prints the path of the built GRDBBench binary.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
GRDB_REPO=${GRDB_REPO:-/work/.mirror/groue+GRDB.swift/repo}
GRDB_TAG=${GRDB_TAG:-v7.8.0}
SWIFT=${SWIFT:-swift}
out="$repo/.build/grdb-comparison"
[ -d "$GRDB_REPO" ] || { echo "GRDB_REPO=$GRDB_REPO: no such checkout (clone https://github.com/groue/GRDB.swift there)" >&2; exit 2; }
rm -rf "$out" && mkdir -p "$out/grdb-src"
git -C "$GRDB_REPO" archive "$GRDB_TAG" Package.swift Sources GRDB Support LICENSE | tar -x -C "$out/grdb-src"
# GRDB's SQLite module: link libsqlcipher, include its header through our prelude.
sed -i 's/link "sqlite3"/link "sqlcipher"/' "$out/grdb-src/Sources/GRDBSQLite/module.modulemap"
sed -i "s|^#include <sqlite3.h>|#include \"$here/sqlcipher-prelude.h\"|" "$out/grdb-src/Sources/GRDBSQLite/shim.h"
grep -q "sqlcipher-prelude.h" "$out/grdb-src/Sources/GRDBSQLite/shim.h" || { echo "GRDB's shim.h changed: no #include <sqlite3.h> to replace" >&2; exit 2; }
# Its package: the codec on, FTS5 off (3.15.2's FTS5 is not the one GRDB expects), no test target.
python3 - "$out/grdb-src/Package.swift" <<'PY'
import re, sys
path = sys.argv[1]
text = open(path).read()
text = text.replace('.define("SQLITE_ENABLE_FTS5")', '.define("SQLITE_HAS_CODEC")')
text, count = re.subn(r'\n\s*\.testTarget\(.*?\n\s*\]\)', '', text, flags=re.S)
if count != 1 or "SQLITE_HAS_CODEC" not in text:
    sys.exit("GRDB's Package.swift changed: the edits for SQLCipher do not apply")
open(path, "w").write(text)
PY
cp -R "$here/Package.swift" "$here/Sources" "$out/"
ln -s "$repo/Benchmarks/CBaseline" "$out/Sources/CBaseline"
ln -s "$repo/Benchmarks/SQLCipherBench/Rows.swift" "$out/Sources/GRDBBench/Rows.swift"
(cd "$out" && $SWIFT build -c release >&2)
echo "$out/.build/release/GRDBBench"
