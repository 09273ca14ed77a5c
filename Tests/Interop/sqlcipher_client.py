"""An independent SQLCipher client for the interop tests (Tests/SQLCipherManagerTests/Interop).

Reads one JSON request on standard input (so no password is ever on a command line), runs it
with Python's `sqlcipher3` (PyPI, bundles SQLCipher 4.x) or the standard library's `sqlite3`
(stock SQLite, no encryption), and prints one JSON answer on standard output.

Request:
    {"driver": "sqlcipher3" | "sqlite3",
     "path": "/path/to/file.db",
     "key": {"password": "..."} | {"raw_hex": "64 hex digits"} | null,
     "pragmas": ["PRAGMA cipher_compatibility = 3", ...],   # run right after the key
     "statements": [{"sql": "...", "params": [...]}, ...]}  # in order, then COMMIT

Answer: {"ok": true, "results": [[row, ...] per statement]} or {"ok": false, "error": "..."}.
Values: int, str, null, {"real": float} or {"blob": "<hex>"} both ways (tagged so that 2.0 stays
a REAL and bytes stay a BLOB).
"""
import json
import sys


def decode(value):
    if isinstance(value, dict) and "blob" in value:
        return bytes.fromhex(value["blob"])
    if isinstance(value, dict) and "real" in value:
        return float(value["real"])
    return value


def encode(value):
    if isinstance(value, (bytes, bytearray, memoryview)):
        return {"blob": bytes(value).hex()}
    if isinstance(value, float):
        return {"real": value}
    return value


def quoted(text):
    return "'" + text.replace("'", "''") + "'"


def run(request):
    if request["driver"] == "sqlcipher3":
        import sqlcipher3 as driver
    else:
        import sqlite3 as driver
    db = driver.connect(request["path"], isolation_level=None)
    try:
        key = request.get("key")
        if key is not None and "password" in key:
            db.execute("PRAGMA key = " + quoted(key["password"]))
        elif key is not None:
            db.execute("PRAGMA key = \"x'" + key["raw_hex"] + "'\"")
        for pragma in request.get("pragmas", []):
            db.execute(pragma).fetchall()
        results = []
        db.execute("BEGIN")
        for statement in request.get("statements", []):
            cursor = db.execute(statement["sql"], [decode(v) for v in statement.get("params", [])])
            results.append([[encode(v) for v in row] for row in cursor.fetchall()])
        db.execute("COMMIT")
        return {"ok": True, "results": results}
    finally:
        db.close()


def main():
    try:
        answer = run(json.load(sys.stdin))
    except Exception as error:  # the tests read the message, e.g. "file is not a database"
        answer = {"ok": False, "error": "%s: %s" % (type(error).__name__, error)}
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
