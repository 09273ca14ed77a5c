#!/bin/sh
# Recipe for sqlcipher3-default.sqlcipher: a database the SQLCipher 3.4.1 shell wrote with its
# default settings (1024-byte pages, PBKDF2-HMAC-SHA1 with 64000 iterations, HMAC-SHA1), in WAL
# mode, with user_version 7. SQLCipher 4 opens it only with `cipher_compatibility = 3`; the
# manager finds that by itself and upgradeFormat() converts it. Debian 12's 3.4.1 shell:
#
#     SQLCIPHER=3 scripts/ensure-deps.sh
#     Tests/Fixtures/make_sqlcipher3_default.sh .build/sqlcipher3/root/usr/bin/sqlcipher OUT.db
#
# The password is "secret"; the table is item(id, name) with rows 'v3-0', 'v3-1', 'v3-2'.
set -eu
shell=$1
out=$2
rm -f "$out"
"$shell" -batch -bail "$out" <<'SQL'
PRAGMA key = 'secret';
PRAGMA journal_mode = WAL;
CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT);
INSERT INTO item(name) VALUES ('v3-0'), ('v3-1'), ('v3-2');
PRAGMA user_version = 7;
PRAGMA cipher_version;
SQL
