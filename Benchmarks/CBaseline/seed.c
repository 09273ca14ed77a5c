// The seed's workloads in raw C: what a C program does for the seed's benchmark
// (100k 8-field rows, one transaction). Every row's texts are formatted with snprintf as the row
// is inserted (no pre-built pool), and reads take texts by sqlite3_column_bytes only (no copy),
// but for fetchAll's work (cb_fetch_all_lengths), which keeps every row and copies its texts.
// Its connections are opened SQLITE_OPEN_NOMUTEX (cb_options.no_mutex), as the library's are.
// The older baseline in workloads.c (pooled texts, a copy of every text read) stays for the
// `api` section and the old columns of the `seed` section.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rows.h"

// 78 letters: every rotation of the alphabet (shift < 26) is followed by at least 52 letters.
static const char letters[] = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz";

// MARK: - Formatting

int cb_format_text(int64_t row, int field, char *buffer, int capacity) {
    int k = (int)((row * (2 * field + 3) + field) % cb_pool_size());
    int length = 12 + (k * 37 + field * 11) % 40;
    // "f<field>k<k>:" is 4 characters plus the digits of k.
    int prefix = 5 + (k >= 10) + (k >= 100) + (k >= 1000);
    return snprintf(buffer, (size_t)capacity, "f%dk%d:%.*s", field, k, length - prefix,
                    letters + (k + prefix) % 26);
}

int64_t cb_format_all(int rows) {
    char text[64];
    int64_t sum = 0;
    for (int64_t row = 1; row <= rows; row++) {
        for (int field = 0; field < 4; field++) sum += cb_format_text(row, field, text, 64);
    }
    return sum;
}

// MARK: - Insert

// Binds row `row`, its texts formatted into `context` (a char[4][64]) as it goes.
static int cb_bind_formatted_row(sqlite3_stmt *stmt, int64_t row, void *context) {
    char (*texts)[64] = context;
    int rc = sqlite3_bind_int64(stmt, 1, row);
    for (int field = 0; field < 4 && rc == SQLITE_OK; field++) {
        int length = cb_format_text(row, field, texts[field], 64);
        rc = sqlite3_bind_text(stmt, 2 + field, texts[field], length, SQLITE_TRANSIENT);
    }
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 6, cb_row_int1(row));
    if (rc == SQLITE_OK) rc = sqlite3_bind_int64(stmt, 7, cb_row_int2(row));
    if (rc == SQLITE_OK) rc = sqlite3_bind_double(stmt, 8, cb_row_real(row));
    return rc;
}

int cb_insert_formatted(cb_db *db, int rows) {
    char texts[4][64];
    return cb_insert_rows(db, rows, cb_bind_formatted_row, texts);
}

// MARK: - Reading

// The checksum of the current row: the integers, the text lengths (sqlite3_column_bytes only:
// the text itself is not touched) and the truncated real.
static int64_t cb_row_lengths(sqlite3_stmt *stmt, void *context) {
    (void)context;
    int64_t sum = sqlite3_column_int64(stmt, 0);
    for (int field = 0; field < 4; field++) sum += sqlite3_column_bytes(stmt, 1 + field);
    sum += sqlite3_column_int64(stmt, 5) + sqlite3_column_int64(stmt, 6);
    return sum + (int64_t)sqlite3_column_double(stmt, 7);
}

int64_t cb_read_lengths(cb_db *db, int passes) {
    int64_t sum = 0;
    for (int pass = 0; pass < passes && sum >= 0; pass++) {
        int64_t part = cb_read_rows(db, cb_row_lengths, NULL);
        sum = part < 0 ? -1 : sum + part;
    }
    return sum;
}

int64_t cb_lookup_lengths(cb_db *db, const int64_t *ids, int count) {
    return cb_lookup_rows(db, ids, count, cb_row_lengths, NULL);
}

// MARK: - Keeping the rows (fetchAll's work)

// What a C programmer does for "all rows in memory, then use them" (fetchAll → [Row]): one
// malloc per row holding its values and a copy of its texts, the pointers in a growing array.
typedef struct cb_kept_row {
    int64_t id, n1, n2;
    double r;
    int lengths[4];
    char texts[];  // the 4 texts, each followed by a NUL
} cb_kept_row;

typedef struct cb_kept_rows {
    cb_kept_row **items;
    size_t count, capacity;
} cb_kept_rows;

// The current row in one block: the texts sized first (sqlite3_column_text, then _bytes, the
// documented order), so a single malloc holds them all.
static cb_kept_row *cb_keep_row(sqlite3_stmt *stmt) {
    const unsigned char *texts[4];
    int lengths[4];
    size_t size = sizeof(cb_kept_row);
    for (int field = 0; field < 4; field++) {
        texts[field] = sqlite3_column_text(stmt, 1 + field);
        lengths[field] = sqlite3_column_bytes(stmt, 1 + field);
        size += (size_t)lengths[field] + 1;
    }
    cb_kept_row *row = malloc(size);
    if (row == NULL) return NULL;
    row->id = sqlite3_column_int64(stmt, 0);
    row->n1 = sqlite3_column_int64(stmt, 5);
    row->n2 = sqlite3_column_int64(stmt, 6);
    row->r = sqlite3_column_double(stmt, 7);
    char *cursor = row->texts;
    for (int field = 0; field < 4; field++) {
        row->lengths[field] = lengths[field];
        if (lengths[field] > 0) memcpy(cursor, texts[field], (size_t)lengths[field]);
        cursor[lengths[field]] = '\0';
        cursor += lengths[field] + 1;
    }
    return row;
}

// Appends `row`, doubling the array when it is full. 0, or -1 when realloc fails.
static int cb_kept_append(cb_kept_rows *rows, cb_kept_row *row) {
    if (rows->count == rows->capacity) {
        size_t capacity = rows->capacity == 0 ? 64 : rows->capacity * 2;
        cb_kept_row **items = realloc(rows->items, capacity * sizeof *items);
        if (items == NULL) return -1;
        rows->items = items;
        rows->capacity = capacity;
    }
    rows->items[rows->count++] = row;
    return 0;
}

static void cb_kept_free(cb_kept_rows *rows) {
    for (size_t i = 0; i < rows->count; i++) free(rows->items[i]);
    free(rows->items);
}

// Steps every row into `rows`, then finalizes: the statement is gone before the rows are used.
static int cb_keep_all(cb_db *db, cb_kept_rows *rows) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db->handle, CB_SELECT_ALL_SQL, -1, &stmt, NULL) != SQLITE_OK) return -1;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        cb_kept_row *row = cb_keep_row(stmt);
        if (row == NULL || cb_kept_append(rows, row) != 0) {
            free(row);
            rc = SQLITE_NOMEM;
            break;
        }
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? 0 : -1;
}

// cb_row_lengths' checksum, from the kept rows.
static int64_t cb_kept_checksum(const cb_kept_rows *rows) {
    int64_t sum = 0;
    for (size_t i = 0; i < rows->count; i++) {
        const cb_kept_row *row = rows->items[i];
        sum += row->id + row->n1 + row->n2 + (int64_t)row->r;
        for (int field = 0; field < 4; field++) sum += row->lengths[field];
    }
    return sum;
}

int64_t cb_fetch_all_lengths(cb_db *db, int passes) {
    int64_t sum = 0;
    for (int pass = 0; pass < passes && sum >= 0; pass++) {
        cb_kept_rows rows = {NULL, 0, 0};
        int64_t part = cb_keep_all(db, &rows) == 0 ? cb_kept_checksum(&rows) : -1;
        cb_kept_free(&rows);
        sum = part < 0 ? -1 : sum + part;
    }
    return sum;
}

// MARK: - Content checksum

// FNV-1a over every value of every row (texts byte by byte), in rowid order: proves two files
// hold the same rows, not only rows of the same lengths.
int64_t cb_content_checksum(cb_db *db) {
    sqlite3_stmt *stmt = NULL;
    if (sqlite3_prepare_v2(db->handle, CB_SELECT_ALL_SQL " ORDER BY id", -1, &stmt, NULL) != SQLITE_OK) return -1;
    uint64_t hash = 0xcbf29ce484222325ULL;
    int rc;
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) {
        for (int column = 0; column < 8; column++) {
            const unsigned char *bytes = sqlite3_column_text(stmt, column);
            int length = sqlite3_column_bytes(stmt, column);
            for (int i = 0; i < length; i++) hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
            hash = (hash ^ 0xff) * 0x100000001b3ULL;
        }
    }
    sqlite3_finalize(stmt);
    return rc == SQLITE_DONE ? (int64_t)(hash >> 1) : -1;
}
