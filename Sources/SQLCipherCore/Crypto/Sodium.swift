internal import CSodium
import Foundation

// MARK: - Sodium

/// The libsodium calls key slots need, every key in ``SecretBytes``: Argon2id
/// (`crypto_pwhash`, algorithm `crypto_pwhash_alg_argon2id13`), XChaCha20-Poly1305
/// (`crypto_aead_xchacha20poly1305_ietf_encrypt`/`_decrypt`), X25519 (`crypto_scalarmult`,
/// `crypto_scalarmult_base`), BLAKE2b (`crypto_generichash`), `randombytes_buf`, `sodium_memcmp`
/// and `sodium_memzero`. Nothing here logs or describes a key.
package enum Sodium {
    package static let keyLength = 32
    package static let nonceLength = 24
    package static let tagLength = 16
    package static let saltLength = 16

    /// `sodium_init`, once per process (it is safe to call again; it returns 1 then).
    private static let initialized: Bool = sodium_init() >= 0

    /// A failed libsodium call that cannot be the caller's fault (out of memory for Argon2id, a
    /// degenerate X25519 point). Carries no key material.
    package struct Failure: Error, CustomStringConvertible {
        package let operation: String
        package init(operation: String) { self.operation = operation }
        package var description: String { "libsodium \(operation) failed" }
    }

    /// `count` bytes from the system's secure random source (`randombytes_buf`).
    package static func random(_ count: Int) -> SecretBytes {
        precondition(initialized, "sodium_init failed")
        let bytes = SecretBytes(zeroedCount: count)
        bytes.withMutableBytes { randombytes_buf(mutableRaw($0), $0.count) }
        return bytes
    }

    /// Random bytes that are not secret (salts, nonces, identifiers).
    package static func randomData(_ count: Int) -> Data {
        random(count).withBytes { Data($0) }
    }

    // MARK: - Argon2id

    /// A 32-byte key from a password: `crypto_pwhash` with Argon2id 1.3.
    package static func argon2id(password: SecretBytes, salt: Data, opsLimit: Int, memoryKiB: Int) throws -> SecretBytes {
        precondition(initialized, "sodium_init failed")
        guard salt.count == saltLength else { throw Failure(operation: "crypto_pwhash (salt length)") }
        let key = SecretBytes(zeroedCount: keyLength)
        let status = password.withBytes { pass in
            key.withMutableBytes { out in
                salt.withUnsafeBytes { saltBytes in
                    crypto_pwhash(
                        mutableU8(out), UInt64(out.count),
                        char(pass), UInt64(pass.count),
                        u8(saltBytes),
                        UInt64(opsLimit), memoryKiB * 1024, crypto_pwhash_alg_argon2id13())
                }
            }
        }
        guard status == 0 else { throw Failure(operation: "crypto_pwhash") }
        return key
    }

    /// libsodium's own lower bounds for Argon2id (1 pass, 8 KiB).
    package static var argon2idMinimum: (opsLimit: Int, memoryKiB: Int) {
        (Int(crypto_pwhash_argon2id_opslimit_min()), Int(crypto_pwhash_argon2id_memlimit_min()) / 1024)
    }

    // MARK: - BLAKE2b

    /// `crypto_generichash` (BLAKE2b) of `parts`, keyed with `key` (16…64 bytes) when given.
    package static func hash(_ parts: [UnsafeRawBufferPointer], key: SecretBytes?, length: Int = keyLength) -> SecretBytes {
        precondition(initialized, "sodium_init failed")
        let out = SecretBytes(zeroedCount: length)
        let stateBytes = UnsafeMutableRawBufferPointer.allocate(byteCount: crypto_generichash_statebytes(), alignment: 64)
        defer {
            wipe(stateBytes)
            stateBytes.deallocate()
        }
        let state = OpaquePointer(stateBytes.baseAddress!)
        func run(_ keyBytes: UnsafeRawBufferPointer?) {
            crypto_generichash_init(state, keyBytes.map { u8($0) }, keyBytes?.count ?? 0, length)
            for part in parts where part.count > 0 {
                crypto_generichash_update(state, u8(part), UInt64(part.count))
            }
            out.withMutableBytes { _ = crypto_generichash_final(state, mutableU8($0), length) }
        }
        if let key { key.withBytes { run($0) } } else { run(nil) }
        return out
    }

    // MARK: - X25519

    /// The public key of a 32-byte secret key (`crypto_scalarmult_base`).
    package static func publicKey(of secretKey: SecretBytes) throws -> Data {
        var pk = Data(count: keyLength)
        let status = secretKey.withBytes { sk in
            pk.withUnsafeMutableBytes { out in
                crypto_scalarmult_base(
                    mutableU8(out), u8(sk))
            }
        }
        guard status == 0 else { throw Failure(operation: "crypto_scalarmult_base") }
        return pk
    }

    /// The X25519 shared secret of a secret key and a public key (`crypto_scalarmult`); fails for
    /// a low-order public key (an edited file).
    package static func sharedSecret(_ secretKey: SecretBytes, _ publicKey: Data) throws -> SecretBytes {
        guard publicKey.count == keyLength else { throw Failure(operation: "crypto_scalarmult (key length)") }
        let shared = SecretBytes(zeroedCount: keyLength)
        let status = secretKey.withBytes { sk in
            publicKey.withUnsafeBytes { pk in
                shared.withMutableBytes { out in
                    crypto_scalarmult(
                        mutableU8(out), u8(sk),
                        u8(pk))
                }
            }
        }
        guard status == 0 else { throw Failure(operation: "crypto_scalarmult") }
        return shared
    }

    // MARK: - XChaCha20-Poly1305

    /// Encrypts and authenticates `message` (with `associatedData`) under `key` and a fresh
    /// random nonce: `crypto_aead_xchacha20poly1305_ietf_encrypt`. Returns (nonce, ciphertext+tag).
    package static func seal(_ message: SecretBytes, key: SecretBytes, associatedData: Data) -> (nonce: Data, sealed: Data) {
        let nonce = randomData(nonceLength)
        var sealed = Data(count: message.count + tagLength)
        var sealedLength: UInt64 = 0
        message.withBytes { plain in
            key.withBytes { keyBytes in
                nonce.withUnsafeBytes { nonceBytes in
                    associatedData.withUnsafeBytes { ad in
                        sealed.withUnsafeMutableBytes { out in
                            _ = crypto_aead_xchacha20poly1305_ietf_encrypt(
                                mutableU8(out), &sealedLength,
                                u8(plain), UInt64(plain.count),
                                u8(ad), UInt64(ad.count), nil,
                                u8(nonceBytes),
                                u8(keyBytes))
                        }
                    }
                }
            }
        }
        return (nonce, sealed)
    }

    /// Checks the tag (in constant time, inside libsodium) and decrypts; `nil` when the key, the
    /// nonce, the associated data or the ciphertext is not the one sealed.
    package static func open(_ sealed: Data, nonce: Data, key: SecretBytes, associatedData: Data) -> SecretBytes? {
        guard nonce.count == nonceLength, sealed.count >= tagLength else { return nil }
        let message = SecretBytes(zeroedCount: sealed.count - tagLength)
        var messageLength: UInt64 = 0
        let status = message.withMutableBytes { out in
            key.withBytes { keyBytes in
                nonce.withUnsafeBytes { nonceBytes in
                    associatedData.withUnsafeBytes { ad in
                        sealed.withUnsafeBytes { input in
                            crypto_aead_xchacha20poly1305_ietf_decrypt(
                                mutableU8(out), &messageLength, nil,
                                u8(input), UInt64(input.count),
                                u8(ad), UInt64(ad.count),
                                u8(nonceBytes),
                                u8(keyBytes))
                        }
                    }
                }
            }
        }
        return status == 0 ? message : nil
    }

    /// Compares two byte strings of the same length in constant time (`sodium_memcmp`).
    package static func equal(_ lhs: Data, _ rhs: SecretBytes) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return lhs.withUnsafeBytes { left in
            rhs.withBytes { right in sodium_memcmp(left.baseAddress, right.baseAddress, left.count) == 0 }
        }
    }

    /// Zeroes a buffer this code owns (`sodium_memzero`).
    package static func wipe(_ bytes: UnsafeMutableRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        sodium_memzero(base, bytes.count)
    }
}

extension Sodium {
    /// Zeroes an array's bytes in place (`sodium_memzero`), for short-lived copies.
    package static func wipeArray(_ array: inout [UInt8]) {
        array.withUnsafeMutableBytes { wipe($0) }
    }
}

// libsodium declares its pointers non-null; every buffer here has at least one byte (empty
// inputs are skipped or never passed), so the base addresses exist.
private func u8(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<UInt8> {
    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
}

private func char(_ bytes: UnsafeRawBufferPointer) -> UnsafePointer<CChar> {
    bytes.baseAddress!.assumingMemoryBound(to: CChar.self)
}

private func mutableU8(_ bytes: UnsafeMutableRawBufferPointer) -> UnsafeMutablePointer<UInt8> {
    bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
}

private func mutableRaw(_ bytes: UnsafeMutableRawBufferPointer) -> UnsafeMutableRawPointer { bytes.baseAddress! }
