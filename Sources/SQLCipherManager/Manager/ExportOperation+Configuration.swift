import SQLCipherCore
import SQLCipherEngine

/// The export operations the manager hands the engine, set up from a configuration.
extension ExportOperation {
    /// The operation behind rekey, encrypt, decrypt and backup, given what the engine does not
    /// know: the copy's cipher pragmas (`configuration.cipher` on the attached schema), the busy
    /// timeout, and how its copy is opened to be verified
    /// (``Unlocking/connect(path:mode:key:configuration:)`` with `configuration`, read-write).
    init(
        _ kind: ExportOperation.Kind, target: String, install: OperationJournal.Install, key: SecretBytes?,
        configuration: DatabaseConfiguration
    ) {
        self.init(
            kind, target: target, install: install, key: key,
            cipherPragmas: configuration.cipher.pragmas(schema: Connection.exportSchema) + Self.headerPragmas(configuration),
            busyTimeout: configuration.busyTimeoutSeconds,
            copyOpener: { path, key in try Unlocking.connect(path: path, mode: .readWrite, key: key, configuration: configuration) })
    }

    /// A copy in the plaintext-header form: its header size and the salt kept for it. The salt
    /// also goes to a copy in the usual form, which then keeps the file's salt (a conversion
    /// out of the header form); `headerSalt` is set only by the flows that need it.
    private static func headerPragmas(_ configuration: DatabaseConfiguration) -> [String] {
        guard let salt = configuration.headerSalt else { return [] }
        let schema = Connection.exportSchema
        return (configuration.cipher.plaintextHeader ? [HeaderSaltFile.sizePragma(schema: schema)] : [])
            + [HeaderSaltFile.pragma(salt, schema: schema)]
    }
}
