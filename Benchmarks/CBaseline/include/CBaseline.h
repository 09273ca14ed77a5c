#ifndef CBASELINE_H
#define CBASELINE_H

// The raw-C floor for the benchmarks: the same work as the Swift workloads, done directly on
// libsqlcipher with prepared statements and one transaction. Not part of the library.

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// An open connection (an opaque `sqlite3 *`).
typedef struct cb_db cb_db;

/// How to open: a key of `key_len` bytes (NULL = plaintext, no sqlite3_key call),
/// `page_size` / `cache_size` pragmas (0 = library default), and `no_mutex` (non-zero:
/// SQLITE_OPEN_NOMUTEX, the threading mode the library's own connections use; 0: the library's
/// default, serialized, as the seed's FMDB opens).
typedef struct cb_options {
    const void *key;
    int key_len;
    int page_size;
    int cache_size;
    int no_mutex;
} cb_options;

/// Opens (creating when `create` is non-zero) and unlocks `path`: sqlite3_open_v2,
/// sqlite3_key, the page size / cache size pragmas, then a read of sqlite_master (the KDF).
/// Returns NULL on failure.
cb_db *cb_open(const char *path, const cb_options *options, int create);

/// Closes the connection (sqlite3_close_v2).
void cb_close(cb_db *db);

/// Creates the benchmark table `bench` (8 fields).
int cb_create_table(cb_db *db);

/// Inserts rows 1...rows in one transaction with one prepared statement. 0 on success.
int cb_insert(cb_db *db, int rows);

/// Reads every row and column of `bench`; copies each text into a scratch buffer. Returns a
/// checksum (sum of the integers, the text lengths and the truncated reals), or -1 on failure.
int64_t cb_read_all(cb_db *db);

/// Looks up `count` primary keys from `ids` (`SELECT * FROM bench WHERE id = ?`), reading
/// every column. Returns the same kind of checksum, or -1 on failure.
int64_t cb_lookups(cb_db *db, const int64_t *ids, int count);
/// Runs SQL without results (BEGIN, COMMIT, a PRAGMA); SQLITE_OK or the error code.
int cb_exec(cb_db *db, const char *sql);

/// The bare migration: open `source` (keyed with `source_key`, NULL = plaintext),
/// `ATTACH ? AS target KEY ?` with bound parameters, `SELECT sqlcipher_export('target')`,
/// `DETACH`, close. 0 on success.
int cb_export(const char *source, const void *source_key, int source_key_len,
              const char *target, const void *target_key, int target_key_len);

/// The text of field `field` (0...3) for pool entry `k`, written NUL-terminated into `buffer`.
/// Returns its length. Both the C and the Swift workloads take their text from this pool.
int cb_pool_text(int field, int k, char *buffer, int capacity);

/// The number of entries in each field's text pool.
int cb_pool_size(void);

// MARK: - The seed's work

/// Writes the text of field `field` (0...3) of row `row` into `buffer` with one snprintf
/// ("f<field>k<k>:" and letters: the same bytes as the pool entry the older baseline takes).
/// Returns its length.
int cb_format_text(int64_t row, int field, char *buffer, int capacity);

/// Formats the 4 texts of rows 1...rows (cb_format_text), no database; the sum of their lengths.
int64_t cb_format_all(int rows);

/// Inserts rows 1...rows in one transaction with one prepared statement, formatting each row's
/// texts with snprintf as it goes (cb_format_text). 0 on success.
int cb_insert_formatted(cb_db *db, int rows);

/// Reads every row of `bench` `passes` times, taking each text's length with
/// sqlite3_column_bytes only (no copy). The same checksum as cb_read_all × passes, or -1.
int64_t cb_read_lengths(cb_db *db, int passes);

/// What fetchAll does, in C: every row of `bench` kept in memory, then used, `passes` times.
/// Per pass: step every row into one malloc'd block (the integers, the real, the 4 text
/// lengths, then the 4 texts copied, each NUL-terminated), the pointers in an array grown by
/// doubling; finalize; the checksum from the kept rows; free them. The same checksum as
/// cb_read_lengths, or -1.
int64_t cb_fetch_all_lengths(cb_db *db, int passes);

/// cb_lookups with texts taken by sqlite3_column_bytes only (no copy).
int64_t cb_lookup_lengths(cb_db *db, const int64_t *ids, int count);

/// A hash of every value of every row (texts byte by byte) in id order, or -1: two files with
/// the same checksum hold the same rows.
int64_t cb_content_checksum(cb_db *db);

// MARK: - Cipher settings and key derivation

/// The cipher settings a keyed connection reports; the text fields are "" where the linked
/// SQLCipher has no such pragma (the algorithms before 4.0).
typedef struct cb_cipher_settings_t {
    int page_size;
    int kdf_iter;
    int use_hmac;
    char kdf_algorithm[32];
    char hmac_algorithm[32];
    char version[32];
} cb_cipher_settings_t;

/// Reads `PRAGMA cipher_page_size`, `kdf_iter`, `cipher_use_hmac`, `cipher_kdf_algorithm`,
/// `cipher_hmac_algorithm` and `cipher_version` of `db`. SQLITE_OK or the error code.
int cb_cipher_settings(cb_db *db, cb_cipher_settings_t *settings);

/// The linked SQLCipher's default key derivation, read at run time: `PRAGMA
/// cipher_default_kdf_iter` and `cipher_default_kdf_algorithm` ("PBKDF2_HMAC_SHA1" where the
/// pragma does not exist: 3.x). 0, or -1.
int cb_default_kdf(int *iterations, char *algorithm, int capacity);

/// One PBKDF2 derivation with libcrypto (what SQLCipher runs when a password opens a file):
/// `algorithm` is a `cipher_kdf_algorithm` name. 0, or -1.
int cb_pbkdf2(const void *password, int password_len, const unsigned char *salt, int salt_len, int iterations,
              const char *algorithm, unsigned char *key, int key_len);

/// Starts or stops callgrind's instruction counting (a no-op outside valgrind).
void cb_measure_toggle(void);

/// The peak resident set size of this process in KiB (VmHWM from /proc/self/status), or -1.
long cb_peak_rss_kib(void);

#ifdef __cplusplus
}
#endif

#endif
