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
            cipherPragmas: configuration.cipher.pragmas(schema: Connection.exportSchema),
            busyTimeout: configuration.busyTimeoutSeconds,
            copyOpener: { path, key in try Unlocking.connect(path: path, mode: .readWrite, key: key, configuration: configuration) })
    }
}
