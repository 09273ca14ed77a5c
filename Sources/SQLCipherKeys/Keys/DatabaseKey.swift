import Foundation
import SQLCipherCore

// MARK: - DatabaseKey

/// A raw 256-bit database key, held in memory this type owns alone and zeroes when the last
/// reference goes away (`explicit_bzero` / `memset_s`).
///
/// SQLCipher uses it as the AES key directly, without PBKDF2: it is given to `sqlite3_key` in
/// SQLCipher's `x'<64 hex digits>'` form. Generate one with ``generate()`` and keep it in a
/// ``KeyStore``; never write it in the source code, a log or the database.
///
/// Its `description` never shows the bytes.
public final class DatabaseKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The length of every key, in bytes (AES-256).
    public static let byteCount = 32

    /// The 32 raw bytes.
    package let secret: SecretBytes

    package init(secret: SecretBytes) {
        self.secret = secret
    }

    /// Copies 32 raw bytes into a new key. The caller should wipe its own copy.
    ///
    /// - Throws: ``DatabaseKeyError/invalidKeyLength(_:)`` unless there are exactly 32 bytes.
    public convenience init<C: Collection>(bytes: C) throws where C.Element == UInt8 {
        guard bytes.count == Self.byteCount else { throw DatabaseKeyError.invalidKeyLength(bytes.count) }
        self.init(secret: SecretBytes(bytes))
    }

    /// A new key: 32 bytes from the operating system's secure random source (`getentropy`,
    /// which reads the kernel's CSPRNG: `getrandom(2)` on Linux, `arc4random` on Apple systems),
    /// written straight into the zeroable buffer.
    ///
    /// - Throws: ``DatabaseKeyError/randomSourceFailed(reason:)`` when the system refuses.
    public static func generate() throws -> DatabaseKey {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 1)
        defer {
            SecretBytes.wipe(buffer)
            buffer.deallocate()
        }
        do throws(Errno) {
            try POSIX.fillRandom(buffer)
        } catch {
            throw DatabaseKeyError.randomSourceFailed(reason: error.description)
        }
        return DatabaseKey(secret: SecretBytes(UnsafeRawBufferPointer(buffer)))
    }

    /// Gives the 32 raw bytes to `body` without copying them. Do not keep the pointer.
    public func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try secret.withBytes(body)
    }

    /// The key in the form `sqlite3_key` takes for a raw key (`x'…'`), in a zeroable buffer.
    package var sqlcipherKey: SecretBytes {
        secret.withBytes { SecretBytes(rawKey: $0) }
    }

    /// `true` when both keys have the same bytes (compared in constant time).
    public func hasSameBytes(as other: DatabaseKey) -> Bool {
        secret.isEqual(to: other.secret)
    }

    /// `DatabaseKey(<redacted 32 bytes>)`: never the bytes.
    public var description: String { "DatabaseKey(<redacted \(Self.byteCount) bytes>)" }
    /// The same redacted text as ``description``, so a debugger or `dump` never shows the bytes.
    public var debugDescription: String { description }
}
