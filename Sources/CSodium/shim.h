#ifndef CSODIUM_SHIM_H
#define CSODIUM_SHIM_H

// libsodium: Argon2id (crypto_pwhash) to turn a password into a wrapping key, and
// XChaCha20-Poly1305 (crypto_aead_xchacha20poly1305_ietf) to wrap a database's data key in
// its key slots; sodium_memzero and randombytes_buf for the keys themselves.
#include <sodium.h>

#endif
