import Foundation
import SQLCipherCore
import SQLCipherQuery

// MARK: - DatabaseManager

/// Owns one encrypted SQLCipher database: validates passwords, creates, opens, closes and
/// rekeys it, checks its schema version and reports events to a delegate — a Swift port of
/// Zetetic's Objective-C `SQLCipherManager`. Queries run on the ``Database`` that ``read(_:)``,
/// ``write(_:)`` and their blocking forms hand to their closure.
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
/// let titles = try manager.readSync { db in try db.fetchAll(String.self, "SELECT title FROM note") }
/// ```
///
/// Thread safety: every method may be called from any thread; calls are serialised by a
/// recursive lock, so delegate callbacks and migrators may call back into the manager. From
/// inside its own `read`, `write`, `transaction` or `withDatabase` closures, a nested closure
/// runs on the outer closure's connection (a nested read sees what the closure sees),
/// ``close(forgettingKey:)`` waits for the outermost closure to return, and a call that would
/// wait for the closure or change the connection under it (open, rekey, a write inside a
/// read…) throws ``DatabaseManagerError/reentrantCall(_:inside:)`` at once: never a deadlock.
///
/// ## Topics
///
/// ### Lifecycle
/// - ``init(url:configuration:)``
/// - ``shared``
/// - ``databaseURL``
/// - ``configuration``
/// - ``databaseExists``
/// - ``isOpen``
/// - ``create(password:)``
/// - ``open(password:)``
/// - ``create(_:keySlots:label:)``
/// - ``open(_:)``
/// - ``open(recoveryKey:)``
/// - ``openOrCreate(keyStore:identifier:progress:)``
/// - ``openWithCachedKey()``
/// - ``reopen()``
/// - ``hasCachedKey``
/// - ``close(forgettingKey:)``
/// - ``DatabaseCredential``
///
/// ### Reading and writing
/// - ``read(_:)``
/// - ``write(_:)``
/// - ``transaction(_:_:)``
/// - ``readSync(_:)``
/// - ``writeSync(_:)``
/// - ``transactionSync(_:_:)``
/// - ``withDatabase(_:)``
///
/// ### Observation and events
/// - ``observe(_:)``
/// - ``events()``
/// - ``delegate``
///
/// ### Schema
/// - ``schemaVersion``
/// - ``setSchemaVersion(_:)``
/// - ``schemaMigrator``
/// - ``migrate(using:)``
///
/// ### Keys and encryption (crash-safe, export-based)
/// - ``rekey(to:options:progress:)``
/// - ``isCurrentPassword(_:)-(String)``
/// - ``isCurrentPassword(_:)-(SecretBytes)``
/// - ``keySlots``
/// - ``decrypt(to:progress:)``
/// - ``backup(to:key:options:progress:)-2vlr9``
/// - ``BackupKey``
/// - ``cipherInfo``
/// - ``diagnoseCipherSettings(password:alsoTrying:)-(String,_)``
/// - ``diagnoseCipherSettings(password:alsoTrying:)-(SecretBytes,_)``
/// - ``integrityProblems(quick:)``
///
/// ### File format
/// - ``fileFormat``
/// - ``upgradeFormat(progress:)``
/// - ``convertPlaintextHeader(_:progress:)``
///
/// Encrypting a plaintext file, the facts about a file (``DatabaseTools/inspectFile(at:)``) and
/// recovering an interrupted operation need no manager: they are in ``DatabaseTools``.
public final class DatabaseManager: @unchecked Sendable {
    // @unchecked: every stored property below is read and written only under `lock`, except
    // the settings and flags marked as under `stateLock` (never held while waiting for anything).

    /// The shared instance (the original's `+sharedManager`). Set ``databaseURL`` before use.
    public static let shared = DatabaseManager()

    let lock = ManagerLock()
    /// Guards the settings and the two flags below: held only to copy a value, so that a call
    /// from inside a read closure can read them while another thread holds `lock`.
    private let stateLock = NSLock()
    private var _isOpen = false
    private var _hasCachedKey = false
    private var _fileFormat: DatabaseFileFormat?
    private var _databaseURL: URL?
    private var _configuration: DatabaseConfiguration
    private weak var _delegate: (any DatabaseManagerDelegate)?
    private var _schemaMigrator: (any SchemaMigrator)?
    /// The open connection's façade, `nil` when closed. Kept in the ``SiblingRegistry``.
    var database: Database? {
        didSet {
            stateLock.withLock { _isOpen = database != nil }
            SiblingRegistry.shared.update(self, identity: database?.connection.identity)
            _ = database?.connection.trackChanges()
            openFileFormat = database.flatMap { try? DatabaseFileFormat(of: $0) }
            // A new writer (a key change, a sibling's reopen): the observations read again, with it.
            if database != nil { observations.changedElsewhere() }
        }
    }
    /// The key of the open (or last open) database; zeroed when replaced or on close.
    var cachedKey: SecretBytes? {
        didSet { stateLock.withLock { _hasCachedKey = cachedKey != nil } }
    }
    /// On a key-slot database opened with a password: that password's digest
    /// (``PasswordDigest``), for ``isCurrentPassword(_:)-(String)``. Kept and dropped with ``cachedKey``.
    var passwordDigest: SecretBytes?
    /// The raw key derived from ``cachedKey`` for the open file's salt (``DerivedKeys``): further
    /// connections need no PBKDF2. Zeroed on close.
    var derivedKey: KeyDerivation.Derived?
    /// The cipher settings the file turned out to need when they are not the configuration's
    /// (a SQLCipher 3 file found by an open on 4.x, ``FormatFallback``): every connection to it
    /// uses them (``connectionConfiguration``). Kept with ``cachedKey``, for a reopen.
    var foundCipher: CipherOptions?
    /// The open file's format, read from each new writer; `nil` while closed.
    var openFileFormat: DatabaseFileFormat? {
        didSet { stateLock.withLock { _fileFormat = openFileFormat } }
    }
    /// The read-only connections of ``read(_:)`` on a WAL database; closed with the writer.
    let readers = ReaderPool()
    /// Events raised under the lock, each with the manager whose delegate hears it (a sibling's
    /// too), delivered once the lock is released (``notify(_:)``).
    var pendingEvents: [(DatabaseManager, DatabaseEvent)] = []
    /// Where the running flow stands with its `will…` event (``announcing(_:failed:_:)``).
    var announcement: Announcement?
    /// The streams of ``events()``.
    let eventStreams = EventStreams()
    /// The running ``observe(_:)`` observations.
    let observations = ObservationCenter()
    /// Where the `async` reads and writes run: threads of the manager's own (up to one per
    /// reader connection, one for the writer), never a Dispatch queue, whose threads on Linux
    /// come out of the same width-limited pool as the cooperative executor's.
    let readExecutor = ThreadExecutor(name: "SQLCipher.read")
    let writeExecutor = ThreadExecutor(name: "SQLCipher.write")
    /// Where the `async` backups run, one at a time: a long copy never holds a reader's or the writer's thread.
    let backupExecutor = ThreadExecutor(name: "SQLCipher.backup")

    /// Creates a manager for the database at `url`.
    public init(url: URL? = nil, configuration: DatabaseConfiguration = DatabaseConfiguration()) {
        _databaseURL = url
        _configuration = configuration
    }

    deinit {
        readExecutor.shutDown()
        writeExecutor.shutDown()
        backupExecutor.shutDown()
        eventStreams.finish()
        observations.finishAll()
        SiblingRegistry.shared.update(self, identity: nil)
        readers.closeAll()
        database?.connection.close()
    }

    /// Runs `body` while holding the manager's recursive lock: the flows (open, create, rekey,
    /// key slots…), which install or replace the connection. Refused inside one of the manager's
    /// closures on this thread (``DatabaseManagerError/reentrantCall(_:inside:)``), where it would
    /// wait for the closure or change the connection under it.
    ///
    /// The one place a flow's errors of the layers below (the key layer's ``KeySlotError``,
    /// ``DatabaseKeyError`` and ``KeySlotFailure``, the engine's ``EngineFailure``) become the
    /// ``DatabaseManagerError`` a user sees (``DatabaseManagerError/init(layerError:)``), so that
    /// the manager's public calls throw one type.
    func locked<T>(_ call: String = #function, _ body: () throws -> T) throws -> T {
        if let scope = lock.innermostScope {
            throw DatabaseManagerError.reentrantCall(call, inside: ManagerLock.name(of: scope))
        }
        lock.lock()
        defer { unlockDeliveringEvents() }
        do {
            return try body()
        } catch {
            throw DatabaseManagerError(layerError: error) ?? error
        }
    }

    /// ``locked(_:_:)`` for a body that cannot fail (it only reads state), so never refused.
    func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { unlockDeliveringEvents() }
        return body()
    }

    /// Copies or sets a value guarded by `stateLock`.
    private func state<T>(_ body: () -> T) -> T { stateLock.withLock(body) }

    // MARK: - Configuration

    /// The database file (the original's `databaseUrl` / `databasePath`). A change takes effect
    /// at the next create or open.
    public var databaseURL: URL? {
        get { state { _databaseURL } }
        set { state { _databaseURL = newValue } }
    }

    /// Cipher options, busy timeout, foreign keys and password policy. A change takes effect at
    /// the next create or open.
    public var configuration: DatabaseConfiguration {
        get { state { _configuration } }
        set { state { _configuration = newValue } }
    }

    /// Receives events; held weakly, as in the original.
    public var delegate: (any DatabaseManagerDelegate)? {
        get { state { _delegate } }
        set { state { _delegate = newValue } }
    }

    /// Brings the schema up to date after each create and open; `nil` leaves the schema alone.
    public var schemaMigrator: (any SchemaMigrator)? {
        get { state { _schemaMigrator } }
        set { state { _schemaMigrator = newValue } }
    }

    /// The database file's path, or `nil` when no URL is set.
    var databasePath: String? { databaseURL?.path }

    func requirePath() throws -> String {
        guard let path = databasePath else { throw DatabaseManagerError.notConfigured }
        return path
    }

    // MARK: - State

    /// `true` while a database is open and unlocked (the original's `isDatabaseUnlocked`).
    public var isOpen: Bool { state { _isOpen } }

    /// `true` when a file exists at ``databaseURL`` (the original's `databaseExists`).
    public var databaseExists: Bool {
        guard let path = databasePath else { return false }
        return DatabaseFile(path: path).exists
    }

    /// `true` when a key from the last successful create, open or rekey is cached (until `close(forgettingKey: true)`).
    public var hasCachedKey: Bool { state { _hasCachedKey } }

    /// The open database's format (its SQLCipher major version and settings), read at each
    /// create, open and upgrade; `nil` while closed. On SQLCipher 4 an open finds a SQLCipher 3
    /// file by itself (``DatabaseConfiguration/cipher`` left at the defaults): this says so.
    public var fileFormat: DatabaseFileFormat? { state { _fileFormat } }

    // MARK: - Closing

    /// Closes the database (`sqlite3_close_v2`: the writer and every reader) and forgets the key:
    /// the cached key, the key derived from a password and a key-slot password's digest are
    /// zeroed (unless a sibling manager on the same file still holds them), and SQLCipher zeroes
    /// its own copies as each connection closes, so no key material of this manager is left in
    /// memory. The next open needs the password or key again. Fires `didCloseDatabase`
    /// (``DatabaseEvent/didClose``) when a database was open, then `didForgetKey`
    /// (``DatabaseEvent/didForgetKey``) when a key was cached; on a closed manager without a key
    /// it does nothing.
    ///
    /// What the library cannot zero is a `String` the app passed in (`open(password: String)`):
    /// Swift strings are immutable values the runtime may copy and frees without wiping. An app
    /// that must leave no copy of a password reads it into ``SecretBytes`` and passes
    /// ``DatabaseCredential/password(_:)-(SecretBytes)`` (to ``open(_:)``, ``create(_:keySlots:label:)``,
    /// ``rekey(to:options:progress:)``; on ``keySlots`` the overloads that take one); a key from a
    /// ``KeyStore`` never becomes a `String`.
    ///
    /// With `forgettingKey` `false` the cached key is kept, in zeroable memory, for
    /// ``openWithCachedKey()`` and ``reopen()`` (an app going to the background, as the
    /// original's `closeDatabase` kept its password), until a later close that forgets it or the
    /// manager's release; `didForgetKey` is not fired then.
    ///
    /// Called from inside one of the manager's own closures, it takes effect once the outermost
    /// of them on this thread has returned (a write commits first): closing at once would pull
    /// the connection from under the closure, or wait for it forever.
    public func close(forgettingKey: Bool = true) {
        if lock.requestClose(forgettingKey: forgettingKey) { return }
        locked {
            let wasOpen = database != nil
            closeConnection()
            if wasOpen { notify(.didClose) }
            guard forgettingKey, cachedKey != nil else { return }
            forgetKey()
            notify(.didForgetKey)
        }
    }

    /// Zeroes the key material this manager holds (each ``SecretBytes`` wipes itself when its
    /// last reference goes).
    func forgetKey() {
        cachedKey = nil
        passwordDigest = nil
        derivedKey = nil
        foundCipher = nil
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

    /// Tells the delegate and the ``events()`` streams, never under the lock: on a thread that
    /// holds the lock the event waits in ``pendingEvents`` until that thread releases it
    /// (``unlockDeliveringEvents()``), so a delegate may call the manager, or wait for a thread
    /// that does, without a deadlock.
    func notify(_ event: DatabaseEvent) {
        if lock.isHeldByCurrentThread {
            pendingEvents.append((self, event))
        } else {
            deliver(event)
        }
    }

    /// Calls the delegate, if any, and yields `event` to the streams, on the calling thread.
    func deliver(_ event: DatabaseEvent) {
        if let delegate = state({ _delegate }) { event.deliver(to: delegate, from: self) }
        eventStreams.yield(event)
        if event == .didClose { observations.finishAll() }
    }

    /// Releases the lock once; when that was the outermost hold, then delivers the events that
    /// waited for it, in order.
    func unlockDeliveringEvents() {
        let events = takePendingEventsIfOutermost()
        lock.unlock()
        for (manager, event) in events { manager.deliver(event) }
    }

    /// Under the lock: the waiting events when the next unlock releases it, else none.
    func takePendingEventsIfOutermost() -> [(DatabaseManager, DatabaseEvent)] {
        guard !pendingEvents.isEmpty, lock.isHeldOnceByCurrentThread else { return [] }
        defer { pendingEvents = [] }
        return pendingEvents
    }
}
