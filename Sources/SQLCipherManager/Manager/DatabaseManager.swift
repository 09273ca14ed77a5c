import Foundation

// MARK: - DatabaseManager

/// Owns one encrypted SQLCipher database: validates passwords, creates, opens, closes and
/// rekeys it, checks its schema version and reports events to a delegate — a Swift port of
/// Zetetic's Objective-C `SQLCipherManager`.
///
/// ```swift
/// let manager = DatabaseManager(url: URL(fileURLWithPath: "notes.db"))
/// manager.delegate = appDelegate
/// manager.schemaMigrator = migrator
/// if manager.databaseExists {
///     try manager.open(password: password)
/// } else {
///     try manager.create(password: password)
/// }
/// let titles = try manager.fetchAll("SELECT title FROM note")
/// ```
///
/// Thread safety: every method may be called from any thread; calls are serialised by a
/// recursive lock, so delegate callbacks and migrators may call back into the manager.
///
/// ## Topics
///
/// ### Flows
/// - ``create(password:)``
/// - ``open(password:)``
/// - ``create(rawKey:)``
/// - ``open(rawKey:)``
/// - ``openWithCachedKey()``
/// - ``reopen()``
/// - ``close()``
///
/// ### Queries
/// - ``withDatabase(_:)``
/// - ``transaction(_:_:)``
/// - ``execute(_:_:)-(_,Value)``
/// - ``fetchAll(_:_:)``
/// - ``fetchAll(_:_:_:)``
/// - ``decodeScalar(_:_:_:)``
///
/// ### Schema
/// - ``schemaVersion``
/// - ``setSchemaVersion(_:)``
/// - ``migrate(using:)``
///
/// ### Keys and encryption (crash-safe, export-based)
/// - ``rekey(password:options:progress:)``
/// - ``rekey(rawKey:options:progress:)``
/// - ``rekey(key:options:progress:)``
/// - ``decrypt(to:progress:)``
/// - ``cipherInfo``
///
/// Encrypting a plaintext file and recovering an interrupted operation need no manager: they
/// are in ``DatabaseTools``.
public final class DatabaseManager: @unchecked Sendable {
    // @unchecked: every stored property below is read and written only under `lock`.

    /// The shared instance (the original's `+sharedManager`). Set ``databaseURL`` before use.
    public static let shared = DatabaseManager()

    let lock = NSRecursiveLock()
    private var _databaseURL: URL?
    private var _configuration: DatabaseConfiguration
    private weak var _delegate: (any DatabaseManagerDelegate)?
    private var _schemaMigrator: (any SchemaMigrator)?
    /// The open connection's façade, `nil` when closed. Kept in the ``SiblingRegistry``.
    var database: Database? {
        didSet { SiblingRegistry.shared.update(self, identity: database?.connection.identity) }
    }
    /// The key of the open (or last open) database; zeroed when replaced or on close.
    var cachedKey: SecretBytes?
    /// The raw key derived from ``cachedKey`` for the open file's salt (see
    /// `DatabaseManager+DerivedKey.swift`): further connections need no PBKDF2. Zeroed on close.
    var derivedKey: KeyDerivation.Derived?
    /// The read-only connections of ``read(_:)`` on a WAL database; closed with the writer.
    let readers = ReaderPool()
    /// The streams of ``events()``.
    let eventStreams = EventStreams()
    /// Where the `async` reads and writes run: threads of the manager's own, never the
    /// cooperative pool's (`read` may wait for a connection, `write` for the lock).
    let readQueue = DispatchQueue(label: "SQLCipherManager.read", attributes: .concurrent)
    let writeQueue = DispatchQueue(label: "SQLCipherManager.write")

    /// Creates a manager for the database at `url`.
    public init(url: URL? = nil, configuration: DatabaseConfiguration = DatabaseConfiguration()) {
        _databaseURL = url
        _configuration = configuration
    }

    deinit {
        eventStreams.finish()
        SiblingRegistry.shared.update(self, identity: nil)
        database?.connection.close()
    }

    /// Runs `body` while holding the manager's recursive lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    // MARK: - Configuration

    /// The database file (the original's `databaseUrl` / `databasePath`). A change takes effect
    /// at the next create or open.
    public var databaseURL: URL? {
        get { locked { _databaseURL } }
        set { locked { _databaseURL = newValue } }
    }

    /// Cipher options, busy timeout, foreign keys and password policy. A change takes effect at
    /// the next create or open.
    public var configuration: DatabaseConfiguration {
        get { locked { _configuration } }
        set { locked { _configuration = newValue } }
    }

    /// Receives events; held weakly, as in the original.
    public var delegate: (any DatabaseManagerDelegate)? {
        get { locked { _delegate } }
        set { locked { _delegate = newValue } }
    }

    /// Brings the schema up to date after each create and open; `nil` leaves the schema alone.
    public var schemaMigrator: (any SchemaMigrator)? {
        get { locked { _schemaMigrator } }
        set { locked { _schemaMigrator = newValue } }
    }

    /// The database file's path, or `nil` when no URL is set.
    public var databasePath: String? { databaseURL?.path }

    func requirePath() throws -> String {
        guard let path = databasePath else { throw DatabaseManagerError.notConfigured }
        return path
    }

    // MARK: - State

    /// `true` while a database is open and unlocked (the original's `isDatabaseUnlocked`).
    public var isOpen: Bool { locked { database != nil } }

    /// `true` when a file exists at ``databaseURL`` (the original's `databaseExists`).
    public var databaseExists: Bool {
        guard let path = databasePath else { return false }
        return DatabaseFile(path: path).exists
    }

    /// The database file's size in bytes, or `nil` when there is no file.
    public var databaseSize: Int64? { databasePath.flatMap { DatabaseFile(path: $0).size } }

    /// `true` when a key from the last successful create, open or rekey is cached.
    public var hasCachedKey: Bool { locked { cachedKey != nil } }

    // MARK: - Closing

    /// Closes the database (`sqlite3_close_v2`) and forgets the cached key, zeroing it.
    public func close() {
        locked {
            closeConnection()
            cachedKey = nil
            derivedKey = nil
        }
    }

    /// Closes the connection but keeps the cached key, for ``reopen()``.
    func closeConnection() {
        readers.closeAll()
        database?.connection.close()
        database = nil
    }

    /// The open database, or ``DatabaseManagerError/notOpen``.
    func requireDatabase() throws -> Database {
        guard let database else { throw DatabaseManagerError.notOpen }
        return database
    }

    // MARK: - Events

    /// Calls the delegate, if any, under the lock.
    func notify(_ event: DatabaseEvent) {
        if let delegate = _delegate { event.deliver(to: delegate, from: self) }
        eventStreams.yield(event)
    }
}
