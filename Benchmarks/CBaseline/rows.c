// The benchmark rows: 8 fields (integer key, 4 texts, 2 integers, 1 real), derived from the
// row number so that the C and Swift workloads write identical data.
#include "rows.h"
#include <stdio.h>
#include <string.h>

#define POOL_SIZE 1024

// MARK: - Text pool

int cb_pool_size(void) { return POOL_SIZE; }

int cb_pool_text(int field, int k, char *buffer, int capacity) {
    int length = 12 + (k * 37 + field * 11) % 40;
    if (length >= capacity) length = capacity - 1;
    int written = snprintf(buffer, (size_t)capacity, "f%dk%d:", field, k);
    if (written < 0) return 0;
    for (int j = written; j < length; j++) buffer[j] = (char)('a' + (k + j) % 26);
    if (written > length) length = written;
    buffer[length] = '\0';
    return length;
}

// MARK: - Pool storage

static char pool[4][POOL_SIZE][64];
static int pool_length[4][POOL_SIZE];
static int pool_ready = 0;

void cb_rows_prepare(void) {
    if (pool_ready) return;
    for (int f = 0; f < 4; f++) {
        for (int k = 0; k < POOL_SIZE; k++) pool_length[f][k] = cb_pool_text(f, k, pool[f][k], 64);
    }
    pool_ready = 1;
}

const char *cb_row_text(int64_t row, int field, int *length) {
    int k = (int)((row * (2 * field + 3) + field) % POOL_SIZE);
    *length = pool_length[field][k];
    return pool[field][k];
}
