"""The flows under test: their fixture, the traced command, the recovery and the check of a state.

Keys are described as dicts: {"kind": "password", "secret": ..., "kdf": N}, {"kind": "raw",
"hex": ...} or {"kind": "plain"}. Databases are opened for checking with the system `sqlcipher`
shell (the same SQLCipher the library links), each attempt on its own copy of the folder so
that SQLite's own recovery (hot journal, -wal) under one key cannot affect another attempt.
"""

import hashlib
import os
import re
import shutil
import signal
import subprocess
import time

OLD, NEW = "old-secret-pl", "new-secret-pl"
ROWS, PENDING_ROWS = 500, 100
MARKER = b"PLMARK"
KDF = ["--kdf-iter", "4000", "--legacy-kdf"]
SQLITE_FILES = ("", "-wal", "-shm", "-journal")


def password(secret, kdf=4000):
    return {"kind": "password", "secret": secret, "kdf": kdf}


PLAIN = {"kind": "plain"}


# MARK: - The sqlcipher shell

def _keyed(statement):
    """`PRAGMA key` with its answer kept out of the output: SQLCipher 4.3+ answers it with a row
    "ok" (which would read as an integrity_check line), 3.x with none."""
    return [".output /dev/null", statement, ".output"]


def _prelude(key, db=None):
    if "prelude" in key:
        return list(key["prelude"])
    if key.get("header"):
        return _header_prelude(key, db)
    # The fixtures are in the format of the shell's own SQLCipher (the one the library links),
    # so only the KDF iterations are given, on 3.x and 4.x alike.
    if key["kind"] == "password":
        return _keyed("PRAGMA key = '%s';" % key["secret"]) + ["PRAGMA kdf_iter = %d;" % key["kdf"]]
    if key["kind"] == "raw":
        return _keyed("PRAGMA key = \"x'%s'\";" % key["hex"])
    return []


def shell(db, key, statements, timeout=60):
    script = "\n".join([".mode list"] + _prelude(key, db) + statements) + "\n"
    return subprocess.run(["sqlcipher", "-batch", "-bail", db], input=script.encode(), capture_output=True, timeout=timeout)


def read_database(db, key):
    """What the database holds under `key` (SQLite's own recovery applies): opened, integrity, rows."""
    result = shell(db, key, [
        "SELECT 'PLOPEN|' || count(*) FROM sqlite_master;", "PRAGMA integrity_check;",
        "SELECT 'PLROW|' || id || '|' || v FROM t ORDER BY id;"])
    lines = result.stdout.decode("utf-8", "replace").splitlines()
    opened = any(line.startswith("PLOPEN|") for line in lines)
    rows = [line for line in lines if line.startswith("PLROW|")]
    integrity = [line for line in lines if opened and not line.startswith("PL") and line not in ("wal", "delete")]
    return {
        "opened": opened, "integrity": ";".join(integrity) or "none", "count": len(rows),
        "digest": hashlib.sha256("\n".join(rows).encode()).hexdigest(), "rows": rows,
        "error": result.stderr.decode("utf-8", "replace").strip(),
    }


def open_copy(folder, path, key, scratch):
    """read_database on a fresh copy of the folder."""
    if os.path.exists(scratch):
        shutil.rmtree(scratch)
    shutil.copytree(folder, scratch, symlinks=True)
    try:
        return read_database(os.path.join(scratch, path), key)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def header_password(secret, kdf=4000):
    """A password for a database in SQLCipher 4's plaintext-header form: its salt is read from
    `<db>.scm-salt` when the database is opened (no salt file: a salt that opens nothing)."""
    return dict(password(secret, kdf), header=True)


def _header_prelude(key, db):
    salt = "00" * 16
    try:
        with open(db + ".scm-salt") as handle:
            text = handle.read().strip()
        if re.fullmatch(r"[0-9a-f]{32}", text):
            salt = text
    except OSError:
        pass
    return _keyed("PRAGMA key = '%s';" % key["secret"]) + [
        "PRAGMA kdf_iter = %d;" % key["kdf"], "PRAGMA cipher_plaintext_header_size = 32;",
        "PRAGMA cipher_salt = \"x'%s'\";" % salt]


# MARK: - Fixtures

def create_database(db, key, wal, rows=ROWS):
    statements = ["PRAGMA journal_mode = %s;" % ("WAL" if wal else "DELETE"),
                  "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT NOT NULL);",
                  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < %d) "
                  "INSERT INTO t(id, v) SELECT x, printf('PLMARK-%%05d-%%s', x, hex(randomblob(40))) FROM c;" % rows]
    result = shell(db, key, statements)
    if result.returncode != 0:
        raise RuntimeError("fixture: %s" % result.stderr.decode())


def add_pending_rows(db, key):
    """Commits PENDING_ROWS rows that stay in the -wal: the writer is killed (-9) before it closes."""
    ready = db + ".pl-ready"
    script = "\n".join([".mode list"] + _prelude(key, db) + [
        "PRAGMA wal_autocheckpoint = 0;",
        "WITH RECURSIVE c(x) AS (SELECT %d UNION ALL SELECT x + 1 FROM c WHERE x < %d) "
        "INSERT INTO t(id, v) SELECT x, printf('PLMARK-wal-%%05d-%%s', x, hex(randomblob(40))) FROM c;"
        % (ROWS + 1, ROWS + PENDING_ROWS),
        ".system touch '%s'" % ready]) + "\n"
    process = subprocess.Popen(["sqlcipher", "-batch", "-bail", db], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    process.stdin.write(script.encode())
    process.stdin.flush()
    deadline = time.time() + 60
    while not os.path.exists(ready):
        if process.poll() is not None or time.time() > deadline:
            raise RuntimeError("fixture: the -wal writer stopped: %s" % process.stderr.read().decode())
        time.sleep(0.01)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    os.unlink(ready)
    if not os.path.exists(db + "-wal") or os.path.getsize(db + "-wal") == 0:
        raise RuntimeError("fixture: no -wal was left")


def export_key(tools, folder, db, secret):
    result = tools.cipherdb(folder, ["export-key", db, "--password-env", "PL_PASSWORD"], {"PL_PASSWORD": secret})
    match = re.search(r"x'([0-9a-f]{64})'", result.stdout.decode())
    return ({"kind": "raw", "hex": match.group(1)}, result) if match else (None, result)


# MARK: - Flows

class Flow:
    """name, database file, fixture kind (encrypted, plaintext, slots), command, forms."""

    def __init__(self, name, fixture, command, old, new, db="db.db", out=None, extra_files=(), kind="one-of", fixture_key=None):
        self.name, self.fixture, self.command, self.old, self.new = name, fixture, command, old, new
        self.db, self.out, self.extra_files, self.kind = db, out, extra_files, kind
        self.fixture_key = fixture_key

    def allowed(self, path):
        names = [self.db + s for s in SQLITE_FILES] + list(self.extra_files)
        if self.out:
            names += [self.out + s for s in SQLITE_FILES]
        return path in names


def flows():
    cipherdb = lambda *words: ("cipherdb", list(words))
    return {
        "rekey": Flow("rekey", "encrypted", cipherdb("rekey", "db.db", "--password-env", "PL_OLD", "--new-password-env", "PL_NEW", *KDF),
                      password(OLD), password(NEW)),
        "settings": Flow("settings", "encrypted",
                         cipherdb("settings", "db.db", "--password-env", "PL_OLD", *KDF, "--set-kdf-iter", "8000"),
                         password(OLD), password(OLD, 8000), extra_files=("db.db.cipherdb-settings",)),
        "encrypt": Flow("encrypt", "plaintext", cipherdb("encrypt", "db.db", "--password-env", "PL_NEW", *KDF), PLAIN, password(NEW)),
        "encrypt-to": Flow("encrypt-to", "plaintext", cipherdb("encrypt", "db.db", "--to", "out.db", "--password-env", "PL_NEW", *KDF),
                           PLAIN, password(NEW), out="out.db", kind="copy"),
        "decrypt": Flow("decrypt", "encrypted", cipherdb("decrypt", "db.db", "--to", "out.db", "--password-env", "PL_OLD", *KDF),
                        password(OLD), PLAIN, out="out.db", kind="copy"),
        "keys-convert": Flow("keys-convert", "encrypted", cipherdb("keys", "db.db", "convert", "--password-env", "PL_OLD", *KDF),
                             password(OLD), None, extra_files=("db.db.scm-keys",), kind="convert"),
        "keys-change-password": Flow("keys-change-password", "slots",
                                     cipherdb("keys", "db.db", "change-password", "--password-env", "PL_OLD", "--new-password-env", "PL_NEW"),
                                     None, None, extra_files=("db.db.scm-keys",), kind="slot-password"),
        "keys-rotate": Flow("keys-rotate", "slots", cipherdb("keys", "db.db", "rotate", "--password-env", "PL_OLD"),
                            None, None, extra_files=("db.db.scm-keys",), kind="rotate"),
        "first-launch": Flow("first-launch", "plaintext", ("helper", ["first-launch", "{folder}"]), PLAIN, None, db="test.db",
                             extra_files=("keys", "keys/db", "keys/.lock"), kind="first-launch"),
        "upgrade": upgrade_flow(),
        # SQLCipher 4 only: the plaintext-header form and its salt file, both ways.
        "header-on": Flow("header-on", "encrypted", cipherdb("plaintext-header", "db.db", "on", "--password-env", "PL_OLD", *KDF),
                          password(OLD), header_password(OLD), extra_files=HEADER_FILES, fixture_key=password(OLD)),
        "header-off": Flow("header-off", "header", cipherdb("plaintext-header", "db.db", "off", "--password-env", "PL_OLD", *KDF),
                           header_password(OLD), password(OLD), extra_files=HEADER_FILES, fixture_key=header_password(OLD)),
    }


HEADER_FILES = ("db.db.scm-salt", "db.db.scm-salt.tmp")


# MARK: - The format upgrade

def linked_major():
    """The major version of the SQLCipher the `sqlcipher` shell (and cipherdb) runs."""
    result = subprocess.run(["sqlcipher", "-batch", ":memory:"], input=b"PRAGMA key = 'k';\nPRAGMA cipher_version;\n",
                            capture_output=True, timeout=60)
    # 4.x answers the key with "ok" first.
    match = re.search(rb"^(\d+)\.\d+", result.stdout, re.M)
    return int(match.group(1)) if match else 3


def upgrade_flow():
    """`cipherdb upgrade`: a SQLCipher 2-format file (4000 PBKDF2-HMAC-SHA1 iterations, 1024-byte
    pages) rewritten in the linked SQLCipher's format, same password: on 4.x the fixture is
    written with `cipher_compatibility = 2` and the result has SQLCipher 4's defaults; on 3.x
    it has 4000 iterations and the result SQLCipher 3's 64000."""
    v4 = linked_major() >= 4
    settings = ["--compatibility", "2"] if v4 else ["--kdf-iter", "4000", "--legacy-kdf"]
    # SQLCipher 4 answers `PRAGMA key` with a row: it goes to /dev/null, not into the checks.
    key = [".output /dev/null", "PRAGMA key = '%s';" % OLD]
    old = dict(password(OLD, 4000), prelude=key + (["PRAGMA cipher_compatibility = 2;"] if v4 else ["PRAGMA kdf_iter = 4000;"]) + [".output stdout"])
    new = dict(password(OLD, 256000 if v4 else 64000), prelude=key + [".output stdout"])
    return Flow("upgrade", "encrypted", ("cipherdb", ["upgrade", "db.db", "--password-env", "PL_OLD"] + settings), old, new,
                fixture_key=old)


MODES = ("delete", "wal", "wal-pending")
