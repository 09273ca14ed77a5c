#!/usr/bin/env bash
# Makes sure `.venv` (at the repo root) holds Python's `sqlcipher3` from PyPI, an independent
# SQLCipher 4.x client that the interop tests drive (Tests/Interop/sqlcipher_client.py).
# The wheel `sqlcipher3-binary` bundles its own SQLCipher, so nothing is compiled. On Debian
# as root, a missing `venv` module is installed with apt-get (python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=.venv
package="sqlcipher3-binary==0.6.0"

if "$venv/bin/python" -c "import sqlcipher3" >/dev/null 2>&1; then
    exit 0
fi

python=${PYTHON:-python3}
if ! command -v "$python" >/dev/null 2>&1; then
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
        echo "Installing python3 with apt-get..." >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq python3 python3-venv >/dev/null
    else
        echo "error: python3 is missing (Debian/Ubuntu: sudo apt-get install python3 python3-venv)." >&2
        exit 1
    fi
fi

rm -rf "$venv"
if ! "$python" -m venv "$venv" >/dev/null 2>&1; then
    rm -rf "$venv"
    if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
        echo "Installing python3-venv with apt-get..." >&2
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq python3-venv >/dev/null
        "$python" -m venv "$venv"
    else
        echo "error: '$python -m venv' failed (Debian/Ubuntu: sudo apt-get install python3-venv)." >&2
        exit 1
    fi
fi

echo "Installing $package into $venv..." >&2
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$package"
"$venv/bin/python" -c "import sqlcipher3; print('sqlcipher3 with SQLCipher', sqlcipher3.connect(':memory:').execute('PRAGMA cipher_version').fetchone()[0])" >&2
