import Foundation
import SQLCipherCore

/// A raw key given as `Data`, checked before it becomes key material.
extension SecretBytes {
    /// The key material of a 32-byte raw key (`x'…'` to SQLCipher); any other length is
    /// ``DatabaseManagerError/invalidKeyLength(_:)``.
    convenience init(checkedRawKey rawKey: Data) throws {
        guard rawKey.count == 32 else { throw DatabaseManagerError.invalidKeyLength(rawKey.count) }
        self.init(rawKey: rawKey)
    }
}
