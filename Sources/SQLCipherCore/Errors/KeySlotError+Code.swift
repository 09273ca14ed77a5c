// MARK: - Codes

extension KeySlotError {
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

        /// The code of ``KeySlotError/slotFileMissing(path:database:)``.
        public static let slotFileMissing = Self("slotFileMissing")
        /// The code of ``KeySlotError/slotFileDamaged(path:reason:)``.
        public static let slotFileDamaged = Self("slotFileDamaged")
        /// The code of ``KeySlotError/slotFileTampered(path:)``.
        public static let slotFileTampered = Self("slotFileTampered")
        /// The code of ``KeySlotError/slotFileMismatch(path:database:)``.
        public static let slotFileMismatch = Self("slotFileMismatch")
        /// The code of ``KeySlotError/slotFileOutdated(path:database:)``.
        public static let slotFileOutdated = Self("slotFileOutdated")
        /// The code of ``KeySlotError/slotFileNotAFile(path:kind:)``.
        public static let slotFileNotAFile = Self("slotFileNotAFile")
        /// The code of ``KeySlotError/slotLimitReached(reason:)``.
        public static let slotLimitReached = Self("slotLimitReached")
        /// The code of ``KeySlotError/notKeySlotDatabase(path:)``.
        public static let notKeySlotDatabase = Self("notKeySlotDatabase")
        /// The code of ``KeySlotError/keySlotDatabase(path:)``.
        public static let keySlotDatabase = Self("keySlotDatabase")
        /// The code of ``KeySlotError/backupNeedsItsOwnKey(path:)``.
        public static let backupNeedsItsOwnKey = Self("backupNeedsItsOwnKey")
        /// The code of ``KeySlotError/lastSlot(id:)``.
        public static let lastSlot = Self("lastSlot")
        /// The code of ``KeySlotError/slotNotFound(id:)``.
        public static let slotNotFound = Self("slotNotFound")
        /// The code of ``KeySlotError/weakKeyDerivation(_:minimum:)``.
        public static let weakKeyDerivation = Self("weakKeyDerivation")
        /// The code of ``KeySlotError/invalidKeyDerivation(_:)``.
        public static let invalidKeyDerivation = Self("invalidKeyDerivation")
        /// The code of ``KeySlotError/invalidRecoveryKey(reason:)``.
        public static let invalidRecoveryKey = Self("invalidRecoveryKey")
    }

    /// Which failure this is.
    public var code: Code {
        switch kind {
        case .slotFileMissing: .slotFileMissing
        case .slotFileDamaged: .slotFileDamaged
        case .slotFileTampered: .slotFileTampered
        case .slotFileMismatch: .slotFileMismatch
        case .slotFileOutdated: .slotFileOutdated
        case .slotFileNotAFile: .slotFileNotAFile
        case .slotLimitReached: .slotLimitReached
        case .notKeySlotDatabase: .notKeySlotDatabase
        case .keySlotDatabase: .keySlotDatabase
        case .backupNeedsItsOwnKey: .backupNeedsItsOwnKey
        case .lastSlot: .lastSlot
        case .slotNotFound: .slotNotFound
        case .weakKeyDerivation: .weakKeyDerivation
        case .invalidKeyDerivation: .invalidKeyDerivation
        case .invalidRecoveryKey: .invalidRecoveryKey
        }
    }
}

extension KeySlotError.Code {
    /// Whether `error` is a ``KeySlotError`` with this code, bare or inside a
    /// ``DatabaseManagerError`` (which is how a ``DatabaseManager`` throws it):
    /// `catch KeySlotError.Code.lastSlot { … }`.
    @_disfavoredOverload
    public static func ~= (code: Self, error: any Error) -> Bool {
        KeySlotError(error)?.code == code
    }

    /// Whether `error` has this code: `case .x:` in a `switch` over a ``KeySlotError``.
    public static func ~= (code: Self, error: KeySlotError) -> Bool {
        error.code == code
    }
}

extension KeySlotError {
    /// Whether `error` is a ``KeySlotError`` equal to `pattern`, bare or inside a
    /// ``DatabaseManagerError``: `catch KeySlotError.slotNotFound(id: 3) { … }`.
    @_disfavoredOverload
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        KeySlotError(error) == pattern
    }

    /// `error` itself, or the key-slot error a ``DatabaseManagerError`` holds.
    private init?(_ error: any Error) {
        guard let found = error as? KeySlotError ?? (error as? any KeySlotErrorCarrier)?.keySlotError else { return nil }
        self = found
    }
}

/// An error of a layer above that can hold a ``KeySlotError`` (``DatabaseManagerError``), so that
/// a key-slot code matches it too.
package protocol KeySlotErrorCarrier: Error {
    /// The key-slot error held, if any.
    var keySlotError: KeySlotError? { get }
}
