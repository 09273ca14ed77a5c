// MARK: - VersionedSchemaMigrator

/// A ``SchemaMigrator`` made of numbered steps, like GRDB's `DatabaseMigrator` but keyed on
/// `PRAGMA user_version`, as the original SQLCipherManager's `schemaVersion` is.
///
/// Each step runs in its own `BEGIN IMMEDIATE` transaction that also sets `user_version` to the
/// step's version, so a failing step rolls back alone and the database stays at the last good
/// version.
///
/// By default a step runs with foreign keys off, as SQLite's procedure for schema changes asks
/// (lang_altertable.html): `PRAGMA foreign_keys = OFF` before the step's transaction (the pragma
/// does nothing inside one), `PRAGMA foreign_key_check` before its commit, foreign keys back on
/// after it. So the usual table rebuild (`CREATE TABLE new_note …; INSERT … SELECT; DROP TABLE
/// note; ALTER TABLE new_note RENAME TO note`, or ``Database/rebuildTable(_:_:)``) keeps the
/// rows of the tables that refer to `note`, where with foreign keys on `DROP TABLE` would delete
/// them (`ON DELETE CASCADE`) or fail. A step that leaves a row without its parent fails with
/// ``MigrationError/foreignKeyViolations(_:)`` (the tables and row counts) and commits nothing. Register a step
/// with `foreignKeyChecks: .immediate` to keep foreign keys enforced, cascades included, as the
/// step runs. With ``DatabaseConfiguration/foreignKeys`` off, steps run as they are, unchecked.
///
/// ```swift
/// var migrator = VersionedSchemaMigrator()
/// migrator.register(version: 1) { db in
///     try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
/// }
/// migrator.register(version: 2) { db in
///     try db.execute("ALTER TABLE note ADD COLUMN body TEXT")
/// }
/// manager.schemaMigrator = migrator
/// ```
public struct VersionedSchemaMigrator: SchemaMigrator {
    /// One registered step.
    public typealias Step = @Sendable (Database) throws -> Void

    /// When a step's foreign keys are checked.
    public enum ForeignKeyChecks: Sendable, Hashable {
        /// Foreign keys off while the step runs, then `PRAGMA foreign_key_check` before its
        /// commit: the default, safe for table rebuilds.
        case deferred
        /// Foreign keys enforced as the step runs (`ON DELETE CASCADE` fires, a violating
        /// statement fails at once), as in any other transaction.
        case immediate
    }

    private var steps: [(version: Int, checks: ForeignKeyChecks, run: Step)] = []

    /// Creates an empty migrator (target version 0).
    public init() {}

    /// The highest registered version.
    public var targetVersion: Int { steps.last?.version ?? 0 }

    /// The registered versions, ascending.
    public var versions: [Int] { steps.map(\.version) }

    /// Registers the step that brings the schema to `version`. Versions must be registered in
    /// strictly increasing order, starting at 1 or more. `foreignKeyChecks` says when foreign
    /// keys are checked (``ForeignKeyChecks/deferred``, the default: after the step, with
    /// foreign keys off while it runs).
    public mutating func register(version: Int, foreignKeyChecks: ForeignKeyChecks = .deferred, _ step: @escaping Step) {
        precondition(
            version > (steps.last?.version ?? 0),
            "migration versions must be registered in strictly increasing order (got \(version))")
        steps.append((version, foreignKeyChecks, step))
    }

    /// Runs every step above `version`, each in its own transaction; call it outside a
    /// transaction (a deferred-check step inside one, with foreign keys on, is refused).
    ///
    /// - Throws: ``MigrationError/stepFailed(version:lastGoodVersion:underlying:)`` naming the failing step and the version the database
    ///   stays at; its `underlying` error is ``MigrationError/foreignKeyViolations(_:)`` when the step left
    ///   rows without their parent, ``MigrationError/insideTransaction(operation:)`` when it was called inside a
    ///   transaction with foreign keys on.
    public func migrate(_ db: Database, from version: Int) throws {
        var current = version
        for step in steps where step.version > version {
            let body = { (db: Database) in
                try step.run(db)
                try db.setSchemaVersion(step.version)
            }
            do {
                switch step.checks {
                case .deferred: try db.withForeignKeysOff(operation: "migration step \(step.version)", body)
                case .immediate: try db.transaction(.immediate, body)
                }
            } catch {
                throw MigrationError.stepFailed(version: step.version, lastGoodVersion: current, underlying: error)
            }
            current = step.version
        }
    }
}
