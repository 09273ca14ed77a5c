#ifndef CCRYPTO_SHIM_H
#define CCRYPTO_SHIM_H

// libcrypto (OpenSSL), the library SQLCipher itself uses for AES, HMAC and PBKDF2: here only
// its SHA-256, for the fingerprint that ties an operation journal to the copy it verified.
#include <openssl/evp.h>
#include <openssl/sha.h>

#endif
