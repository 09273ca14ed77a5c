#ifndef CBASELINE_ROWS_H
#define CBASELINE_ROWS_H
#include "CBaseline.h"

// The row generator shared by the C workloads (private to the target).
struct cb_db { struct sqlite3 *handle; };
struct sqlite3_stmt;

/// Binds row `row`'s 8 values to the insert statement (`context`: the binder's own buffers).
typedef int (*cb_row_binder)(struct sqlite3_stmt *stmt, int64_t row, void *context);
/// Reads the current result row into a checksum (`context`: the reader's own buffers).
typedef int64_t (*cb_row_reader)(struct sqlite3_stmt *stmt, void *context);

/// Inserts rows 1...rows in one transaction with one prepared statement, each bound by `bind`.
int cb_insert_rows(cb_db *db, int rows, cb_row_binder bind, void *context);
/// Reads every row of `bench` once with `read`; the checksum, or -1.
int64_t cb_read_rows(cb_db *db, cb_row_reader read, void *context);
/// Looks up `count` primary keys, each result row read with `read`; the checksum, or -1.
int64_t cb_lookup_rows(cb_db *db, const int64_t *ids, int count, cb_row_reader read, void *context);
void cb_rows_prepare(void);
const char *cb_row_text(int64_t row, int field, int *length);
static inline int64_t cb_row_int1(int64_t row) { return (row * 7919) % 100000; }
static inline int64_t cb_row_int2(int64_t row) { return row % 13; }
static inline double cb_row_real(int64_t row) { return (double)row * 0.25; }

#define CB_INSERT_SQL "INSERT INTO bench(id, t1, t2, t3, t4, n1, n2, r) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
#define CB_SELECT_ALL_SQL "SELECT id, t1, t2, t3, t4, n1, n2, r FROM bench"
#define CB_LOOKUP_SQL "SELECT id, t1, t2, t3, t4, n1, n2, r FROM bench WHERE id = ?"
#define CB_CREATE_SQL "CREATE TABLE bench(id INTEGER PRIMARY KEY, t1 TEXT, t2 TEXT, t3 TEXT, t4 TEXT, " \
                      "n1 INTEGER, n2 INTEGER, r REAL)"
#endif
