// The bare migration (the seed's flow): ATTACH … KEY, sqlcipher_export, DETACH — with the key
// bound as a parameter, never pasted into SQL text.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "CBaseline.h"

// MARK: - Export

static int cb_attach(sqlite3 *db, const char *target, const void *key, int key_len) {
    sqlite3_stmt *stmt = NULL;
    int rc = sqlite3_prepare_v2(db, "ATTACH DATABASE ? AS target KEY ?", -1, &stmt, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_bind_text(stmt, 1, target, -1, SQLITE_TRANSIENT);
    if (rc == SQLITE_OK) {
        rc = key ? sqlite3_bind_blob(stmt, 2, key, key_len, SQLITE_TRANSIENT)
                 : sqlite3_bind_text(stmt, 2, "", 0, SQLITE_STATIC);
    }
    if (rc == SQLITE_OK) rc = sqlite3_step(stmt) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    sqlite3_finalize(stmt);
    return rc;
}

int cb_export(const char *source, const void *source_key, int source_key_len,
              const char *target, const void *target_key, int target_key_len) {
    sqlite3 *db = NULL;
    // ATTACH inherits the open flags: without SQLITE_OPEN_CREATE it cannot create the target.
    int rc = sqlite3_open_v2(source, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
    if (rc == SQLITE_OK && source_key) rc = sqlite3_key(db, source_key, source_key_len);
    if (rc == SQLITE_OK) rc = cb_attach(db, target, target_key, target_key_len);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "SELECT sqlcipher_export('target')", NULL, NULL, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "DETACH DATABASE target", NULL, NULL, NULL);
    if (rc != SQLITE_OK && db) fprintf(stderr, "cb_export: %s\n", sqlite3_errmsg(db));
    sqlite3_close_v2(db);
    return rc;
}

// MARK: - Memory

long cb_peak_rss_kib(void) {
    FILE *file = fopen("/proc/self/status", "r");
    if (!file) return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, file)) {
        if (strncmp(line, "VmHWM:", 6) == 0) { sscanf(line + 6, "%ld", &kib); break; }
    }
    fclose(file);
    return kib;
}
