import Foundation

// MARK: - ForeignKeyViolationError

/// A schema change left rows whose foreign keys point at no parent row
/// (`PRAGMA foreign_key_check` found them before the commit). The change was rolled back:
/// nothing of it was committed and `user_version` is unchanged.
///
/// Thrown by a ``VersionedSchemaMigrator`` step (as the `underlying` error of
/// ``MigrationStepError`` and ``DatabaseManagerError/migrationFailed(version:lastGoodVersion:underlying:)``)
/// and by ``Database/rebuildTable(_:_:)``. It names the tables and counts the rows, never their
/// values.
public struct ForeignKeyViolationError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The rows of one child table that refer to missing rows of one parent table.
    public struct Violation: Sendable, Hashable {
        /// The child table, whose rows hold the foreign keys.
        public let table: String
        /// The parent table they refer to.
        public let parent: String
        /// How many rows of ``table`` refer to a missing row of ``parent``.
        public let rowCount: Int

        /// Creates a violation record.
        public init(table: String, parent: String, rowCount: Int) {
            self.table = table
            self.parent = parent
            self.rowCount = rowCount
        }
    }

    /// One entry per child/parent pair, ordered by table then parent.
    public let violations: [Violation]

    /// Creates the error from its violations.
    public init(violations: [Violation]) {
        self.violations = violations
    }

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// `foreign key check failed: 2 rows of tag refer to missing rows of note; …`, and what to do.
    public var description: String {
        let list = violations.map { v in
            "\(v.rowCount) row\(v.rowCount == 1 ? "" : "s") of \(v.table) refer\(v.rowCount == 1 ? "s" : "") to missing rows of \(v.parent)"
        }
        return "foreign key check failed: " + list.joined(separator: "; ")
            + "; the change was rolled back. Keep every parent row the children refer to (copy the rows before "
            + "DROP TABLE), or delete or fix the orphaned rows in the same step"
    }
}
