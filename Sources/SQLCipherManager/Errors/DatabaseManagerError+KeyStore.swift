import SQLCipherCore

// MARK: - The key store's failures, in words

extension DatabaseManagerError {
    /// ``keyUnavailable(identifier:underlying:)``'s message: a key not stored for an encrypted
    /// database is said apart from a store that could not be read.
    static func keyUnavailableMessage(identifier: String, underlying: KeyStoreError) -> String {
        if case .notStored(_, let store) = underlying.kind {
            return "The key '\(identifier)' is unavailable: no key is stored under it in the \(store), but the database "
                + "is encrypted (a new key is never made for an existing database). The database was not touched and no "
                + "new key was made. Restore the key from a backup under this identifier, then open again."
        }
        return "The key '\(identifier)' is unavailable: \(underlying) The database was not touched and no new key "
            + "was made. Make the key readable (unlock the keyring, fix the key file) or restore it from a backup, then open again."
    }

    /// ``keyNotStored(identifier:underlying:)``'s message: a store that reported a key already
    /// stored and then found none is said apart from a store that failed.
    static func keyNotStoredMessage(identifier: String, underlying: KeyStoreError) -> String {
        if case .notStored(_, let store) = underlying.kind {
            return "A new key '\(identifier)' could not be stored: the \(store) reported a key already stored under it, "
                + "then found none. No database was created or encrypted; fix the key store and try again."
        }
        return "A new key '\(identifier)' could not be stored: \(underlying) No database was created or encrypted; "
            + "fix the key store and try again."
    }
}
