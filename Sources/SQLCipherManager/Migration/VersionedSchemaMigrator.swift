// MARK: - VersionedSchemaMigrator

/// A ``SchemaMigrator`` made of numbered steps, like GRDB's `DatabaseMigrator` but keyed on
/// `PRAGMA user_version`, as the original SQLCipherManager's `schemaVersion` is.
///
/// Each step runs in its own `BEGIN IMMEDIATE` transaction that also sets `user_version` to the
/// step's version, so a failing step rolls back alone and the database stays at the last good
/// version.
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

    private var steps: [(version: Int, run: Step)] = []

    /// Creates an empty migrator (target version 0).
    public init() {}

    /// The highest registered version.
    public var targetVersion: Int { steps.last?.version ?? 0 }

    /// The registered versions, ascending.
    public var versions: [Int] { steps.map(\.version) }

    /// Registers the step that brings the schema to `version`. Versions must be registered in
    /// strictly increasing order, starting at 1 or more.
    public mutating func register(version: Int, _ step: @escaping Step) {
        precondition(
            version > (steps.last?.version ?? 0),
            "migration versions must be registered in strictly increasing order (got \(version))")
        steps.append((version, step))
    }

    /// Runs every step above `version`, each in its own transaction.
    ///
    /// - Throws: ``MigrationStepError`` naming the failing step and the version the database
    ///   stays at.
    public func migrate(_ db: Database, from version: Int) throws {
        var current = version
        for step in steps where step.version > version {
            do {
                try db.transaction(.immediate) { db in
                    try step.run(db)
                    try db.setSchemaVersion(step.version)
                }
            } catch {
                throw MigrationStepError(version: step.version, lastGoodVersion: current, underlying: error)
            }
            current = step.version
        }
    }
}
