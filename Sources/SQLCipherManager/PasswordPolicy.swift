import Foundation

// MARK: - PasswordPolicy

/// Decides whether a password may be used to create, open or rekey a database.
///
/// The default is the original SQLCipherManager's rule (`+passwordIsValid:`): not blank after
/// trimming whitespace (here: and newlines).
public struct PasswordPolicy: Sendable {
    private let rule: @Sendable (String) -> String?

    /// A policy from a rule that returns `nil` for a valid password, or the reason it is not.
    public init(_ rule: @escaping @Sendable (String) -> String?) {
        self.rule = rule
    }

    /// The reason the password is invalid, or `nil` when it is valid.
    public func reasonToReject(_ password: String) -> String? {
        if password.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return "it is empty or only whitespace"
        }
        return rule(password)
    }

    /// `true` when the policy accepts the password.
    public func isValid(_ password: String) -> Bool { reasonToReject(password) == nil }

    /// Throws ``DatabaseManagerError/invalidPassword(reason:)`` when the policy rejects it.
    public func validate(_ password: String) throws {
        if let reason = reasonToReject(password) { throw DatabaseManagerError.invalidPassword(reason: reason) }
    }

    // MARK: - Policies

    /// Not blank after trimming whitespace and newlines (the original's rule).
    public static let `default` = PasswordPolicy { _ in nil }

    /// Not blank, and at least `count` characters (grapheme clusters).
    public static func minimumLength(_ count: Int) -> PasswordPolicy {
        PasswordPolicy { $0.count < count ? "it must have at least \(count) characters" : nil }
    }

    /// Not blank, and accepted by a custom rule that returns the reason it rejects a password.
    public static func custom(_ rule: @escaping @Sendable (String) -> String?) -> PasswordPolicy {
        PasswordPolicy(rule)
    }
}
