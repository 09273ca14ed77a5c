import Foundation

// MARK: - MigrationIncompleteError

/// A migrator returned without setting `user_version` to its target.
public struct MigrationIncompleteError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The version the migrator left.
    public let reached: Int
    /// The version it should have reached.
    public let target: Int

    package init(reached: Int, target: Int) {
        self.reached = reached
        self.target = target
    }

    /// The ``description``, so that `localizedDescription` says what happened and what to do.
    public var errorDescription: String? { description }

    /// Which version the migrator left and which it should have reached.
    public var description: String {
        "the migrator returned at user_version \(reached) instead of its target \(target)"
    }
}
