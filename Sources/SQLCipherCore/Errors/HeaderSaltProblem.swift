// MARK: - HeaderSaltProblem

/// What is wrong with the salt file of a database with a plaintext header
/// (``DatabaseManagerError/headerSaltUnusable(path:saltFile:problem:)``).
public enum HeaderSaltProblem: Sendable, Hashable {
    /// There is no salt file: without it the key cannot be derived.
    case missing
    /// The salt file is there but does not hold a salt (the reason says why).
    case damaged(reason: String)
    /// The key with the stored salt does not open the database: the password or key is
    /// wrong, or the salt file is not this database's (copied from another one).
    case rejected
}
