import SQLCipherCore

// MARK: - The failures

extension MigrationError {
    /// One case per failure, with the details its message needs. Each case has a static factory
    /// of the same name and labels on ``MigrationError`` (documented there) and a ``Code``: a
    /// case added here needs both, which the switch in ``code`` enforces.
    package enum Kind: Sendable {
        case stepFailed(version: Int, lastGoodVersion: Int, underlying: any Error)
        case incomplete(reached: Int, target: Int)
        case insideTransaction(operation: String)
        case foreignKeyViolations([ForeignKeyViolation])
        case rebuildRefused(table: String, reason: String)
    }

    /// A step of ``VersionedSchemaMigrator`` failed: `version` is the version it would have
    /// produced, `lastGoodVersion` the version the database stays at, `underlying` what the step
    /// threw.
    public static func stepFailed(version: Int, lastGoodVersion: Int, underlying: any Error) -> Self {
        Self(.stepFailed(version: version, lastGoodVersion: lastGoodVersion, underlying: underlying))
    }

    /// A migrator returned without setting `user_version` to its target.
    public static func incomplete(reached: Int, target: Int) -> Self {
        Self(.incomplete(reached: reached, target: target))
    }

    /// A schema change that needs foreign keys off (`migration step 2`, `rebuild of table note`)
    /// was started inside a transaction, where `PRAGMA foreign_keys` cannot change: with foreign
    /// keys on, its `DROP TABLE` would delete (`ON DELETE CASCADE`) or refuse the child rows.
    /// Nothing was run. Call it outside a transaction, or run ``Database/rebuildTable(_:_:)``
    /// inside a ``VersionedSchemaMigrator`` step, which turns foreign keys off for it.
    public static func insideTransaction(operation: String) -> Self {
        Self(.insideTransaction(operation: operation))
    }

    /// The change left rows whose foreign keys point at no parent row (`PRAGMA
    /// foreign_key_check` before the commit); it was rolled back. One entry per child/parent
    /// pair, ordered by table then parent; tables and counts, never values.
    public static func foreignKeyViolations(_ violations: [ForeignKeyViolation]) -> Self {
        Self(.foreignKeyViolations(violations))
    }

    /// ``Database/rebuildTable(_:_:)`` could not make the change to `table`, for `reason`; the
    /// table, its rows, indexes and triggers are as they were.
    public static func rebuildRefused(table: String, reason: String) -> Self {
        Self(.rebuildRefused(table: table, reason: reason))
    }

    /// Which failure an error is, without its details: one static member per failure, to match
    /// in a `switch` or a `catch`. Not an enum, so that a later version can add a code without
    /// breaking an app: a `switch` over codes needs a `default`, which is where a new code goes.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The code's name, as its static member is spelled.
        public var description: String { name }

        /// The code of ``MigrationError/stepFailed(version:lastGoodVersion:underlying:)``.
        public static let stepFailed = Self("stepFailed")
        /// The code of ``MigrationError/incomplete(reached:target:)``.
        public static let incomplete = Self("incomplete")
        /// The code of ``MigrationError/insideTransaction(operation:)``.
        public static let insideTransaction = Self("insideTransaction")
        /// The code of ``MigrationError/foreignKeyViolations(_:)``.
        public static let foreignKeyViolations = Self("foreignKeyViolations")
        /// The code of ``MigrationError/rebuildRefused(table:reason:)``.
        public static let rebuildRefused = Self("rebuildRefused")
    }

    /// Which failure this is.
    public var code: Code {
        switch kind {
        case .stepFailed: .stepFailed
        case .incomplete: .incomplete
        case .insideTransaction: .insideTransaction
        case .foreignKeyViolations: .foreignKeyViolations
        case .rebuildRefused: .rebuildRefused
        }
    }

    /// What a failed step threw (``Code/stepFailed``).
    public var underlying: (any Error)? {
        if case .stepFailed(_, _, let error) = kind { error } else { nil }
    }

    /// The rows left without their parent (``Code/foreignKeyViolations``); empty for another failure.
    public var violations: [ForeignKeyViolation] {
        if case .foreignKeyViolations(let violations) = kind { violations } else { [] }
    }
}

extension MigrationError.Code {
    /// Whether `error` is a ``MigrationError`` with this code: `catch MigrationError.Code.x { … }`.
    /// Disfavored, so that a `switch` over another type's values keeps that type's own `~=`.
    @_disfavoredOverload
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? MigrationError)?.code == code
    }

    /// Whether `error` has this code: `case .x:` in a `switch` over a ``MigrationError``.
    public static func ~= (code: Self, error: MigrationError) -> Bool {
        error.code == code
    }
}

extension MigrationError {
    /// Whether `error` is a ``MigrationError`` equal to `pattern`: `catch MigrationError.incomplete(…) { … }`.
    @_disfavoredOverload
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        (error as? MigrationError) == pattern
    }
}
