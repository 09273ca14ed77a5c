#!/usr/bin/env bash
# Builds a tiny package outside this repository that depends on it by path, as an app does
# (no Makefile, no PKG_CONFIG_PATH of ours), and fails if SwiftPM prints any warning —
# "prohibited flag(s)" from a pkg-config file in particular. Its own scratch folder, in /tmp.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
export PATH="$PATH:/opt/swift/usr/bin"
unset PKG_CONFIG_PATH
app="$(mktemp -d /tmp/scm-outside.XXXXXX)"
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "App",
    dependencies: [.package(path: "$repo")],
    targets: [
        .executableTarget(name: "App", dependencies: [.product(name: "SQLCipherManager", package: "$(basename "$repo")")])
    ]
)
MANIFEST
# An app's switch over error codes: it must have a `default` (the codes are a struct's static
# members), which is where a code added by a later version goes.
cat > "$app/Sources/App/main.swift" <<'SOURCE'
import SQLCipherManager
let manager = DatabaseManager(url: nil)
do {
    try manager.open(password: "password")
} catch let error as DatabaseManagerError {
    switch error.code {
    case .notConfigured: print("no database URL yet")
    case .incorrectPasswordOrSettings: print("wrong password")
    default: print(error)
    }
} catch {
    print(error)
}
print(manager.isOpen)
SOURCE
output=$(cd "$app" && swift build 2>&1) || { echo "$output"; echo "error: the outside package did not build" >&2; exit 1; }
if grep -i "warning" <<<"$output"; then
    echo "error: building a package that depends on this one prints the warnings above" >&2
    exit 1
fi
echo "An outside package that depends on $(basename "$repo") builds with no warning."
