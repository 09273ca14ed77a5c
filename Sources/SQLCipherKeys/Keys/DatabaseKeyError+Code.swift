// MARK: - Codes

extension DatabaseKeyError {
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

        /// The code of ``DatabaseKeyError/invalidKeyLength(_:)``.
        public static let invalidKeyLength = Self("invalidKeyLength")
        /// The code of ``DatabaseKeyError/randomSourceFailed(reason:)``.
        public static let randomSourceFailed = Self("randomSourceFailed")
    }

    /// Which failure this is.
    public var code: Code {
        switch kind {
        case .invalidKeyLength: .invalidKeyLength
        case .randomSourceFailed: .randomSourceFailed
        }
    }
}

extension DatabaseKeyError.Code {
    /// Whether `error` is a ``DatabaseKeyError`` with this code: `catch DatabaseKeyError.Code.x { … }`.
    @_disfavoredOverload
    public static func ~= (code: Self, error: any Error) -> Bool {
        (error as? DatabaseKeyError)?.code == code
    }

    /// Whether `error` has this code: `case .x:` in a `switch` over a ``DatabaseKeyError``.
    public static func ~= (code: Self, error: DatabaseKeyError) -> Bool {
        error.code == code
    }
}

extension DatabaseKeyError {
    /// Whether `error` is a ``DatabaseKeyError`` equal to `pattern`: `catch DatabaseKeyError.x(…) { … }`.
    @_disfavoredOverload
    public static func ~= (pattern: Self, error: any Error) -> Bool {
        (error as? DatabaseKeyError) == pattern
    }
}
