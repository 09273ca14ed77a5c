import SQLCipherCore

// MARK: - The salt file of a plaintext header, in words

extension DatabaseManagerError {
    /// ``headerSaltUnusable(path:saltFile:problem:)``'s message, one remedy per problem.
    static func headerSaltMessage(path: String, saltFile: String, problem: HeaderSaltProblem) -> String {
        let form = "\(path) keeps its first 32 bytes in plaintext, so its salt is kept in \(saltFile)"
        switch problem {
        case .missing:
            return "\(form), which is missing. Put the salt file back beside the database (from the backup "
                + "made with it); the database cannot be opened without it."
        case .damaged(let reason):
            return "\(form), which is damaged (\(reason)). Restore the salt file from the backup made with the database."
        case .rejected:
            return "\(form), and with that salt the key given does not open it: either the password or key is "
                + "wrong, or \(saltFile) belongs to another database. Check the password, then restore the salt "
                + "file that was kept with this database."
        }
    }
}
