// Included by prepare.sh in place of `#include <sqlite3.h>` in a build-time copy of GRDB 7.8's
// Sources/GRDBSQLite/shim.h (nothing of GRDB is in this repository): Debian's SQLCipher 3.4.1
// (SQLite 3.15.2) instead of the system SQLite. Functions GRDB 7.8 calls that SQLite 3.15.2
// lacks are declared here and defined by this package's GRDBShim target.
#define SQLITE_HAS_CODEC 1
// SQLite 3.15.2 declares sqlite3_snapshot as an incomplete struct (imported as OpaquePointer);
// GRDB 7.8 names the type, as declared since 3.20: the old declarations are renamed away.
#define sqlite3_snapshot sqlite3_snapshot_3_15
#define sqlite3_snapshot_get sqlite3_snapshot_get_3_15
#define sqlite3_snapshot_open sqlite3_snapshot_open_3_15
#define sqlite3_snapshot_free sqlite3_snapshot_free_3_15
#define sqlite3_snapshot_cmp sqlite3_snapshot_cmp_3_15
#include <sqlcipher/sqlite3.h>
#undef sqlite3_snapshot
#undef sqlite3_snapshot_get
#undef sqlite3_snapshot_open
#undef sqlite3_snapshot_free
#undef sqlite3_snapshot_cmp
typedef struct sqlite3_snapshot { unsigned char hidden[48]; } sqlite3_snapshot;
int sqlite3_snapshot_get(sqlite3 *db, const char *zSchema, sqlite3_snapshot **ppSnapshot);
int sqlite3_snapshot_open(sqlite3 *db, const char *zSchema, sqlite3_snapshot *pSnapshot);
void sqlite3_snapshot_free(sqlite3_snapshot *);
int sqlite3_snapshot_cmp(sqlite3_snapshot *p1, sqlite3_snapshot *p2);
#define SQLITE_PREPARE_PERSISTENT 0x01
int sqlite3_prepare_v3(sqlite3 *db, const char *zSql, int nByte, unsigned int prepFlags,
                       sqlite3_stmt **ppStmt, const char **pzTail);
int sqlite3_bind_pointer(sqlite3_stmt *stmt, int index, void *pointer, const char *type, void (*destructor)(void *));
