import Foundation
import SQLCipherManager

// MARK: - Migration workloads

extension SwiftWorkloads {
    /// The crash-safe encryption of an existing plaintext database, in place (export, verify,
    /// atomic rename): `DatabaseTools.encryptPlaintextDatabase(at:password:configuration:)`.
    func encrypt() throws -> Measured {
        let source = try fixtures.copyFixture(rows: job.rows, encrypted: false, pageSize: job.pageSize)
        defer { Fixtures.remove(source) }
        var measured = try Measured.time {
            try DatabaseTools.encryptPlaintextDatabase(
                at: URL(fileURLWithPath: source), password: Fixtures.password, configuration: configuration)
            return 0
        }
        measured.checksum = try CWorkloads.checksum(source, encrypted: true, password: Fixtures.password)
        return measured
    }

    /// The crash-safe rekey of an open database: `DatabaseManager.rekey(password:)` (the open, with
    /// its KDF, is not timed; the new key's KDF and the verification are).
    func rekey() throws -> Measured {
        let source = try fixtures.copyFixture(rows: job.rows, encrypted: true, pageSize: job.pageSize)
        defer { Fixtures.remove(source) }
        let manager = DatabaseManager(url: URL(fileURLWithPath: source), configuration: configuration)
        try manager.open(password: Fixtures.password)
        var measured = try Measured.time {
            try manager.rekey(to: .password(Fixtures.newPassword))
            return 0
        }
        manager.close()
        measured.checksum = try CWorkloads.checksum(source, encrypted: true, password: Fixtures.newPassword)
        return measured
    }

    /// The verified, crash-safe backup of an encrypted database into a new file with the same
    /// password: `open` then `DatabaseManager.backup(to:)`, both timed as for ``decrypt()`` (the
    /// bare export opens and keys the source too; both derive the copy's key once).
    func backup() throws -> Measured {
        try intoNewFile(encrypted: true) { manager, target in try manager.backup(to: target) }
    }

    /// The crash-safe decryption of an encrypted database into a new plaintext file: `open`
    /// then `DatabaseManager.decrypt(to:)`, both timed — the bare export pays the source's KDF
    /// too (the close is not timed).
    func decrypt() throws -> Measured {
        try intoNewFile(encrypted: false) { manager, target in try manager.decrypt(to: target) }
    }

    /// Opens a copy of the encrypted fixture and runs `write` into a new file, both timed; the
    /// checksum is the new file's (`encrypted` with the fixture's password, or plaintext).
    private func intoNewFile(encrypted: Bool, _ write: (DatabaseManager, URL) throws -> Void) throws -> Measured {
        let source = try fixtures.copyFixture(rows: job.rows, encrypted: true, pageSize: job.pageSize)
        let target = fixtures.scratch("target").path
        Fixtures.remove(target)
        defer {
            Fixtures.remove(source)
            Fixtures.remove(target)
        }
        let manager = DatabaseManager(url: URL(fileURLWithPath: source), configuration: configuration)
        var measured = try Measured.time {
            try manager.open(password: Fixtures.password)
            try write(manager, URL(fileURLWithPath: target))
            return 0
        }
        manager.close()
        measured.checksum = try CWorkloads.checksum(target, encrypted: encrypted, password: Fixtures.password)
        return measured
    }
}
