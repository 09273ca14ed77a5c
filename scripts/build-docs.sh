#!/usr/bin/env bash
# `make docs`: the DocC site of the SQLCipherManager library, built with the toolchain's own
# `docc` (the swift-docc-plugin cannot be fetched): the compiler writes the symbol graphs, then
# `docc convert` renders them with the catalog into a static site in .build/docs. Fails on any
# DocC warning, on any public symbol without its own documentation comment, and when
# DatabaseManager has more public members than scripts/count-manager-members.py allows.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PATH:/opt/swift/usr/bin"
scratch=.build/docs-build
graphs=.build/docs-symbol-graphs
rm -rf "$graphs" .build/docs
mkdir -p "$graphs"
# The compiler writes the graphs only when it compiles a module: drop the modules' build
# products, or a second run in a row finds the build up to date and the graphs gone.
rm -f "$scratch"/debug/Modules/SQLCipher{Core,Keys,Engine,Query,Manager}.swiftmodule
# Inherited and synthesized docs are left out, so a member that only repeats its protocol's
# text shows up as undocumented below.
swift build --scratch-path "$scratch" --target SQLCipherManager \
    -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$PWD/$graphs" \
    -Xswiftc -symbol-graph-minimum-access-level -Xswiftc public \
    -Xswiftc -symbol-graph-skip-inherited-docs -Xswiftc -symbol-graph-skip-synthesized-members
# SQLCipherManager's graph holds the symbols it re-exports from the four lower targets (what an
# app sees with one import); their own graphs would make DocC document five modules.
rm -f "$graphs"/SQLCipher{Core,Keys,Engine,Query}{,@*}.symbols.json
python3 scripts/check-doc-comments.py "$graphs"
# The manager stays thin: its public members counted, fails above the limit.
python3 scripts/count-manager-members.py "$graphs"
docc convert Sources/SQLCipherManager/SQLCipherManager.docc \
    --additional-symbol-graph-dir "$graphs" \
    --output-path .build/docs \
    --fallback-display-name SQLCipherManager \
    --fallback-bundle-identifier org.sqlcipher.SQLCipherManager \
    --transform-for-static-hosting --hosting-base-path SQLCipherManager \
    --warnings-as-errors
echo "Documentation: .build/docs (static site; serve the folder, open /documentation/sqlciphermanager)"
