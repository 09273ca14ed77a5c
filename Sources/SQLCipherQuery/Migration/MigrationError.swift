import Foundation
import SQLCipherCore

// MARK: - MigrationError

/// Why a schema change did not happen: a ``VersionedSchemaMigrator`` step that failed, a
/// migrator that stopped short of its target, or a change that ``Database/rebuildTable(_:_:)``
/// and the foreign-key checks refused or rolled back. Nothing of the failed change was
/// committed.
///
/// The ``DatabaseManager`` reports a failed migration as
/// ``DatabaseManagerError/migrationFailed(version:lastGoodVersion:underlying:)``, whose
/// `underlying` is the step's own error (one of these cases when the check refused it).
public struct MigrationError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The failure and its details, one case per failure; the library switches over it, an app
    /// over ``code``.
    package let kind: Kind

    /// The error of `kind`.
    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The rows of one child table that refer to missing rows of one parent table.
    public struct ForeignKeyViolation: Sendable, Hashable {
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

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// What happened and what to do.
    public var description: String {
        switch kind {
        case .stepFailed(let version, let lastGoodVersion, let underlying):
            "migration step \(version) failed after version \(lastGoodVersion): \(underlying)"
        case .incomplete(let reached, let target):
            "the migrator returned at user_version \(reached) instead of its target \(target)"
        case .insideTransaction(let operation):
            "\(operation) was started inside a transaction with foreign keys on; PRAGMA foreign_keys cannot be "
                + "turned off there, and a DROP TABLE would then delete or refuse the child rows. Nothing was run: "
                + "call it outside a transaction"
        case .foreignKeyViolations(let violations):
            "foreign key check failed: " + violations.map(\.summary).joined(separator: "; ")
                + "; the change was rolled back. Keep every parent row the children refer to (copy the rows "
                + "before DROP TABLE), or delete or fix the orphaned rows in the same step"
        case .rebuildRefused(let table, let reason):
            "cannot rebuild table \(table): \(reason); nothing was changed"
        }
    }

    /// Equal when they are the same failure with equal details; the `underlying` errors of two
    /// failed steps compare as in ``DatabaseManagerError/migrationFailed(version:lastGoodVersion:underlying:)``
    /// (same type, then its own `==`, else its text).
    public static func == (lhs: MigrationError, rhs: MigrationError) -> Bool {
        switch (lhs.kind, rhs.kind) {
        case (.stepFailed(let v1, let g1, let u1), .stepFailed(let v2, let g2, let u2)):
            v1 == v2 && g1 == g2 && equalErrors(u1, u2)
        case (.incomplete(let r1, let t1), .incomplete(let r2, let t2)): r1 == r2 && t1 == t2
        case (.insideTransaction(let o1), .insideTransaction(let o2)): o1 == o2
        case (.foreignKeyViolations(let v1), .foreignKeyViolations(let v2)): v1 == v2
        case (.rebuildRefused(let t1, let r1), .rebuildRefused(let t2, let r2)): t1 == t2 && r1 == r2
        case (.stepFailed, _), (.incomplete, _), (.insideTransaction, _), (.foreignKeyViolations, _), (.rebuildRefused, _):
            false
        }
    }
}

extension MigrationError.ForeignKeyViolation {
    /// `2 rows of tag refer to missing rows of note`.
    fileprivate var summary: String {
        "\(rowCount) row\(rowCount == 1 ? "" : "s") of \(table) refer\(rowCount == 1 ? "s" : "") to missing rows of \(parent)"
    }
}
