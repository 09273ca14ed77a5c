import Foundation
import SQLCipherCore

// MARK: - PasswordPolicy

/// Decides whether a new password may be used: checked when a database is created
/// (``DatabaseManager/create(password:)``, ``DatabaseTools/encryptPlaintextDatabase(at:to:password:configuration:progress:)-(_,_,String,_,_)``,
/// adopting a plaintext file on open) and when the password changes
/// (``DatabaseManager/rekey(to:options:progress:)``).
///
/// It is not checked when an existing database is opened: a short wrong password at login is
/// reported as ``DatabaseManagerError/incorrectPasswordOrSettings(path:keySlotFile:)``, and an app that
/// tightens its policy in an update does not lock out users whose password predates it. An
/// empty password is reported the same way, without being tried: SQLCipher treats an empty key
/// as "no encryption", so no encrypted database has one.
///
/// The default is the original SQLCipherManager's rule (`+passwordIsValid:`): not blank after
/// trimming whitespace (here: and newlines).
public struct PasswordPolicy: Sendable {
    private let rule: @Sendable (String) -> String?
    /// `true` for ``default``: only the blank check, which needs no `String` of an ASCII password.
    let checksOnlyBlank: Bool

    /// A policy from a rule that returns `nil` for a valid password, or the reason it is not.
    public init(_ rule: @escaping @Sendable (String) -> String?) {
        self.init(rule, checksOnlyBlank: false)
    }

    private init(_ rule: @escaping @Sendable (String) -> String?, checksOnlyBlank: Bool) {
        self.rule = rule
        self.checksOnlyBlank = checksOnlyBlank
    }

    /// The reason the password is invalid, or `nil` when it is valid.
    public func reasonToReject(_ password: String) -> String? {
        Self.blankReason(password) ?? rule(password)
    }

    /// The rule every policy starts with: not blank.
    static func blankReason(_ password: String) -> String? {
        // A scan, not a trimmed copy: a copy of the password would be left in memory unwiped.
        password.unicodeScalars.allSatisfy { CharacterSet.whitespacesAndNewlines.contains($0) } ? "it is empty or only whitespace" : nil
    }

    /// `true` when the policy accepts the password.
    public func accepts(_ password: String) -> Bool { reasonToReject(password) == nil }

    /// Throws ``DatabaseManagerError/invalidPassword(reason:)`` when the policy rejects it.
    public func validate(_ password: String) throws {
        if let reason = reasonToReject(password) { throw DatabaseManagerError.invalidPassword(reason: reason) }
    }

    // MARK: - Policies

    /// Not blank after trimming whitespace and newlines (the original's rule).
    public static let `default` = PasswordPolicy({ _ in nil }, checksOnlyBlank: true)

    /// Not blank, and at least `count` characters (grapheme clusters).
    public static func minimumLength(_ count: Int) -> PasswordPolicy {
        PasswordPolicy { $0.count < count ? "it must have at least \(count) characters" : nil }
    }

    /// Not blank, and accepted by a custom rule that returns the reason it rejects a password.
    public static func custom(_ rule: @escaping @Sendable (String) -> String?) -> PasswordPolicy {
        PasswordPolicy(rule)
    }
}
