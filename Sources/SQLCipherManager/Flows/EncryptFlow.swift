import Foundation
import SQLCipherCore
import SQLCipherEngine

/// Encrypting a plaintext database with `key`: in place (`destination` `nil`), or into a new
/// file. The public ``DatabaseTools/encryptPlaintextDatabase(at:to:key:configuration:progress:)``,
/// the first launch and the adoption of a plaintext file on open all run it.
struct EncryptFlow {
    let source: String
    let destination: String?
    let key: SecretBytes
    let configuration: DatabaseConfiguration

    /// Recovers earlier interruptions, checks the source header, then runs the export operation.
    func run(progress: ((Double) -> Void)?) throws {
        do {
            try InterruptedOperationRecovery.recover(atPath: source)
            if let destination { try InterruptedOperationRecovery.recover(atPath: destination) }
            if let problem = DatabaseManagerError(problemBeforeEncryptingAt: source) { throw problem }
            if let version = LinkedLibrary.cipherVersion { try configuration.cipher.validate(for: version) }
            var configuration = configuration
            configuration.headerSalt = try DatabaseManager.headerSaltForNewFile(
                at: destination ?? source, cipher: configuration.cipher, key: key)
            defer { DatabaseManager.settleHeaderSalt(of: destination ?? source) }
            let operation = ExportOperation(
                .encrypt, target: destination ?? source, install: destination == nil ? .replace : .create,
                key: DerivedKeys.keyForNewFile(key, cipher: configuration.cipher, salt: configuration.headerSalt).material,
                configuration: configuration)
            let open = { (mode: Connection.Mode) in
                try Unlocking.connect(path: source, mode: mode, key: nil, configuration: configuration)
            }
            guard destination == nil else {
                let connection = try open(FileSystem.isWritable(source) ? .readWrite : .readOnly)
                defer { connection.close() }
                return try operation.create(from: connection, progress: progress)
            }
            // In place: only while no other program has the file open (see ExportOperation).
            try operation.replace(releaseSource: {}, openSource: { try open(.readWrite) }, progress: progress)
        } catch {
            throw DatabaseManagerError(diagnosing: error, path: destination ?? source)
        }
    }
}
