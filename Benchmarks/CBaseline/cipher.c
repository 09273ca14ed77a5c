// What the cipher costs and which settings are in force, in raw C: the settings a connection
// reports (so the runner can prove both sides run the same ones), and one PBKDF2 derivation at
// the linked SQLCipher's default hash and iteration count, the part of an open that dominates it.
#ifndef SQLITE_HAS_CODEC
#define SQLITE_HAS_CODEC 1
#endif
#include <openssl/evp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include "rows.h"

// MARK: - Settings

// The first column of the first row of `sql` copied into `buffer` ("" when there is no row:
// SQLCipher 3.x answers no row for the 4.x pragmas).
static int cb_pragma_text(sqlite3 *db, const char *sql, char *buffer, int capacity) {
    sqlite3_stmt *stmt = NULL;
    buffer[0] = '\0';
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, NULL);
    if (rc == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW) {
        const unsigned char *text = sqlite3_column_text(stmt, 0);
        if (text) snprintf(buffer, (size_t)capacity, "%s", (const char *)text);
    }
    sqlite3_finalize(stmt);
    return rc;
}

static int cb_pragma_int(sqlite3 *db, const char *sql) {
    char text[32];
    cb_pragma_text(db, sql, text, sizeof text);
    int value = 0;
    sscanf(text, "%d", &value);
    return value;
}

int cb_cipher_settings(cb_db *db, cb_cipher_settings_t *settings) {
    memset(settings, 0, sizeof *settings);
    sqlite3 *handle = db->handle;
    settings->page_size = cb_pragma_int(handle, "PRAGMA cipher_page_size");
    settings->kdf_iter = cb_pragma_int(handle, "PRAGMA kdf_iter");
    settings->use_hmac = cb_pragma_int(handle, "PRAGMA cipher_use_hmac");
    cb_pragma_text(handle, "PRAGMA cipher_kdf_algorithm", settings->kdf_algorithm, sizeof settings->kdf_algorithm);
    cb_pragma_text(handle, "PRAGMA cipher_hmac_algorithm", settings->hmac_algorithm, sizeof settings->hmac_algorithm);
    return cb_pragma_text(handle, "PRAGMA cipher_version", settings->version, sizeof settings->version);
}

// MARK: - Key derivation

int cb_default_kdf(int *iterations, char *algorithm, int capacity) {
    sqlite3 *db = NULL;
    if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
        sqlite3_close_v2(db);
        return -1;
    }
    *iterations = cb_pragma_int(db, "PRAGMA cipher_default_kdf_iter");
    // 3.x knows no cipher_default_kdf_algorithm: it always derives with HMAC-SHA1.
    cb_pragma_text(db, "PRAGMA cipher_default_kdf_algorithm", algorithm, capacity);
    if (algorithm[0] == '\0') snprintf(algorithm, (size_t)capacity, "PBKDF2_HMAC_SHA1");
    sqlite3_close_v2(db);
    return *iterations > 0 ? 0 : -1;
}

int cb_pbkdf2(const void *password, int password_len, const unsigned char *salt, int salt_len, int iterations,
              const char *algorithm, unsigned char *key, int key_len) {
    const EVP_MD *digest = strcmp(algorithm, "PBKDF2_HMAC_SHA512") == 0   ? EVP_sha512()
                           : strcmp(algorithm, "PBKDF2_HMAC_SHA256") == 0 ? EVP_sha256()
                           : strcmp(algorithm, "PBKDF2_HMAC_SHA1") == 0   ? EVP_sha1()
                                                                          : NULL;
    if (digest == NULL) return -1;
    return PKCS5_PBKDF2_HMAC(password, password_len, salt, salt_len, iterations, digest, key_len, key) == 1 ? 0 : -1;
}
