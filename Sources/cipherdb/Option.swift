// MARK: - Option

/// Every option cipherdb knows. Which ones a command accepts is in its ``CommandSpec``.
enum Option: String, CaseIterable, Sendable {
    case passwordEnv = "--password-env"
    case passwordFile = "--password-file"
    case newPasswordEnv = "--new-password-env"
    case newPasswordFile = "--new-password-file"
    case kdfIter = "--kdf-iter"
    case pageSize = "--page-size"
    case noHMAC = "--no-hmac"
    case compatibility = "--compatibility"
    case setKdfIter = "--set-kdf-iter"
    case setPageSize = "--set-page-size"
    case setDefaults = "--set-defaults"
    case to = "--to"
    case file = "--file"
    case json = "--json"
    case unlock = "--unlock"
    case legacyKDF = "--legacy-kdf"
    case keyFile = "--key-file"
    case newKeyFile = "--new-key-file"

    /// The placeholder of the option's value, or `nil` for a flag.
    var valueName: String? {
        switch self {
        case .passwordEnv, .newPasswordEnv: "NAME"
        case .passwordFile, .newPasswordFile, .to, .file, .keyFile, .newKeyFile: "PATH"
        case .kdfIter, .pageSize, .compatibility, .setKdfIter, .setPageSize: "N"
        case .noHMAC, .setDefaults, .json, .unlock, .legacyKDF: nil
        }
    }

    /// `true` for options whose value must be a positive integer.
    var isNumeric: Bool { valueName == "N" }

    var help: String {
        switch self {
        case .passwordEnv: "read the password from environment variable NAME"
        case .passwordFile: "read the password from the first line of file PATH"
        case .newPasswordEnv: "rekey, backup: read the new password from environment variable NAME"
        case .newPasswordFile: "rekey, backup: read the new password from the first line of file PATH"
        case .kdfIter: "the database's PBKDF2 iterations, 64000 to 10000000 (default: SQLCipher's)"
        case .pageSize: "the database's page size, a power of two from 512 to 65536 (default: SQLCipher's)"
        case .setKdfIter: "settings: the new PBKDF2 iterations, 64000 to 10000000"
        case .setPageSize: "settings: the new page size, a power of two from 512 to 65536"
        case .noHMAC: "the database has no per-page HMAC (SQLCipher 1 format)"
        case .compatibility: "the database's SQLCipher major version N, 1-4 (cipher_compatibility, SQLCipher 4 only)"
        case .setDefaults: "settings: re-encrypt with the linked SQLCipher's default settings"
        case .to: "encrypt/decrypt/backup: the file to write (encrypt: default in place)"
        case .file: "exec: read the SQL from file PATH (instead of the SQL argument)"
        case .json: "exec: print each statement's rows as a JSON array of objects instead of TSV"
        case .unlock: "info: also unlock the database (password from the prompt or stdin)"
        case .keyFile: "use the raw 32-byte key in file PATH (binary or 64 hex digits, mode 0600) instead of a password"
        case .newKeyFile: "rekey, backup: the new raw 32-byte key, from file PATH (as --key-file)"
        case .legacyKDF: "accept --kdf-iter/--set-kdf-iter below 64000, for old files (SQLCipher 1/2: 4000)"
        }
    }

    /// Arguments that would put a password in the process list, refused with an explanation.
    static let refusedPasswordArguments: Set<String> = [
        "--password", "--new-password", "--old-password", "--passphrase", "--key", "-p",
    ]

    static let refusalMessage = """
        Passwords are never accepted as command-line arguments: other users can read them with `ps`, \
        and they stay in your shell history. Use --password-env NAME or --password-file PATH, pipe the \
        password on stdin, or type it at the prompt.
        """
}
