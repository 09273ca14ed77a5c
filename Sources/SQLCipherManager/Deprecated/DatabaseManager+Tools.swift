import Foundation

// MARK: - Deprecated spellings (removed in the next release)

extension DatabaseManager {
    /// Deprecated: use ``DatabaseTools/linkedSQLCipherVersion`` (the instance-free functions
    /// are all in ``DatabaseTools``).
    @available(*, deprecated, message: "use DatabaseTools.linkedSQLCipherVersion")
    public static var linkedSQLCipherVersion: SQLCipherVersion? { linkedCipherVersion }

    /// Deprecated: use ``DatabaseTools/linkedSQLiteVersion``.
    @available(*, deprecated, message: "use DatabaseTools.linkedSQLiteVersion")
    public static var linkedSQLiteVersion: String? { linkedSQLiteLibraryVersion }

    /// Deprecated: use ``DatabaseTools/knownCipherSettings``.
    @available(*, deprecated, message: "use DatabaseTools.knownCipherSettings")
    public static var knownCipherSettings: [CipherSettingsCandidate] { DatabaseTools.knownCipherSettings }

    /// Deprecated: use ``DatabaseTools/inspectFile(at:)``.
    @available(*, deprecated, message: "use DatabaseTools.inspectFile(at:)")
    public static func inspectFile(at url: URL) -> DatabaseFileInfo { DatabaseTools.inspectFile(at: url) }

    /// Deprecated: use ``DatabaseTools/inspectFile(at:)`` with `URL(fileURLWithPath: path)`
    /// (a relative path stays relative in its messages). Inspects the path as given.
    @available(*, deprecated, message: "use DatabaseTools.inspectFile(at: URL(fileURLWithPath: path))")
    public static func inspectFile(atPath path: String) -> DatabaseFileInfo { DatabaseFileInfo(path: path) }

    /// Deprecated: use ``DatabaseTools/recoverInterruptedOperation(at:)``.
    @available(*, deprecated, message: "use DatabaseTools.recoverInterruptedOperation(at:)")
    @discardableResult
    public static func recoverInterruptedOperation(at url: URL) throws -> RecoveryOutcome {
        try DatabaseTools.recoverInterruptedOperation(at: url)
    }

    /// Deprecated: use ``DatabaseTools/encryptPlaintextDatabase(at:to:password:configuration:progress:)``.
    @available(*, deprecated, message: "use DatabaseTools.encryptPlaintextDatabase(at:to:password:configuration:progress:)")
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, password: String,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try DatabaseTools.encryptPlaintextDatabase(
            at: source, to: destination, password: password, configuration: configuration, progress: progress)
    }

    /// Deprecated: use ``DatabaseTools/encryptPlaintextDatabase(at:to:rawKey:configuration:progress:)``.
    @available(*, deprecated, message: "use DatabaseTools.encryptPlaintextDatabase(at:to:rawKey:configuration:progress:)")
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, rawKey: Data,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try DatabaseTools.encryptPlaintextDatabase(
            at: source, to: destination, rawKey: rawKey, configuration: configuration, progress: progress)
    }

    /// Deprecated: use ``DatabaseTools/encryptPlaintextDatabase(at:to:key:configuration:progress:)``.
    @available(*, deprecated, message: "use DatabaseTools.encryptPlaintextDatabase(at:to:key:configuration:progress:)")
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, key: DatabaseKey,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        try DatabaseTools.encryptPlaintextDatabase(
            at: source, to: destination, key: key, configuration: configuration, progress: progress)
    }

    // MARK: Cipher information

    /// Deprecated: use ``cipherInfo`` (its ``CipherInfo/version``, typed). The raw
    /// `PRAGMA cipher_version` of the open database, `nil` when none is open.
    @available(*, deprecated, message: "use cipherInfo.version")
    public var cipherVersion: String? {
        try? withDatabase { try $0.scalar(String.self, "PRAGMA cipher_version") }
    }

    /// Deprecated: use ``cipherInfo`` (its ``CipherInfo/provider``). `PRAGMA cipher_provider`
    /// of the open database, `nil` when none is open.
    @available(*, deprecated, message: "use cipherInfo.provider")
    public var cipherProvider: String? {
        try? withDatabase { try $0.scalar(String.self, "PRAGMA cipher_provider") }
    }

    /// Deprecated: use ``cipherInfo`` (its ``CipherInfo/settings``).
    @available(*, deprecated, message: "use cipherInfo.settings")
    public func cipherSettings() throws -> CipherOptions {
        try withDatabase { try Self.cipherSettings(of: $0) }
    }
}
