#!/usr/bin/env bash
# Prints the SQLCipher and SQLite a build linked and runs, and the `sqlcipher` shell the interop
# tests use, and fails unless both are the major version the leg asked for (SQLCIPHER, 4 by
# default). With 3.4.1 and 4.x on one machine the linker could pick the other library silently;
# this looks at what was really linked (ldd) and what really runs (`cipherdb --version`, which
# asks the library with PRAGMA cipher_version).
# Usage: scripts/check-sqlcipher.sh <folder with the built cipherdb>
set -euo pipefail
want=${SQLCIPHER:-4}
bin=${1:?usage: check-sqlcipher.sh <bin folder>}
shell=${SCM_SQLCIPHER_SHELL:-$(command -v sqlcipher || true)}

report=$("$bin/cipherdb" --version)
linked=$(ldd "$bin/cipherdb" | awk '/libsqlcipher/ {print $1 " => " $3}')
running=$(awk '/^SQLCipher / {print $2}' <<<"$report")
sqlite=$(awk '/^SQLite / {print $2}' <<<"$report")
shell_version=$(printf 'PRAGMA cipher_version;\n' | "$shell" 2>/dev/null | head -n 1 | awk '{print $1}')
echo "leg SQLCIPHER=$want: linked $linked; running SQLCipher $running, SQLite $sqlite; shell $shell: SQLCipher $shell_version"

fail=0
[[ "$running" == "$want".* ]] || { echo "error: the build runs SQLCipher $running, not $want.x" >&2; fail=1; }
[[ "$shell_version" == "$want".* ]] || { echo "error: the sqlcipher shell is SQLCipher $shell_version, not $want.x" >&2; fail=1; }
case "$want" in
3) [[ "$linked" == libsqlcipher.so.0* ]] || { echo "error: linked $linked, not libsqlcipher.so.0 (3.4.1)" >&2; fail=1; } ;;
4) [[ "$linked" != libsqlcipher.so.0* ]] || { echo "error: linked $linked, SQLCipher 3's soname" >&2; fail=1; } ;;
esac
exit $fail
