// The C workloads: open/unlock, insert, read all, lookups — directly on libsqlcipher.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "rows.h"

// MARK: - Open and close

static int cb_pragma(sqlite3 *db, const char *name, int value) {
    char sql[96];
    snprintf(sql, sizeof sql, "PRAGMA %s = %d", name, value);
    return sqlite3_exec(db, sql, NULL, NULL, NULL);
}

cb_db *cb_open(const char *path, const cb_options *options, int create) {
    sqlite3 *handle = NULL;
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | (options->no_mutex ? SQLITE_OPEN_NOMUTEX : 0);
    if (sqlite3_open_v2(path, &handle, flags, NULL) != SQLITE_OK) goto fail;
    if (options->key && sqlite3_key(handle, options->key, options->key_len) != SQLITE_OK) goto fail;
    if (options->page_size > 0) {
        const char *name = options->key ? "cipher_page_size" : "page_size";
        if (cb_pragma(handle, name, options->page_size) != SQLITE_OK) goto fail;
    }
    if (options->cache_size != 0 && cb_pragma(handle, "cache_size", options->cache_size) != SQLITE_OK) goto fail;
    if (sqlite3_exec(handle, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) goto fail;
    cb_db *db = sqlite3_malloc(sizeof(cb_db));
    if (!db) goto fail;
    db->handle = handle;
    return db;
fail:
    if (handle) {
        fprintf(stderr, "cb_open(%s): %s\n", path, sqlite3_errmsg(handle));
        sqlite3_close_v2(handle);
    }
    return NULL;
}

void cb_close(cb_db *db) {
    if (!db) return;
    sqlite3_close_v2(db->handle);
    sqlite3_free(db);
}

int cb_create_table(cb_db *db) {
    cb_rows_prepare();  // the text pool, built before (not during) the measured insert
    return sqlite3_exec(db->handle, CB_CREATE_SQL, NULL, NULL, NULL);
}

// MARK: - Insert

static int cb_bind_row(sqlite3_stmt *stmt, int64_t row, void *context) {
    (void)context;
    int rc = sqlite3_bind_int64(stmt, 1, row);
    for (int field = 0; field < 4 && rc == SQLITE_OK; field++) {
        int length = 0;
        const char *text = cb_row_text(row, field, &length);
        rc = sqlite3_bind_text(stmt, 2 + field, text, length, SQLITE_TRANSIENT);
    }
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 6, cb_row_int1(row));
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 7, cb_row_int2(row));
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 8, cb_row_real(row));
    return rc;
}

int cb_insert_rows(cb_db *db, int rows, cb_row_binder bind, void *context) {
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_exec(db->handle, "BEGIN TRANSACTION", NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_prepare_v2(db->handle, CB_INSERT_SQL, -1, &stmt, NULL);
    for (int64_t row = 1; row <= rows && rc == SQLITE_OK; row++) {
        rc = bind(stmt, row, context);
        if (rc == SQLITE_OK) rc = sqlite3_step(stmt) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db->handle, "COMMIT TRANSACTION", NULL, NULL, NULL);
    if (rc != SQLITE_OK) {
        fprintf(stderr, "insert: %s\n", sqlite3_errmsg(db->handle));
        sqlite3_exec(db->handle, "ROLLBACK", NULL, NULL, NULL);
    }
    return rc;
}

int cb_insert(cb_db *db, int rows) {
    cb_rows_prepare();  // no-op after cb_create_table
    return cb_insert_rows(db, rows, cb_bind_row, NULL);
}

// MARK: - Reading

// Reads the 8 columns of the current row, copying each text out into `context` (a scratch
// char[4][256]) as a consumer must before the next step, and folds them into the checksum.
static int64_t cb_read_row(sqlite3_stmt *stmt, void *context) {
    char (*scratch)[256] = context;
    int64_t sum = sqlite3_column_int64(stmt, 0);
    for (int field = 0; field < 4; field++) {
        const unsigned char *text = sqlite3_column_text(stmt, 1 + field);
        int length = sqlite3_column_bytes(stmt, 1 + field);
        if (text && length < 256) memcpy(scratch[field], text, (size_t)length);
        sum += length;
    }
    sum += sqlite3_column_int64(stmt, 5) + sqlite3_column_int64(stmt, 6);
    sum += (int64_t)sqlite3_column_double(stmt, 7);
    return sum;
}

int64_t cb_read_rows(cb_db *db, cb_row_reader read, void *context) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db->handle, CB_SELECT_ALL_SQL, -1, &stmt, NULL) != SQLITE_OK) return -1;
    int64_t sum = 0;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) sum += read(stmt, context);
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? sum : -1;
}

int64_t cb_lookup_rows(cb_db *db, const int64_t *ids, int count, cb_row_reader read, void *context) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db->handle, CB_LOOKUP_SQL, -1, &stmt, NULL) != SQLITE_OK) return -1;
    int64_t sum = 0;
    for (int i = 0; i < count; i++) {
        if (sqlite3_bind_int64(stmt, 1, ids[i]) != SQLITE_OK) { sum = -1; break; }
        int rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) sum += read(stmt, context);
        else if (rc != SQLITE_DONE) { sum = -1; break; }
        sqlite3_reset(stmt);
    }
    sqlite3_finalize(stmt);
    return sum;
}

int64_t cb_read_all(cb_db *db) {
    static char scratch[4][256];
    return cb_read_rows(db, cb_read_row, scratch);
}

int64_t cb_lookups(cb_db *db, const int64_t *ids, int count) {
    static char scratch[4][256];
    return cb_lookup_rows(db, ids, count, cb_read_row, scratch);
}

int cb_exec(cb_db *db, const char *sql) {
    return sqlite3_exec(db->handle, sql, NULL, NULL, NULL);
}
