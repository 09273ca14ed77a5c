// MARK: - Codes

extension KeyStoreError {
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

        /// The code of ``KeyStoreError/invalidIdentifier(_:reason:)``.
        public static let invalidIdentifier = Self("invalidIdentifier")
        /// The code of ``KeyStoreError/insecurePermissions(path:mode:)``.
        public static let insecurePermissions = Self("insecurePermissions")
        /// The code of ``KeyStoreError/wrongOwner(path:owner:expected:)``.
        public static let wrongOwner = Self("wrongOwner")
        /// The code of ``KeyStoreError/notARegularFile(path:)``.
        public static let notARegularFile = Self("notARegularFile")
        /// The code of ``KeyStoreError/permissionDenied(path:reason:)``.
        public static let permissionDenied = Self("permissionDenied")
        /// The code of ``KeyStoreError/malformedKey(location:reason:)``.
        public static let malformedKey = Self("malformedKey")
        /// The code of ``KeyStoreError/locked(store:reason:)``.
        public static let locked = Self("locked")
        /// The code of ``KeyStoreError/serviceUnavailable(store:reason:)``.
        public static let serviceUnavailable = Self("serviceUnavailable")
        /// The code of ``KeyStoreError/alreadyStored(identifier:store:)``.
        public static let alreadyStored = Self("alreadyStored")
        /// The code of ``KeyStoreError/failed(location:reason:)``.
        public static let failed = Self("failed")
        /// The code of ``KeyStoreError/notStored(identifier:store:)``.
        public static let notStored = Self("notStored")
    }

    /// Which failure this is.
    public var code: Code {
        switch kind {
        case .invalidIdentifier: .invalidIdentifier
        case .insecurePermissions: .insecurePermissions
        case .wrongOwner: .wrongOwner
        case .notARegularFile: .notARegularFile
        case .permissionDenied: .permissionDenied
        case .malformedKey: .malformedKey
        case .locked: .locked
        case .serviceUnavailable: .serviceUnavailable
        case .alreadyStored: .alreadyStored
        case .failed: .failed
        case .notStored: .notStored
        }
    }
}

extension KeyStoreError.Code {
    /// Whether `error` is a ``KeyStoreError`` with this code: `catch KeyStoreError.Code.x { … }`.
    @_disfavoredOverload
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? KeyStoreError)?.code == code
    }

    /// Whether `error` has this code: `case .x:` in a `switch` over a ``KeyStoreError``.
    public static func ~= (code: Self, error: KeyStoreError) -> Bool {
        error.code == code
    }
}

extension KeyStoreError {
    /// Whether `error` is a ``KeyStoreError`` equal to `pattern`: `catch KeyStoreError.x(…) { … }`.
    @_disfavoredOverload
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        (error as? KeyStoreError) == pattern
    }
}
