#!/usr/bin/env bash
# Makes sure what `make test` / `make demo` need is installed: SQLCipher's development files
# (pkg-config name `sqlcipher`), pkg-config, the Debian `sqlcipher` CLI used by interop tests,
# libsecret (`libsecret-1`), dbus-daemon and gnome-keyring-daemon for the keyring store's tests,
# and strace for the power-loss explorer (scripts/powerloss, `make powerloss`).
# On Debian/Ubuntu as root it installs them with apt-get; on macOS with Homebrew; otherwise it
# says exactly what to install.
set -euo pipefail

need_apt=()
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists sqlcipher 2>/dev/null; then
    need_apt+=(libsqlcipher-dev)
fi
command -v sqlcipher >/dev/null 2>&1 || need_apt+=(sqlcipher)
# libcrypto's headers (SHA-256 for the operation journal; SQLCipher links libcrypto itself).
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libcrypto 2>/dev/null; then
    need_apt+=(libssl-dev)
fi
# libsodium's headers (Argon2id and XChaCha20-Poly1305 for key slots).
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libsodium 2>/dev/null; then
    need_apt+=(libsodium-dev)
fi
# The keyring store (libsecret) and its tests: a private D-Bus session bus and gnome-keyring-daemon.
if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libsecret-1 2>/dev/null; then
    need_apt+=(libsecret-1-dev)
fi
command -v dbus-daemon >/dev/null 2>&1 || need_apt+=(dbus)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need_apt+=(gnome-keyring)
# (Linux only: the explorer records system calls with strace.)
if [ "$(uname -s)" = "Linux" ] && ! command -v strace >/dev/null 2>&1; then need_apt+=(strace); fi

[ ${#need_apt[@]} -eq 0 ] && exit 0

if [ "$(uname -s)" = "Darwin" ]; then
    if command -v brew >/dev/null 2>&1; then
        brew install sqlcipher pkg-config openssl libsecret dbus libsodium
        exit 0
    fi
    echo "error: SQLCipher is missing. Install Homebrew, then: brew install sqlcipher pkg-config" >&2
    exit 1
fi

if command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; then
    echo "Installing ${need_apt[*]} with apt-get..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${need_apt[@]}" >/dev/null
    exit 0
fi

echo "error: missing ${need_apt[*]}." >&2
echo "  Debian/Ubuntu: sudo apt-get install ${need_apt[*]}" >&2
echo "  macOS:         brew install sqlcipher pkg-config openssl libsodium" >&2
exit 1
