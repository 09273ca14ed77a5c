import Foundation
import SQLCipherCore

// MARK: - SchemaMigrator

/// Brings a database's schema to the version the app expects (`PRAGMA user_version`).
///
/// After a successful create or open, when the stored `user_version` differs from
/// ``targetVersion``, the ``DatabaseManager`` calls ``migrate(_:from:)`` — the original
/// SQLCipherManager's "hand off to a schema manager", built in. A stored version above the
/// target is refused with ``DatabaseManagerError/schemaVersionTooNew(found:supported:)`` before
/// the migrator is called.
public protocol SchemaMigrator: Sendable {
    /// The schema version this app expects.
    var targetVersion: Int { get }
    /// Moves the schema from `version` up to ``targetVersion``, setting `user_version` as it goes.
    func migrate(_ db: Database, from version: Int) throws
}

/// A step of ``VersionedSchemaMigrator`` failed.
public struct MigrationStepError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The version the failing step would have produced.
    public let version: Int
    /// The version the database stays at (the last step that committed).
    public let lastGoodVersion: Int
    /// What the step threw.
    public let underlying: any Error

    /// `migration step N failed after version M: <what it threw>`.
    public var description: String {
        "migration step \(version) failed after version \(lastGoodVersion): \(underlying)"
    }

    /// The ``description``, so that `localizedDescription` says which step failed and why.
    public var errorDescription: String? { description }

    /// Equal when the versions are equal and the underlying errors are the same error: of the
    /// same type and, for an `Equatable` type, equal by its `==`, else equal in their
    /// `String(describing:)` (the same rule as
    /// ``DatabaseManagerError/migrationFailed(version:lastGoodVersion:underlying:)``).
    public static func == (lhs: MigrationStepError, rhs: MigrationStepError) -> Bool {
        lhs.version == rhs.version && lhs.lastGoodVersion == rhs.lastGoodVersion && equalErrors(lhs.underlying, rhs.underlying)
    }
}
