import Foundation

// MARK: - PasswordPolicy

/// Decides whether a new password may be used: checked when a database is created
/// (``DatabaseManager/create(password:)``, ``DatabaseTools/encryptPlaintextDatabase(at:to:password:configuration:progress:)``,
/// adopting a plaintext file on open) and when the password changes
/// (``DatabaseManager/rekey(password:options:progress:)``).
///
/// It is not checked when an existing database is opened: a short wrong password at login is
/// reported as ``DatabaseManagerError/incorrectPasswordOrSettings(path:)``, and an app that
/// tightens its policy in an update does not lock out users whose password predates it. Only
/// a blank password is refused on open too (``DatabaseManagerError/invalidPassword(reason:)``),
/// as no database can have one: SQLCipher treats an empty key as "no encryption".
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
        Self.blankReason(password) ?? rule(password)
    }

    /// The rule every policy starts with, and the only one applied when opening: not blank.
    static func blankReason(_ password: String) -> String? {
        password.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ? "it is empty or only whitespace" : nil
    }

    /// Throws ``DatabaseManagerError/invalidPassword(reason:)`` for a blank password, whatever the
    /// policy: the check made when opening an existing database.
    static func validateForOpening(_ password: String) throws {
        if let reason = blankReason(password) { throw DatabaseManagerError.invalidPassword(reason: reason) }
    }

    /// `true` when the policy accepts the password.
    public func accepts(_ password: String) -> Bool { reasonToReject(password) == nil }

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
