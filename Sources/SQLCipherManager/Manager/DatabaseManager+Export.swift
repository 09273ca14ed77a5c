// MARK: - Export operations
import SQLCipherCore
import SQLCipherEngine

extension DatabaseManager {
    /// The ``ExportOperation`` behind rekey, encrypt and decrypt, given what the engine does not
    /// know: the copy's cipher pragmas (`configuration.cipher` on the attached schema), the busy
    /// timeout, and how its copy is opened to be verified (``connect(path:mode:key:configuration:)``
    /// with `configuration`, read-write).
    static func exportOperation(
        _ kind: ExportOperation.Kind, target: String, install: OperationJournal.Install, key: SecretBytes?,
        configuration: DatabaseConfiguration
    ) -> ExportOperation {
        ExportOperation(
            kind, target: target, install: install, key: key,
            cipherPragmas: configuration.cipher.pragmas(schema: Connection.exportSchema),
            busyTimeout: configuration.busyTimeoutSeconds,
            copyOpener: { path, key in try connect(path: path, mode: .readWrite, key: key, configuration: configuration) })
    }
}
