import Foundation

// MARK: - TableRebuildError

/// ``Database/rebuildTable(_:_:)`` could not make the change. Nothing was changed: the table,
/// its rows, indexes and triggers are as they were.
public struct TableRebuildError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The table being rebuilt.
    public let table: String
    /// What stopped it, and what to do.
    public let reason: String

    /// Creates the error.
    public init(table: String, reason: String) {
        self.table = table
        self.reason = reason
    }

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// `cannot rebuild table note: <reason>; nothing was changed`.
    public var description: String { "cannot rebuild table \(table): \(reason); nothing was changed" }
}
