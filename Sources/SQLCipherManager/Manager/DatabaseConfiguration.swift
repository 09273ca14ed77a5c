// MARK: - DatabaseConfiguration
import SQLCipherKeys

/// How a ``DatabaseManager`` opens its connection.
public struct DatabaseConfiguration: Sendable {
    /// Cipher settings applied after the key (`kdf_iter`, `cipher_page_size`, `cipher_use_hmac`…).
    public var cipher: CipherOptions
    /// How long a statement waits for another connection's lock: `sqlite3_busy_timeout`, in
    /// whole milliseconds (a negative duration is 0; more than `Int32.max` ms is `Int32.max`).
    /// A rekey waits as long for a writer in the middle of a transaction.
    public var busyTimeout: Duration
    /// `PRAGMA foreign_keys = ON` on every connection (the original did this too).
    public var foreignKeys: Bool
    /// The rule a new password must satisfy: checked on create, on a password change (rekey)
    /// and when an open encrypts a plaintext file, never when an existing database is opened.
    public var passwordPolicy: PasswordPolicy
    /// Run `PRAGMA quick_check` on every open, so a damaged page (an HMAC failure beyond the
    /// first page) is reported at open as ``DatabaseManagerError/corrupt(path:underlying:)``
    /// rather than by a later query. Costs a full read of the file.
    public var checksIntegrityOnOpen: Bool
    /// Opt-in: when `open(password:)` or `open(rawKey:)` finds a plaintext SQLite file at the
    /// path, encrypt it in place with that key first (the export of
    /// ``DatabaseTools/encryptPlaintextDatabase(at:to:password:configuration:progress:)-(_,_,String,_,_)``:
    /// `ATTACH … KEY` + `sqlcipher_export`, verified, crash-safe), then open it.
    public var adoptsPlaintextDatabase: Bool
    /// How password key slots are made and which Argon2id costs are accepted (key-slot
    /// databases only: ``DatabaseManager/create(_:keySlots:label:)``).
    public var keySlots = KeySlotOptions()
    /// How long this manager's commits must pause before the observations they touched run
    /// again (``DatabaseManager/observe(_:)``): commits closer together are one burst, and each
    /// observed query runs once after it — at the latest 16 times this after the burst's first
    /// commit, for a burst that goes on. `.zero` runs them after every commit.
    public var observationQuietPeriod: Duration = .milliseconds(1)
    /// The journal mode set on every create and open (`PRAGMA journal_mode`), or `nil` to keep
    /// the file's own: new databases then get SQLite's rollback journal (`DELETE`). Choose
    /// ``JournalMode/wal`` for concurrent reads (``DatabaseManager/readSync(_:)``): readers and the
    /// one writer never wait for each other.
    public var journalMode: JournalMode?
    /// How many read-only connections ``DatabaseManager/readSync(_:)`` may open on a WAL database
    /// (each keyed with the derived key, without PBKDF2). At least 1.
    public var maximumReaderCount: Int
    /// Opt-in: when an open finds the file in an older SQLCipher format by itself (``cipher``
    /// left at the defaults: a SQLCipher 3 file on SQLCipher 4), convert it right after
    /// `didOpen`, before the schema migrator runs (``DatabaseManager/upgradeFormat(progress:)``:
    /// crash-safe, refused while another program has the file open — then the open still
    /// succeeds, in the old format, after `didFailToUpgradeFormat`). Off by default: the
    /// upgrade rewrites the whole file, and SQLCipher 3 can no longer read it.
    public var upgradesFormatOnOpen = false
    /// The salt for a new file in the plaintext-header form (a create's staging file, an
    /// export's copy), which has no salt file of its own yet; `nil` reads `<db>.scm-salt`.
    var headerSalt: [UInt8]?

    /// Creates a configuration.
    public init(
        cipher: CipherOptions = CipherOptions(),
        busyTimeout: Duration = .seconds(5),
        foreignKeys: Bool = true,
        passwordPolicy: PasswordPolicy = .default,
        checksIntegrityOnOpen: Bool = false,
        adoptsPlaintextDatabase: Bool = false,
        journalMode: JournalMode? = nil,
        maximumReaderCount: Int = 4
    ) {
        self.cipher = cipher
        self.busyTimeout = busyTimeout
        self.foreignKeys = foreignKeys
        self.passwordPolicy = passwordPolicy
        self.checksIntegrityOnOpen = checksIntegrityOnOpen
        self.adoptsPlaintextDatabase = adoptsPlaintextDatabase
        self.journalMode = journalMode
        self.maximumReaderCount = maximumReaderCount
    }
}

// MARK: - Derived values

extension DatabaseConfiguration {
    /// ``busyTimeout`` in whole milliseconds for `sqlite3_busy_timeout`: negative → 0, more
    /// than `Int32.max` milliseconds → `Int32.max`.
    var busyTimeoutMilliseconds: Int32 {
        let (seconds, attoseconds) = busyTimeout.components
        guard seconds >= 0, busyTimeout > .zero else { return 0 }
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        let milliseconds = seconds * 1000 + Int64((Double(attoseconds) / 1e15).rounded())
        return Int32(min(milliseconds, Int64(Int32.max)))
    }

    /// ``busyTimeout`` in seconds, for waits measured with `Date` (siblings, the export's lock).
    var busyTimeoutSeconds: Double {
        let (seconds, attoseconds) = busyTimeout.components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}

/// SQLite's journal modes (`PRAGMA journal_mode`).
public enum JournalMode: String, Sendable, Hashable, CaseIterable {
    /// Write-ahead log: readers and one writer run concurrently; the pool of
    /// ``DatabaseManager/readSync(_:)`` is used.
    case wal = "WAL"
    /// Rollback journal, deleted after each transaction (SQLite's default).
    case delete = "DELETE"
    /// Rollback journal, truncated after each transaction.
    case truncate = "TRUNCATE"
    /// Rollback journal, its header zeroed after each transaction.
    case persist = "PERSIST"
}
