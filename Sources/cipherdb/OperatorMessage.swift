import SQLCipherManager

// MARK: - OperatorMessage

/// The library's errors as an operator reads them: where the library's advice names its own
/// API (`DatabaseTools.encryptPlaintextDatabase`, `CipherOptions`, `busyTimeout`), cipherdb
/// says which command or option to use instead.
enum OperatorMessage {
    static func text(for error: DatabaseManagerError) -> String {
        switch error.kind {
        case .plaintextDatabase(let path):
            "\(path) is a plaintext (unencrypted) SQLite database. Encrypt it first: cipherdb encrypt \(path)"
        case .invalidOption(let name, let reason):
            "\(flag(name)) is invalid: \(reason). Give another value on the command line."
        case .unsupportedOption(let name, let requires, let linked):
            "\(flag(name)) needs SQLCipher \(requires) or later, but this cipherdb is linked with SQLCipher "
                + "\(linked) (which would silently ignore it). Leave \(flag(name)) out."
        case .incorrectPasswordOrSettings(let path, nil):
            "Incorrect password for \(path), or the file was written with other cipher settings: "
                + "give them with --kdf-iter N, --page-size N, --no-hmac."
        case .busy(let path, let underlying):
            "\(path) is locked by another connection or process\(underlying.map { " (\($0))" } ?? ""). "
                + "Try again once it has finished."
        default:
            error.description
        }
    }

    /// The command-line option for a `CipherOptions` field.
    static func flag(_ name: String) -> String {
        switch name {
        case "kdfIterations": "--kdf-iter (or --set-kdf-iter)"
        case "pageSize": "--page-size (or --set-page-size)"
        case "usesHMAC": "--no-hmac"
        case "compatibility": "--compatibility"
        default: name
        }
    }
}
