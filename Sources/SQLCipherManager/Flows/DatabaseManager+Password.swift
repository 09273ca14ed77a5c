// MARK: - Checking the current password

extension DatabaseManager {
    /// `true` when `password` is the one that unlocked the open database — for a "current
    /// password" prompt before ``rekey(password:options:progress:)``, without opening a second
    /// connection or paying the KDF again.
    ///
    /// The password is NFC-normalised like every key, and compared with the cached key bytes in
    /// constant time. Returns `false` when the database was opened with a raw key or nothing is open.
    public func isCurrentPassword(_ password: String) -> Bool {
        locked {
            guard database != nil, let cachedKey, !cachedKey.isRawKey else { return false }
            return SecretBytes(password: password).isEqual(to: cachedKey)
        }
    }
}
