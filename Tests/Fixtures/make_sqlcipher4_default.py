"""Recipe for sqlcipher4-default.sqlcipher: a database written with SQLCipher 4.x default settings.

SQLCipher 4 defaults (page size 4096, PBKDF2-HMAC-SHA512 with 256000 iterations, HMAC-SHA512)
cannot be read by the SQLCipher 3.4.1 this package links on Debian, so opening it must give
`incorrectPasswordOrSettings`. Made with the PyPI wheel `sqlcipher3-binary` (SQLCipher 4.x):

    python3 -m venv .venv && .venv/bin/pip install sqlcipher3-binary
    .venv/bin/python Tests/Fixtures/make_sqlcipher4_default.py OUT.db

The password is "secret"; the table is item(id, name) with rows 'v4-0', 'v4-1', 'v4-2'.
"""
import os
import sys

import sqlcipher3

path = sys.argv[1]
if os.path.exists(path):
    os.remove(path)
db = sqlcipher3.connect(path)
db.execute("PRAGMA key = 'secret'")
db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT)")
db.executemany("INSERT INTO item(name) VALUES (?)", [("v4-%d" % i,) for i in range(3)])
db.commit()
version = db.execute("PRAGMA cipher_version").fetchone()[0]
db.close()
print("wrote %s with SQLCipher %s defaults" % (path, version))
