import Foundation

// MARK: - RecordTemplate

/// What the record calls keep for a record type and table: its columns (from the first value
/// encoded) and the SQL built from them, so that a later call neither collects the names again
/// nor builds its SQL; the connection's statement cache then finds the statement by its text.
final class RecordTemplate: Sendable {
    package let sql: RecordSQL
    /// `INSERT INTO … VALUES (…)`.
    let insertSQL: String
    /// `INSERT INTO … VALUES (…) RETURNING rowid` (see ``RecordSQL/insertReturningRowID``).
    let insertReturningSQL: String?

    /// The update (see ``RecordSQL/update()``), or why the record cannot be updated.
    private let updatePlan: Result<RecordSQL.Plan, RecordError>
    /// The native save (see ``RecordSQL/upsert(style:)``).
    private let upsertPlan: Result<RecordSQL.Plan, RecordError>
    /// The positions of the primary-key columns among the columns.
    private let keys: Result<[Int], RecordError>

    var columns: [String] { sql.columns }

    init(_ sql: RecordSQL) {
        self.sql = sql
        insertSQL = sql.insert
        insertReturningSQL = sql.insertReturningRowID
        updatePlan = Self.result { try sql.update() }
        upsertPlan = Self.result { try sql.upsert(style: .native) }
        keys = Self.result { try sql.keyPositions() }
    }

    /// The update: `UPDATE … SET … WHERE key`.
    package func update() throws -> RecordSQL.Plan { try updatePlan.get() }

    /// The save in `style`: the native upsert, or the update the emulation runs first.
    package func upsert(style: RecordSQL.UpsertStyle) throws -> RecordSQL.Plan {
        try (style == .native ? upsertPlan : updatePlan).get()
    }

    /// The positions of the primary-key columns.
    func keyPositions() throws -> [Int] { try keys.get() }

    /// Set once ``insertReturningSQL`` did not compile where the plain insert did (a table
    /// without rowid, a view) or returned another rowid (a virtual table): the inserts of this template then read `sqlite3_last_insert_rowid`,
    /// as on older SQLite, which gives the same value (and is still right for a table that has
    /// a rowid in another database).
    private let returningRefused = Flag()

    /// `true` once ``refuseReturning()`` was called.
    var isReturningRefused: Bool { returningRefused.isSet }

    /// Makes the later inserts of this template use the plain `INSERT`.
    func refuseReturning() { returningRefused.set() }

    /// One encoder of these columns kept between calls, so that a call per record makes no
    /// encoder, buffers or keyed container of its own.
    private let spare = SpareEncoder()

    /// The kept encoder, or a new reusable one; give it back with ``giveBack(_:)``.
    func takeEncoder() -> RecordEncoder {
        spare.take() ?? RecordEncoder(table: sql.table, columns: sql.columns, reusable: true)
    }

    /// Keeps `encoder` (one from ``takeEncoder()``) for the next call, its values dropped.
    func giveBack(_ encoder: RecordEncoder) {
        guard encoder.isReusable else { return }
        encoder.dropValues()
        if let replaced = spare.keep(encoder) { replaced.dropContainer() }
    }

    deinit { spare.take()?.dropContainer() }

    private static func result<T>(_ make: () throws -> T) -> Result<T, RecordError> {
        do {
            return .success(try make())
        } catch let error as RecordError {
            return .failure(error)
        } catch {
            return .failure(.unencodable(table: "", column: "", reason: "\(error)"))
        }
    }

    // MARK: - The templates of the process

    /// Which template a call uses: the record type and the table (a template made for another
    /// primary key is replaced).
    struct Key: Hashable {
        var type: ObjectIdentifier
        var table: String
    }

    /// The templates made so far, at most 256 (a program that names tables at run time does
    /// not grow it without bound: it is emptied when full).
    private static let cache = TemplateCache()

    static func cached(_ key: Key) -> RecordTemplate? { cache.get(key) }
    static func remember(_ template: RecordTemplate, for key: Key) { cache.set(template, for: key) }
}

/// The process's templates. Safe to share between threads: every access holds the lock, and
/// the templates are immutable.
private final class TemplateCache: @unchecked Sendable {
    private let lock = NSLock()
    private var templates: [RecordTemplate.Key: RecordTemplate] = [:]

    func get(_ key: RecordTemplate.Key) -> RecordTemplate? {
        lock.lock()
        defer { lock.unlock() }
        return templates[key]
    }

    package func set(_ template: RecordTemplate, for key: RecordTemplate.Key) {
        lock.lock()
        defer { lock.unlock() }
        if templates.count >= 256 { templates.removeAll() }
        templates[key] = template
    }
}

/// A flag set once, read by any thread (under the lock).
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        defer { lock.unlock() }
        value = true
    }
}

/// The spare encoder of a template. Safe to share between threads: every access holds the
/// lock, and an encoder taken out is used by one thread until it is given back.
private final class SpareEncoder: @unchecked Sendable {
    private let lock = NSLock()
    private var encoder: RecordEncoder?

    func take() -> RecordEncoder? {
        lock.lock()
        defer { lock.unlock() }
        defer { encoder = nil }
        return encoder
    }

    /// Keeps `new`; returns the encoder it replaces, if any.
    func keep(_ new: RecordEncoder) -> RecordEncoder? {
        lock.lock()
        defer { lock.unlock() }
        let old = encoder
        encoder = new
        return old
    }
}
