#ifndef CSQLCIPHER_SHIM_H
#define CSQLCIPHER_SHIM_H

// SQLCipher's sqlite3.h declares sqlite3_key / sqlite3_rekey only when
// SQLITE_HAS_CODEC is defined, and Debian's sqlcipher.pc does not define it.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif

#include <sqlite3.h>
#include <stddef.h>
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

// Binds a text without a copy (SQLITE_STATIC), for a caller that steps the statement while it
// still owns the bytes and rebinds the parameter before any later step (Statement.swift,
// withBorrowed). A NULL `text` binds an empty text, as csqlcipher_bind_text does.
static inline int csqlcipher_bind_text_nocopy(sqlite3_stmt *stmt, int index, const void *text, int length) {
    return sqlite3_bind_text(stmt, index, text ? (const char *)text : "", length, SQLITE_STATIC);
}

// Binds without a copy (SQLITE_STATIC): for key material, which SQLite would otherwise copy
// into memory it frees without wiping. The bytes must outlive the statement's use of them.
static inline int csqlcipher_bind_blob_nocopy(sqlite3_stmt *stmt, int index, const void *bytes, int length) {
    return sqlite3_bind_blob(stmt, index, bytes, length, SQLITE_STATIC);
}

// MARK: - Compiles counted, tables reported (CompileCounter.swift, TableAccess.swift)

// What the authorizer reports to Swift while `report_mask` asks for it.
enum {
    CSQLCIPHER_REPORT_READ = 1,    // a table a statement reads (SQLITE_READ)
    CSQLCIPHER_REPORT_WRITE = 2,   // a table a statement writes (SQLITE_INSERT, _UPDATE, _DELETE)
    CSQLCIPHER_REPORT_SCHEMA = 4,  // a statement changes the schema (CREATE, DROP, ALTER…)
};

// The authorizer's state, one per connection. `compiles` comes first: CompileCounter reads it
// through a pointer to the struct.
typedef struct csqlcipher_authorizer_state {
    uint64_t compiles;
    int report_mask;
    void *context;
    void (*report)(void *context, int kind, const char *table);
} csqlcipher_authorizer_state;

// The authorizer callback: SQLite calls it while it compiles a statement (sqlite3_prepare_v2,
// and the silent re-prepare inside sqlite3_step after a schema change), at least once for
// every statement that returns columns (SQLITE_SELECT, SQLITE_PRAGMA). It counts, reports the
// tables asked for, and allows everything.
static int csqlcipher_authorize(void *pointer, int action, const char *a, const char *b, const char *c, const char *d) {
    (void)b; (void)c; (void)d;
    csqlcipher_authorizer_state *state = (csqlcipher_authorizer_state *)pointer;
    state->compiles += 1;
    int mask = state->report_mask;
    if (mask == 0 || state->report == NULL) return SQLITE_OK;
    switch (action) {
    case SQLITE_READ:
        if ((mask & CSQLCIPHER_REPORT_READ) && a) state->report(state->context, CSQLCIPHER_REPORT_READ, a);
        break;
    case SQLITE_INSERT: case SQLITE_UPDATE: case SQLITE_DELETE:
        if ((mask & CSQLCIPHER_REPORT_WRITE) && a) state->report(state->context, CSQLCIPHER_REPORT_WRITE, a);
        break;
    case SQLITE_CREATE_INDEX: case SQLITE_CREATE_TABLE: case SQLITE_CREATE_TEMP_INDEX:
    case SQLITE_CREATE_TEMP_TABLE: case SQLITE_CREATE_TEMP_TRIGGER: case SQLITE_CREATE_TEMP_VIEW:
    case SQLITE_CREATE_TRIGGER: case SQLITE_CREATE_VIEW: case SQLITE_DROP_INDEX: case SQLITE_DROP_TABLE:
    case SQLITE_DROP_TEMP_INDEX: case SQLITE_DROP_TEMP_TABLE: case SQLITE_DROP_TEMP_TRIGGER:
    case SQLITE_DROP_TEMP_VIEW: case SQLITE_DROP_TRIGGER: case SQLITE_DROP_VIEW: case SQLITE_ALTER_TABLE:
    case SQLITE_CREATE_VTABLE: case SQLITE_DROP_VTABLE:
        if (mask & CSQLCIPHER_REPORT_WRITE) state->report(state->context, CSQLCIPHER_REPORT_SCHEMA, NULL);
        break;
    default: break;
    }
    return SQLITE_OK;
}

// Installs the authorizer with its state (sqlite3_set_authorizer): while the count is
// unchanged, no statement of the connection has been re-prepared.
static inline int csqlcipher_install_authorizer(sqlite3 *db, csqlcipher_authorizer_state *state) {
    return sqlite3_set_authorizer(db, csqlcipher_authorize, state);
}

// MARK: - Changes seen (ChangeTracker.swift)

// The state of a connection's update, commit and rollback hooks. The update hook reports a
// table only when it differs from the last one reported in the transaction (`last`, SQLite's
// own name pointer, stable while the statement runs): a loop of inserts into one table calls
// Swift once.
typedef struct csqlcipher_change_state {
    void *context;
    void (*changed)(void *context, const char *table);
    void (*ended)(void *context, int committed);
    const char *last;
} csqlcipher_change_state;

static void csqlcipher_update_hook(void *pointer, int op, const char *database, const char *table, sqlite3_int64 rowid) {
    (void)op; (void)database; (void)rowid;
    csqlcipher_change_state *state = (csqlcipher_change_state *)pointer;
    if (table == state->last) return;
    state->last = table;
    state->changed(state->context, table);
}

static int csqlcipher_commit_hook(void *pointer) {
    csqlcipher_change_state *state = (csqlcipher_change_state *)pointer;
    state->last = NULL;
    state->ended(state->context, 1);
    return 0;
}

static void csqlcipher_rollback_hook(void *pointer) {
    csqlcipher_change_state *state = (csqlcipher_change_state *)pointer;
    state->last = NULL;
    state->ended(state->context, 0);
}

// Installs the three hooks with their state, or removes them (`state` NULL).
static inline void csqlcipher_install_change_hooks(sqlite3 *db, csqlcipher_change_state *state) {
    sqlite3_update_hook(db, state ? csqlcipher_update_hook : NULL, state);
    sqlite3_commit_hook(db, state ? csqlcipher_commit_hook : NULL, state);
    sqlite3_rollback_hook(db, state ? csqlcipher_rollback_hook : NULL, state);
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
    // A BLOB's bytes are read as they are: sqlite3_value_text would convert the column to TEXT
    // in place, and a later sqlite3_column_type would say TEXT.
    if (sqlite3_value_type(value) == SQLITE_BLOB) {
        const unsigned char *bytes = (const unsigned char *)sqlite3_value_blob(value);
        *count = sqlite3_value_bytes(value);
        return bytes == NULL ? (const unsigned char *)"" : bytes;
    }
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
