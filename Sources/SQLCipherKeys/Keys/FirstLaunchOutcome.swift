// MARK: - FirstLaunchOutcome

/// What ``DatabaseManager/openOrCreate(keyStore:identifier:progress:)`` did to get the
/// database open.
public enum FirstLaunchOutcome: String, Sendable, Equatable {
    /// A key was stored and the encrypted database was opened with it (every launch after the first).
    case openedExisting
    /// There was no key and no database: a new key was generated and stored, then the
    /// database was created with it.
    case createdWithNewKey
    /// There was no key and a plaintext database (an app adding encryption in an update): a new
    /// key was generated and stored, then the file was encrypted in place.
    case encryptedPlaintextWithNewKey
    /// An earlier launch stored a key and stopped before creating the database: it was
    /// created now with that key.
    case resumedCreate
    /// An earlier launch stored a key and stopped before encrypting the plaintext database: it
    /// was encrypted now with that key.
    case resumedEncryption
}
