import Foundation

// MARK: - DatabaseKeyError

/// Why a ``DatabaseKey`` could not be made: its bytes are not 32, or the system's secure random
/// source failed. None of them carries key bytes. A ``DatabaseManager`` call that makes a key
/// throws the ``DatabaseManagerError`` of the same name instead.
///
/// A struct with a ``Code``, like ``KeyStoreError``, so that a later version can add a failure
/// without breaking an app's `switch`: match `error.code`, or
/// `catch DatabaseKeyError.Code.invalidKeyLength { … }`.
public struct DatabaseKeyError: Error, Sendable, Equatable, CustomStringConvertible, LocalizedError {
    /// The failure and its details, one case per failure; the library switches over it, an app
    /// over ``code``.
    package let kind: Kind

    /// The error of `kind`.
    init(_ kind: Kind) {
        self.kind = kind
    }

    /// One case per failure, with the details its message needs; each has a static factory of
    /// the same name and a ``Code``, which the switch in ``code`` enforces.
    package enum Kind: Sendable, Equatable {
        case invalidKeyLength(Int)
        case randomSourceFailed(reason: String)
    }

    /// A raw key must be exactly 32 bytes; `count` is how many were given.
    public static func invalidKeyLength(_ count: Int) -> Self {
        Self(.invalidKeyLength(count))
    }

    /// The operating system's secure random source failed (`getentropy`); no key was made.
    public static func randomSourceFailed(reason: String) -> Self {
        Self(.randomSourceFailed(reason: reason))
    }

    /// The ``description``, so that `localizedDescription` says what to do.
    public var errorDescription: String? { description }

    /// What went wrong and what to do next; never a key.
    public var description: String {
        switch kind {
        case .invalidKeyLength(let count):
            return "A raw key must be exactly 32 bytes; this one has \(count). Pass 32 random bytes."
        case .randomSourceFailed(let reason):
            return "The system's secure random source failed (\(reason)), so no key was generated. Try again."
        }
    }
}
