import SQLCipherCore

// MARK: - Codes

extension DatabaseManagerError {
    /// Which failure an error is, without its details: one static member per failure, to match
    /// in a `switch` or a `catch`.
    ///
    /// Not an enum, so that a later version can add a code without breaking an app: a `switch`
    /// over codes needs a `default`, which is where a new code goes.
    ///
    /// ```swift
    /// catch DatabaseManagerError.Code.incorrectPasswordOrSettings { … }
    /// ```
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String

        private init(_ name: String) {
            self.name = name
        }

        /// The code's name, as its static member is spelled (`"notOpen"`).
        public var description: String { name }

        /// The code of ``DatabaseManagerError/notConfigured``.
        public static let notConfigured = Self("notConfigured")
        /// The code of ``DatabaseManagerError/invalidPassword(reason:)``.
        public static let invalidPassword = Self("invalidPassword")
        /// The code of ``DatabaseManagerError/invalidKeyLength(_:)``.
        public static let invalidKeyLength = Self("invalidKeyLength")
        /// The code of ``DatabaseManagerError/invalidOption(name:reason:)``.
        public static let invalidOption = Self("invalidOption")
        /// The code of ``DatabaseManagerError/unsupportedOption(name:requires:linked:)``.
        public static let unsupportedOption = Self("unsupportedOption")
        /// The code of ``DatabaseManagerError/sqlcipherNotLinked``.
        public static let sqlcipherNotLinked = Self("sqlcipherNotLinked")
        /// The code of ``DatabaseManagerError/encryptionNotActive(path:)``.
        public static let encryptionNotActive = Self("encryptionNotActive")
        /// The code of ``DatabaseManagerError/alreadyOpen``.
        public static let alreadyOpen = Self("alreadyOpen")
        /// The code of ``DatabaseManagerError/notOpen``.
        public static let notOpen = Self("notOpen")
        /// The code of ``DatabaseManagerError/fileNotFound(path:)``.
        public static let fileNotFound = Self("fileNotFound")
        /// The code of ``DatabaseManagerError/fileAlreadyExists(path:)``.
        public static let fileAlreadyExists = Self("fileAlreadyExists")
        /// The code of ``DatabaseManagerError/isDirectory(path:)``.
        public static let isDirectory = Self("isDirectory")
        /// The code of ``DatabaseManagerError/parentDirectoryMissing(path:)``.
        public static let parentDirectoryMissing = Self("parentDirectoryMissing")
        /// The code of ``DatabaseManagerError/invalidPath(path:reason:)``.
        public static let invalidPath = Self("invalidPath")
        /// The code of ``DatabaseManagerError/plaintextDatabase(path:)``.
        public static let plaintextDatabase = Self("plaintextDatabase")
        /// The code of ``DatabaseManagerError/notPlaintextDatabase(path:)``.
        public static let notPlaintextDatabase = Self("notPlaintextDatabase")
        /// The code of ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)``.
        public static let incorrectPasswordOrSettings = Self("incorrectPasswordOrSettings")
        /// The code of ``DatabaseManagerError/incorrectKeyOrSettings(path:)``.
        public static let incorrectKeyOrSettings = Self("incorrectKeyOrSettings")
        /// The code of ``DatabaseManagerError/notADatabase(path:reason:)``.
        public static let notADatabase = Self("notADatabase")
        /// The code of ``DatabaseManagerError/corrupt(path:underlying:)``.
        public static let corrupt = Self("corrupt")
        /// The code of ``DatabaseManagerError/permissionDenied(path:underlying:)``.
        public static let permissionDenied = Self("permissionDenied")
        /// The code of ``DatabaseManagerError/notWritable(path:reason:)``.
        public static let notWritable = Self("notWritable")
        /// The code of ``DatabaseManagerError/diskFull(path:underlying:)``.
        public static let diskFull = Self("diskFull")
        /// The code of ``DatabaseManagerError/ioError(path:underlying:)``.
        public static let ioError = Self("ioError")
        /// The code of ``DatabaseManagerError/busy(path:underlying:)``.
        public static let busy = Self("busy")
        /// The code of ``DatabaseManagerError/noCachedKey``.
        public static let noCachedKey = Self("noCachedKey")
        /// The code of ``DatabaseManagerError/schemaVersionTooNew(found:supported:)``.
        public static let schemaVersionTooNew = Self("schemaVersionTooNew")
        /// The code of ``DatabaseManagerError/migrationFailed(version:lastGoodVersion:underlying:)``.
        public static let migrationFailed = Self("migrationFailed")
        /// The code of ``DatabaseManagerError/insufficientDiskSpace(path:needed:available:)``.
        public static let insufficientDiskSpace = Self("insufficientDiskSpace")
        /// The code of ``DatabaseManagerError/transactionInProgress``.
        public static let transactionInProgress = Self("transactionInProgress")
        /// The code of ``DatabaseManagerError/verificationFailed(path:reason:)``.
        public static let verificationFailed = Self("verificationFailed")
        /// The code of ``DatabaseManagerError/recoveryFailed(path:reason:)``.
        public static let recoveryFailed = Self("recoveryFailed")
        /// The code of ``DatabaseManagerError/operationInProgress(path:)``.
        public static let operationInProgress = Self("operationInProgress")
        /// The code of ``DatabaseManagerError/keyChanged(path:)``.
        public static let keyChanged = Self("keyChanged")
        /// The code of ``DatabaseManagerError/headerSaltUnusable(path:saltFile:problem:)``.
        public static let headerSaltUnusable = Self("headerSaltUnusable")
        /// The code of ``DatabaseManagerError/keyChangeInterrupted(path:opensWith:)``.
        public static let keyChangeInterrupted = Self("keyChangeInterrupted")
        /// The code of ``DatabaseManagerError/openElsewhere(path:processID:processName:)``.
        public static let openElsewhere = Self("openElsewhere")
        /// The code of ``DatabaseManagerError/foreignSidecar(path:sidecar:)``.
        public static let foreignSidecar = Self("foreignSidecar")
        /// The code of ``DatabaseManagerError/untrustedFile(path:reason:)``.
        public static let untrustedFile = Self("untrustedFile")
        /// The code of ``DatabaseManagerError/sqlite(_:)``.
        public static let sqlite = Self("sqlite")
        /// The code of ``DatabaseManagerError/keySlots(_:)``.
        public static let keySlots = Self("keySlots")
        /// The code of ``DatabaseManagerError/keyUnavailable(identifier:underlying:)``.
        public static let keyUnavailable = Self("keyUnavailable")
        /// The code of ``DatabaseManagerError/keyRefused(identifier:path:)``.
        public static let keyRefused = Self("keyRefused")
        /// The code of ``DatabaseManagerError/keyNotStored(identifier:underlying:)``.
        public static let keyNotStored = Self("keyNotStored")
        /// The code of ``DatabaseManagerError/randomSourceFailed(reason:)``.
        public static let randomSourceFailed = Self("randomSourceFailed")
        /// The code of ``DatabaseManagerError/reentrantCall(_:inside:)``.
        public static let reentrantCall = Self("reentrantCall")
    }

    /// Which failure this is; `switch error.code { case .notOpen: … default: … }`.
    public var code: Code {
        switch kind {
        case .notConfigured: .notConfigured
        case .invalidPassword: .invalidPassword
        case .invalidKeyLength: .invalidKeyLength
        case .invalidOption: .invalidOption
        case .unsupportedOption: .unsupportedOption
        case .sqlcipherNotLinked: .sqlcipherNotLinked
        case .encryptionNotActive: .encryptionNotActive
        case .alreadyOpen: .alreadyOpen
        case .notOpen: .notOpen
        case .fileNotFound: .fileNotFound
        case .fileAlreadyExists: .fileAlreadyExists
        case .isDirectory: .isDirectory
        case .parentDirectoryMissing: .parentDirectoryMissing
        case .invalidPath: .invalidPath
        case .plaintextDatabase: .plaintextDatabase
        case .notPlaintextDatabase: .notPlaintextDatabase
        case .incorrectPasswordOrSettings: .incorrectPasswordOrSettings
        case .incorrectKeyOrSettings: .incorrectKeyOrSettings
        case .notADatabase: .notADatabase
        case .corrupt: .corrupt
        case .permissionDenied: .permissionDenied
        case .notWritable: .notWritable
        case .diskFull: .diskFull
        case .ioError: .ioError
        case .busy: .busy
        case .noCachedKey: .noCachedKey
        case .schemaVersionTooNew: .schemaVersionTooNew
        case .migrationFailed: .migrationFailed
        case .insufficientDiskSpace: .insufficientDiskSpace
        case .transactionInProgress: .transactionInProgress
        case .verificationFailed: .verificationFailed
        case .recoveryFailed: .recoveryFailed
        case .operationInProgress: .operationInProgress
        case .keyChanged: .keyChanged
        case .headerSaltUnusable: .headerSaltUnusable
        case .keyChangeInterrupted: .keyChangeInterrupted
        case .openElsewhere: .openElsewhere
        case .foreignSidecar: .foreignSidecar
        case .untrustedFile: .untrustedFile
        case .sqlite: .sqlite
        case .keySlots: .keySlots
        case .keyUnavailable: .keyUnavailable
        case .keyRefused: .keyRefused
        case .keyNotStored: .keyNotStored
        case .randomSourceFailed: .randomSourceFailed
        case .reentrantCall: .reentrantCall
        }
    }
}

extension DatabaseManagerError.Code {
    /// Whether `error` is a ``DatabaseManagerError`` with this code, so that
    /// `catch DatabaseManagerError.Code.busy { … }` catches every `busy` error, whatever its details.
    /// Disfavored, so that a `switch` over another type's values (`case .permissionDenied:` over
    /// an `Errno`) keeps that type's own `~=` rather than asking whether it is this error.
    @_disfavoredOverload
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? DatabaseManagerError)?.code == code
    }

    /// Whether `error` has this code: `case .busy:` in a `switch` over a ``DatabaseManagerError``.
    public static func ~= (code: Self, error: DatabaseManagerError) -> Bool {
        error.code == code
    }
}

extension DatabaseManagerError {
    /// Whether `error` is a ``DatabaseManagerError`` equal to `pattern`, so that
    /// `catch DatabaseManagerError.notOpen { … }` catches exactly that error.
    @_disfavoredOverload
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        (error as? DatabaseManagerError) == pattern
    }
}
