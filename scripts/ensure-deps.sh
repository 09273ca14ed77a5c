#!/usr/bin/env bash
# Makes sure what `make test` / `make demo` need is installed: SQLCipher's development files
# (pkg-config name `sqlcipher`) and the `sqlcipher` shell of the same version (interop tests),
# pkg-config, libcrypto, libsodium, libsecret (`libsecret-1`), dbus-daemon and
# gnome-keyring-daemon for the keyring store's tests, and strace for the power-loss explorer.
#
# Which SQLCipher (README, "Supported versions"):
# - SQLCIPHER=4 (the default): SQLCipher 4.x system-wide. Debian 12 ships 3.4.1 (2016, no
#   security update since 2017), so there this script adds Debian's `bookworm-backports` suite
#   with the mirror the machine's Debian sources already use, and installs 4.6.1 from it
#   (`apt-get -t bookworm-backports`). Debian 13 and Ubuntu 24.04 ship 4.x themselves.
# - SQLCIPHER=3: Debian 12's own 3.4.1 in a private prefix (.build/sqlcipher3): its runtime
#   library `libsqlcipher0` installed beside 4.x's `libsqlcipher1` (different sonames), its
#   development files and shell unpacked from the Debian packages with `dpkg -x`, and a
#   `sqlcipher.pc` that points there. The Makefile then builds in .build-sqlcipher3 with that
#   PKG_CONFIG_PATH and that shell first on PATH (scripts/sqlcipher-env.sh).
# On Debian/Ubuntu as root it installs with apt-get; on macOS with Homebrew (4.x); otherwise it
# says exactly what to install.
set -euo pipefail
cd "$(dirname "$0")/.."

want=${SQLCIPHER:-4}
case "$want" in 3 | 4) ;; *) echo "error: SQLCIPHER must be 3 or 4 (got '$want')" >&2; exit 1 ;; esac

export DEBIAN_FRONTEND=noninteractive
apt_updated=0
apt_update() { [ $apt_updated -eq 1 ] || { apt-get update -qq; apt_updated=1; }; }
is_root_apt() { command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" -eq 0 ]; }
codename() { . /etc/os-release && echo "${VERSION_CODENAME:-}"; }

# The installed version of a Debian package, or nothing.
installed() { { dpkg-query -W -f='${Status} ${Version}\n' "$1" 2>/dev/null || true; } | awk '/install ok installed/ {print $4}'; }

# The first mirror URI the machine's apt sources use for the release itself (deb822 or one-line).
debian_mirror() {
    local release=$1 file
    for file in /etc/apt/sources.list.d/*.sources; do
        [ -f "$file" ] || continue
        awk -v r="$release" 'BEGIN{RS=""} /(^|\n)Suites:[^\n]*(^| )/ {
            uris=""; ok=0; n=split($0, lines, "\n")
            for (i=1;i<=n;i++) {
                if (lines[i] ~ /^URIs:/) { sub(/^URIs:[ \t]*/, "", lines[i]); split(lines[i], u, " "); uris=u[1] }
                if (lines[i] ~ /^Suites:/) { m=split(lines[i], s, " "); for (j=2;j<=m;j++) if (s[j]==r) ok=1 }
                if (lines[i] ~ /^Types:/ && lines[i] !~ /deb( |$)/) ok=-1
            }
            if (ok==1 && uris!="") { print uris; exit }
        }' "$file"
    done | head -n 1 | grep . && return 0
    cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v r="$release" '$1=="deb" { for (i=2;i<=NF;i++) if ($i ~ /^[a-z]+:\/\//) { if ($(i+1)==r) { print $i; exit } ; break } }' |
        head -n 1 | grep .
}

# Adds `<release>-backports` with the release's own mirror, unless apt already knows it.
ensure_backports() {
    local release=$1 mirror file=/etc/apt/sources.list.d/$1-backports.sources
    if apt-cache policy 2>/dev/null | grep -q " $release-backports/"; then return 0; fi
    mirror=$(debian_mirror "$release") || {
        echo "error: no Debian mirror for '$release' in /etc/apt/sources.list*; add '$release-backports' yourself." >&2
        exit 1
    }
    echo "SQLCipher 4: adding Debian's $release-backports suite from $mirror ($file)..." >&2
    printf 'Types: deb\nURIs: %s\nSuites: %s-backports\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' \
        "$mirror" "$release" >"$file"
    apt_updated=0
    apt_update
}

# SQLCipher 4.x system-wide (development files and shell of the same version).
ensure_sqlcipher4() {
    local dev shell
    dev=$(installed libsqlcipher-dev)
    shell=$(installed sqlcipher)
    if [[ "$dev" == 4.* && "$shell" == "$dev" ]]; then return 0; fi
    if ! is_root_apt; then
        pkg-config --exists sqlcipher 2>/dev/null && command -v sqlcipher >/dev/null 2>&1 && return 0
        echo "error: SQLCipher 4 is missing. Debian 13 / Ubuntu 24.04: sudo apt-get install libsqlcipher-dev sqlcipher;" >&2
        echo "  Debian 12: add bookworm-backports, then sudo apt-get install -t bookworm-backports libsqlcipher-dev sqlcipher" >&2
        exit 1
    fi
    apt_update
    local candidate target=()
    candidate=$(apt-cache policy libsqlcipher-dev | awk '/Candidate:/ {print $2}')
    if [[ "$candidate" != 4.* ]]; then
        local release
        release=$(codename)
        ensure_backports "$release"
        target=(-t "$release-backports")
        echo "SQLCipher 4: $release ships SQLCipher $candidate; installing 4.x from $release-backports." >&2
    fi
    apt-get install -y -qq "${target[@]}" libsqlcipher-dev sqlcipher >/dev/null
    echo "SQLCipher 4: installed libsqlcipher-dev $(installed libsqlcipher-dev), sqlcipher $(installed sqlcipher)." >&2
}

# Debian 12's SQLCipher 3.4.1 in .build/sqlcipher3, beside a system-wide 4.x.
ensure_sqlcipher3() {
    local prefix=$PWD/.build/sqlcipher3
    if [ -f "$prefix/pkgconfig/sqlcipher.pc" ] && [ -x "$prefix/root/usr/bin/sqlcipher" ] &&
        [ -n "$(installed libsqlcipher0)" ]; then return 0; fi
    if ! is_root_apt || [ "$(codename)" != bookworm ]; then
        echo "error: SQLCIPHER=3 uses Debian 12's SQLCipher 3.4.1 packages (apt-get, as root); not available here." >&2
        exit 1
    fi
    apt_update
    local version
    version=$(apt-cache madison libsqlcipher0 | awk '$3 ~ /^3\./ {print $3; exit}')
    [ -n "$version" ] || { echo "error: apt has no SQLCipher 3.x (libsqlcipher0)." >&2; exit 1; }
    echo "SQLCipher 3: installing libsqlcipher0 $version and unpacking its development files and shell into $prefix..." >&2
    apt-get install -y -qq "libsqlcipher0=$version" >/dev/null
    rm -rf "$prefix" && mkdir -p "$prefix/debs" "$prefix/pkgconfig"
    (cd "$prefix/debs" && apt-get download -qq "libsqlcipher-dev=$version" "sqlcipher=$version" "libsqlcipher0=$version")
    local deb
    for deb in "$prefix"/debs/*.deb; do dpkg -x "$deb" "$prefix/root"; done
    local libdir
    libdir=$(dirname "$(find "$prefix/root" -name 'libsqlcipher.so' | head -n 1)")
    # The shell unpacked here finds libsqlcipher.so.0 in the system (libsqlcipher0).
    cat >"$prefix/pkgconfig/sqlcipher.pc" <<EOF
prefix=$prefix/root/usr
libdir=$libdir
includedir=\${prefix}/include

Name: SQLCipher
Description: Debian 12's SQLCipher $version, unpacked for SQLCIPHER=3 (scripts/ensure-deps.sh)
Version: $version
Libs: -L\${libdir} -lsqlcipher
Cflags: -I\${includedir}/sqlcipher
EOF
    # SwiftPM keeps the `-L/usr/lib/<triple>` of the other system libraries' .pc files (pkg-config
    # itself drops it) and puts them before this one, so the linker would find 4.x's
    # libsqlcipher.so there first: copies without that default folder come first on the path.
    local name file
    for name in libcrypto libsodium libsecret-1 glib-2.0 gio-2.0 gio-unix-2.0 gobject-2.0; do
        file="$(pkg-config --variable=pcfiledir "$name" 2>/dev/null)/$name.pc"
        [ -f "$file" ] || continue
        sed -E 's/^(Libs:.*)-L\$\{libdir\} ?/\1/' "$file" >"$prefix/pkgconfig/$name.pc"
    done
}

need_apt=()
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
has_pc() { command -v pkg-config >/dev/null 2>&1 && pkg-config --exists "$1" 2>/dev/null; }
# libcrypto's headers (SHA-256 for the operation journal; SQLCipher links libcrypto itself).
has_pc libcrypto || need_apt+=(libssl-dev)
# libsodium's headers (Argon2id and XChaCha20-Poly1305 for key slots).
has_pc libsodium || need_apt+=(libsodium-dev)
# The keyring store (libsecret) and its tests: a private D-Bus session bus and gnome-keyring-daemon.
has_pc libsecret-1 || need_apt+=(libsecret-1-dev)
command -v dbus-daemon >/dev/null 2>&1 || need_apt+=(dbus)
command -v gnome-keyring-daemon >/dev/null 2>&1 || need_apt+=(gnome-keyring)
# (Linux only: the explorer records system calls with strace.)
if [ "$(uname -s)" = "Linux" ] && ! command -v strace >/dev/null 2>&1; then need_apt+=(strace); fi

if [ "$(uname -s)" = "Darwin" ]; then
    [ "$want" = 4 ] || { echo "error: SQLCIPHER=3 is Debian 12's 3.4.1 only." >&2; exit 1; }
    if ! has_pc sqlcipher || [ ${#need_apt[@]} -gt 0 ]; then
        command -v brew >/dev/null 2>&1 || { echo "error: install Homebrew, then: brew install sqlcipher pkg-config openssl libsodium libsecret dbus" >&2; exit 1; }
        brew install sqlcipher pkg-config openssl libsecret dbus libsodium
    fi
    exit 0
fi

if [ ${#need_apt[@]} -gt 0 ]; then
    if ! is_root_apt; then
        echo "error: missing ${need_apt[*]}." >&2
        echo "  Debian/Ubuntu: sudo apt-get install ${need_apt[*]}" >&2
        exit 1
    fi
    echo "Installing ${need_apt[*]} with apt-get..." >&2
    apt_update
    apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# 4.x is always installed (the default, and the system shell); 3.4.1 beside it when asked for.
ensure_sqlcipher4
[ "$want" = 4 ] || ensure_sqlcipher3
