#ifndef CBASELINE_ROWS_H
#define CBASELINE_ROWS_H
#include "CBaseline.h"

// The row generator shared by the C workloads (private to the target).
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
