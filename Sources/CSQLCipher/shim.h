#ifndef CSQLCIPHER_SHIM_H
#define CSQLCIPHER_SHIM_H

// SQLCipher's sqlite3.h declares sqlite3_key / sqlite3_rekey only when
// SQLITE_HAS_CODEC is defined, and Debian's sqlcipher.pc does not define it.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif

#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import. These helpers bind with a copy made by SQLite.
static inline int csqlcipher_bind_text(sqlite3_stmt *stmt, int index, const char *text, int length) {
    return sqlite3_bind_text(stmt, index, text, length, SQLITE_TRANSIENT);
}

static inline int csqlcipher_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

// Binds without a copy (SQLITE_STATIC): for key material, which SQLite would otherwise copy
// into memory it frees without wiping. The bytes must outlive the statement's use of them.
static inline int csqlcipher_bind_blob_nocopy(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_STATIC);
}

#endif
