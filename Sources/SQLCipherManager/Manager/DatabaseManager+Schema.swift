// MARK: - Schema version and migration
import SQLCipherCore
import SQLCipherQuery

extension DatabaseManager {
    /// The schema version stored in the file: `PRAGMA user_version` (the original's `schemaVersion`).
    public var schemaVersion: Int {
        get throws { try query { try $0.schemaVersion } }
    }

    /// Sets the schema version: `PRAGMA user_version = N`.
    public func setSchemaVersion(_ version: Int) throws {
        guard version >= 0 else {
            throw DatabaseManagerError.invalidOption(name: "schemaVersion", reason: "must be 0 or more, got \(version)")
        }
        try writer { try $0.setSchemaVersion(version) }
    }

    /// Hands the open database to a schema migrator when its `user_version` differs from the
    /// migrator's target — what the original's delegate did by hand in `didOpenDatabase`.
    ///
    /// Fires `willMigrate(from:to:)` before the migrator runs (outside the lock, see
    /// ``DatabaseManagerDelegate``), then `didMigrate(from:to:)`; on failure fires
    /// `didFail` once and throws. A file whose version is above the target is
    /// refused untouched with ``DatabaseManagerError/schemaVersionTooNew(found:supported:)``.
    public func migrate(using migrator: any SchemaMigrator) throws {
        try announcing(failed: { .didFail($0) }) {
            let db = try requireDatabase()
            let target = migrator.targetVersion
            let found = try failing { () -> Int in
                let found = try db.schemaVersion
                guard found <= target else { throw DatabaseManagerError.schemaVersionTooNew(found: found, supported: target) }
                return found
            }
            guard found != target else { return }
            try announce(.willMigrate(from: found, to: target))
            try failing { try runMigrator(migrator, on: db, from: found) }
            notify(.didMigrate(from: found, to: target))
        }
    }

    /// Runs `body`; a failure is raised as `didFail` and thrown.
    private func failing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            let error = DatabaseManagerError(diagnosing: error, path: databasePath ?? "")
            notify(.didFail(error))
            throw error
        }
    }

    /// Runs the migrator and checks it reached its target.
    private func runMigrator(_ migrator: any SchemaMigrator, on db: Database, from found: Int) throws {
        let target = migrator.targetVersion
        do {
            try migrator.migrate(db, from: found)
        } catch {
            if case .stepFailed(let version, let lastGoodVersion, let underlying)? = (error as? MigrationError)?.kind {
                throw DatabaseManagerError.migrationFailed(version: version, lastGoodVersion: lastGoodVersion, underlying: underlying)
            }
            let now = (try? db.schemaVersion) ?? found
            throw DatabaseManagerError.migrationFailed(version: target, lastGoodVersion: now, underlying: error)
        }
        let reached = try db.schemaVersion
        guard reached == target else {
            throw DatabaseManagerError.migrationFailed(
                version: target, lastGoodVersion: reached,
                underlying: MigrationError.incomplete(reached: reached, target: target))
        }
    }
}
