#ifndef CSQLCIPHER_SHIM_H
#define CSQLCIPHER_SHIM_H

// SQLCipher's sqlite3.h declares sqlite3_key / sqlite3_rekey only when
// SQLITE_HAS_CODEC is defined, and Debian's sqlcipher.pc does not define it.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif

#include <sqlite3.h>
#include <stdint.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift
// cannot import. These helpers bind with a copy made by SQLite.
// A NULL `text` (the base of an empty buffer) binds an empty text, not NULL.
static inline int csqlcipher_bind_text(sqlite3_stmt *stmt, int index, const void *text, int length) {
    return sqlite3_bind_text(stmt, index, text ? (const char *)text : "", length, SQLITE_TRANSIENT);
}

static inline int csqlcipher_bind_blob(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_TRANSIENT);
}

// Binds without a copy (SQLITE_STATIC): for key material, which SQLite would otherwise copy
// into memory it frees without wiping. The bytes must outlive the statement's use of them.
static inline int csqlcipher_bind_blob_nocopy(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_STATIC);
}

// MARK: - Compiles counted (CompileCounter.swift)

// The authorizer callback: SQLite calls it while it compiles a statement (sqlite3_prepare_v2,
// and the silent re-prepare inside sqlite3_step after a schema change), at least once for
// every statement that returns columns (SQLITE_SELECT, SQLITE_PRAGMA). It only counts, and
// allows everything.
static int csqlcipher_compile_counted(void *counter, int action, const char *a, const char *b, const char *c, const char *d) {
    (void)action; (void)a; (void)b; (void)c; (void)d;
    *(uint64_t *)counter += 1;
    return SQLITE_OK;
}

// Counts in `*counter` the statements the connection compiles (sqlite3_set_authorizer): while
// the count is unchanged, no statement of the connection has been re-prepared.
static inline int csqlcipher_count_compiles(sqlite3 *db, uint64_t *counter) {
    return sqlite3_set_authorizer(db, csqlcipher_compile_counted, counter);
}

// MARK: - Rows copied out (Statement+Rows.swift)

#include <string.h>
#include <stdint.h>

// 1 when the statement has `count` columns named exactly as the `count` NUL-terminated strings
// packed one after the other in `names` (sqlite3_column_name, strcmp), else 0: the check that
// a cached statement's names still hold after SQLite may have re-prepared it.
static inline int csqlcipher_column_names_equal(sqlite3_stmt *stmt, const char *names, int count) {
    if (sqlite3_column_count(stmt) != count) return 0;
    for (int i = 0; i < count; i++) {
        const char *name = sqlite3_column_name(stmt, i);
        if (name == NULL || strcmp(name, names) != 0) return 0;
        names += strlen(names) + 1;
    }
    return 1;
}

// The values of the current row are read through sqlite3_column_value: one column lookup per
// column, then sqlite3_value_type / _bytes / _int64 / _double / _text / _blob, which do not look
// the column up (or enter the connection's mutex) again. SQLite calls such use of the unprotected
// value "not threadsafe": the connection is used by one thread at a time, always.

// A column's text as UTF-8 and its length in bytes, with one column lookup
// (sqlite3_column_value, then sqlite3_value_text and sqlite3_value_bytes): NULL for NULL.
static inline const unsigned char *csqlcipher_column_utf8(sqlite3_stmt *stmt, int index, int *count) {
    sqlite3_value *value = sqlite3_column_value(stmt, index);
    const unsigned char *text = sqlite3_value_text(value);
    *count = text == NULL ? 0 : sqlite3_value_bytes(value);
    return text;
}

// The shape of the current row, for csqlcipher_row_copy: for each of the `count` columns, its
// value in `values[i]` (sqlite3_column_value, valid until the next step) and in `shape[i]` its
// storage class in the low 8 bits and, for a text or blob, its length in bytes above them;
// returns the total length.
static inline int64_t csqlcipher_row_shape(sqlite3_stmt *stmt, int count, int64_t *shape, sqlite3_value **values) {
    int64_t bytes = 0;
    for (int i = 0; i < count; i++) {
        sqlite3_value *value = sqlite3_column_value(stmt, i);
        int type = sqlite3_value_type(value);
        int64_t length = (type == SQLITE_TEXT || type == SQLITE_BLOB) ? sqlite3_value_bytes(value) : 0;
        values[i] = value;
        shape[i] = type | (length << 8);
        bytes += length;
    }
    return bytes;
}

// Copies the current row of the given shape and values: each column's storage class in `tags`,
// an 8-byte cell in `cells` (the integer, the double's bits, or the offset of its bytes in
// `bytes` in the low 32 bits and their length in the high 32), and the texts and blobs one
// after the other in `bytes`.
static inline void csqlcipher_row_copy(int count, const int64_t *shape, sqlite3_value *const *values, uint8_t *tags, int64_t *cells, uint8_t *bytes) {
    int64_t offset = 0;
    for (int i = 0; i < count; i++) {
        int type = (int)(shape[i] & 0xFF);
        int64_t length = shape[i] >> 8;
        const void *source = NULL;
        tags[i] = (uint8_t)type;
        switch (type) {
        case SQLITE_INTEGER: cells[i] = sqlite3_value_int64(values[i]); continue;
        case SQLITE_FLOAT: { double real = sqlite3_value_double(values[i]); memcpy(&cells[i], &real, 8); continue; }
        case SQLITE_TEXT: source = sqlite3_value_text(values[i]); break;
        case SQLITE_BLOB: source = sqlite3_value_blob(values[i]); break;
        default: cells[i] = 0; continue;
        }
        if (source == NULL) length = 0;
        if (length > 0) memcpy(bytes + offset, source, (size_t)length);
        cells[i] = offset | (length << 32);
        offset += length;
    }
}

// The current row copied in one pass into `base` (tags, cells and bytes laid out as
// csqlcipher_row_copy lays them out, cells 8-byte aligned) when it fits in `capacity` bytes:
// returns the length of its texts and blobs, or -1 when it does not fit (what was written is
// then not to be used: the caller sizes a block with csqlcipher_row_shape instead).
static inline int64_t csqlcipher_row_copy_into(sqlite3_stmt *stmt, int count, uint8_t *base, int64_t capacity) {
    int64_t cellsOffset = ((int64_t)count + 7) & ~(int64_t)7;
    int64_t bytesOffset = cellsOffset + 8 * (int64_t)count;
    if (bytesOffset > capacity) return -1;
    int64_t *cells = (int64_t *)(void *)(base + cellsOffset);
    uint8_t *bytes = base + bytesOffset;
    int64_t room = capacity - bytesOffset, offset = 0;
    for (int i = 0; i < count; i++) {
        sqlite3_value *value = sqlite3_column_value(stmt, i);
        int type = sqlite3_value_type(value);
        const void *source;
        base[i] = (uint8_t)type;
        switch (type) {
        case SQLITE_INTEGER: cells[i] = sqlite3_value_int64(value); continue;
        case SQLITE_FLOAT: { double real = sqlite3_value_double(value); memcpy(&cells[i], &real, 8); continue; }
        case SQLITE_TEXT: source = sqlite3_value_text(value); break;
        case SQLITE_BLOB: source = sqlite3_value_blob(value); break;
        default: cells[i] = 0; continue;
        }
        int64_t length = source == NULL ? 0 : sqlite3_value_bytes(value);
        if (length > room - offset) return -1;
        if (length > 0) memcpy(bytes + offset, source, (size_t)length);
        cells[i] = offset | (length << 32);
        offset += length;
    }
    return offset;
}

#endif
