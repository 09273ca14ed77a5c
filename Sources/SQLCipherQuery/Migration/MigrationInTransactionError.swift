import Foundation

// MARK: - MigrationInTransactionError

/// A schema change that needs foreign keys off was started inside a transaction, where
/// `PRAGMA foreign_keys` cannot change: with foreign keys on, its `DROP TABLE` would delete
/// (`ON DELETE CASCADE`) or refuse the child rows. Nothing was run.
///
/// Call ``VersionedSchemaMigrator/migrate(_:from:)`` and ``Database/rebuildTable(_:_:)``
/// outside a transaction (the ``DatabaseManager`` runs its migrator so), or run
/// ``Database/rebuildTable(_:_:)`` inside a ``VersionedSchemaMigrator`` step, which turns
/// foreign keys off for it.
public struct MigrationInTransactionError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// What was refused: `migration step 2`, `rebuild of table note`.
    public let operation: String

    /// Creates the error for `operation`.
    public init(operation: String) {
        self.operation = operation
    }

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// What was refused, why, and what to do instead.
    public var description: String {
        "\(operation) was started inside a transaction with foreign keys on; PRAGMA foreign_keys cannot be turned "
            + "off there, and a DROP TABLE would then delete or refuse the child rows. Nothing was run: call it "
            + "outside a transaction"
    }
}
