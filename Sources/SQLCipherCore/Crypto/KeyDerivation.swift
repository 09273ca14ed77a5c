internal import CCrypto
import Foundation

// MARK: - KeyDerivation

/// SQLCipher's password-to-key step, done by this library once per unlock so that every
/// further connection to the same file is keyed without it.
///
/// SQLCipher derives a database's 256-bit key with PBKDF2-HMAC (SHA-1 in 3.x, SHA-512 by
/// default in 4.x; `PRAGMA kdf_iter` rounds) from the password and the 16-byte salt at the
/// start of the file, and accepts that key directly in its raw form `x'<64 hex key><32 hex
/// salt>'` (no PBKDF2; the HMAC key is still derived from it, by SQLCipher, as usual). This
/// type computes exactly that with libcrypto (the library SQLCipher itself uses), into
/// zeroable memory. A wrong derivation cannot open a file by mistake: the raw key either
/// decrypts page 1 (its HMAC checks) or the open fails, and the flows then fall back to a
/// normal keyed open.
package enum KeyDerivation {
    /// The salt's length at the start of an SQLCipher file.
    package static let saltLength = 16

    /// A derived key and the salt it was derived for.
    package struct Derived {
        /// `x'<64 hex key><32 hex salt>'`, for `sqlite3_key` or `ATTACH … KEY ?`.
        package let rawKey: SecretBytes
        package let salt: [UInt8]
    }

    /// The raw key SQLCipher derives from `password` for a file with `salt`.
    package static func derive(password: SecretBytes, salt: [UInt8], iterations: Int, algorithm: KDFAlgorithm) -> Derived? {
        rawKey(password: password, salt: salt, iterations: iterations, algorithm: algorithm).map { Derived(rawKey: $0, salt: salt) }
    }

    /// Counts the derivations this thread runs while bound with `$counter.withValue`: how the
    /// tests see that an unlock costs one PBKDF2.
    @TaskLocal static var counter: DerivationCounter?

    /// The raw key form `x'<key><salt>'` for `password` (UTF-8, as given to `sqlite3_key`).
    package static func rawKey(
        password: SecretBytes, salt: [UInt8], iterations: Int, algorithm: KDFAlgorithm
    ) -> SecretBytes? {
        guard salt.count == saltLength, iterations > 0, iterations <= Int(Int32.max) else { return nil }
        counter?.add()
        let derived = SecretBytes(zeroedCount: 32)
        let ok = password.withBytes { pass in
            derived.withMutableBytes { out in
                PKCS5_PBKDF2_HMAC(
                    pass.baseAddress?.assumingMemoryBound(to: CChar.self), Int32(pass.count), salt, Int32(salt.count),
                    Int32(iterations), digest(algorithm), Int32(out.count), out.baseAddress?.assumingMemoryBound(to: UInt8.self))
            }
        }
        guard ok == 1 else { return nil }
        return derived.withBytes { SecretBytes(rawKeyText: $0, salt: salt) }
    }

    /// The salt of the SQLCipher file at `path` (its first 16 bytes), `nil` when it has fewer
    /// bytes; for a file that starts with SQLite's plaintext header, the salt kept beside it
    /// (``HeaderSaltFile``), `nil` without one.
    package static func salt(ofFileAt path: String) -> [UInt8]? {
        guard let header = DatabaseFile(path: path).header(count: saltLength), header.count == saltLength else { return nil }
        guard header == DatabaseFile.plaintextHeader else { return header }
        return try? HeaderSaltFile.read(for: path)
    }

    /// 16 bytes from the system's secure random source, for a new file's salt.
    package static func newSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<saltLength).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    private static func digest(_ algorithm: KDFAlgorithm) -> OpaquePointer? {
        switch algorithm {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha512: EVP_sha512()
        }
    }
}

/// How many key derivations ran while it was bound (``KeyDerivation/counter``).
final class DerivationCounter: @unchecked Sendable {
    // @unchecked: `value` is read and written only under `lock`.
    private let lock = NSLock()
    private var value = 0

    init() {}

    package var count: Int { lock.withLock { value } }

    func add() { lock.withLock { value += 1 } }
}
