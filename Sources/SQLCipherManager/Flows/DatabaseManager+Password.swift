// MARK: - Checking the current password
import SQLCipherCore

extension DatabaseManager {
    /// `true` when `password` is the one that unlocked the open database — for a "current
    /// password" prompt before ``rekey(to:options:progress:)`` (or, on a key-slot
    /// database, ``DatabaseKeySlots/change(password:to:)-(String,_)``), without opening a second connection or paying
    /// the KDF again.
    ///
    /// The password is NFC-normalised like every key and compared in constant time: with the
    /// cached key, or — on a key-slot database, whose cached key is the data key — with a keyed
    /// BLAKE2b digest of the password that opened its slot (the password itself is not kept).
    /// Returns `false` when nothing is open, and when the database was opened with a raw key or
    /// a recovery key.
    public func isCurrentPassword(_ password: String) -> Bool {
        locked {
            guard database != nil, let cachedKey else { return false }
            let typed = SecretBytes(password: password)
            guard cachedKey.isRawKey else { return typed.isEqual(to: cachedKey) }
            guard let passwordDigest else { return false }
            return PasswordDigest.of(typed).isEqual(to: passwordDigest)
        }
    }
}
