// SQLite 3.15.2 lacks these. sqlite3_prepare_v3's flags are only a hint
// (SQLITE_PREPARE_PERSISTENT); the others are never reached by the benchmark's workloads.
#define SQLITE_HAS_CODEC 1
#define sqlite3_snapshot_get sqlite3_snapshot_get_3_15
#define sqlite3_snapshot_open sqlite3_snapshot_open_3_15
#define sqlite3_snapshot_free sqlite3_snapshot_free_3_15
#define sqlite3_snapshot_cmp sqlite3_snapshot_cmp_3_15
#include <sqlcipher/sqlite3.h>
#undef sqlite3_snapshot_get
#undef sqlite3_snapshot_open
#undef sqlite3_snapshot_free
#undef sqlite3_snapshot_cmp
#include "GRDBShim.h"

void grdb_shim_link(void) {}

int sqlite3_prepare_v3(sqlite3 *db, const char *sql, int bytes, unsigned int flags,
                       sqlite3_stmt **statement, const char **tail) {
    (void)flags;
    return sqlite3_prepare_v2(db, sql, bytes, statement, tail);
}

int sqlite3_bind_pointer(sqlite3_stmt *statement, int index, void *pointer, const char *type,
                         void (*destructor)(void *)) {
    (void)statement; (void)index; (void)pointer; (void)type; (void)destructor;
    return SQLITE_ERROR;
}

// Declared by GRDB's shim.h with the 3.20 snapshot type; C linkage does not check it.
int sqlite3_snapshot_get(void *db, const char *schema, void **snapshot) {
    (void)db; (void)schema; (void)snapshot;
    return SQLITE_ERROR;
}

int sqlite3_snapshot_open(void *db, const char *schema, void *snapshot) {
    (void)db; (void)schema; (void)snapshot;
    return SQLITE_ERROR;
}

void sqlite3_snapshot_free(void *snapshot) { (void)snapshot; }

int sqlite3_snapshot_cmp(void *a, void *b) { (void)a; (void)b; return 0; }
