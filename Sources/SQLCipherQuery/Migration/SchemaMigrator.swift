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
