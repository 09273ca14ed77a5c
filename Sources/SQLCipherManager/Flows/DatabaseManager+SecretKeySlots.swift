import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Key-slot passwords in SecretBytes

extension DatabaseManager {
    /// `createWithKeySlots(password: String, label:)` with the password's UTF-8 bytes in
    /// ``SecretBytes``: a program that reads the password straight into one never makes a
    /// `String` of it (an ASCII password is NFC already; any other is normalised through a
    /// `String`).
    public func createWithKeySlots(password: SecretBytes, label: String = "password") throws {
        try createWithKeySlotsFlow(password: password.normalizedPassword(), label: label)
    }

    /// `changePassword(from: String, to: String)` with both passwords' UTF-8 bytes in
    /// ``SecretBytes`` (a recovery key is accepted as `old` too, as at an open).
    public func changePassword(from old: SecretBytes, to new: SecretBytes) throws {
        try changePasswordFlow(from: old.normalizedPassword(), to: new.normalizedPassword())
    }

    /// `addPassword(_: String, label:)` with the new password's UTF-8 bytes in ``SecretBytes``.
    ///
    /// - Returns: the new slot.
    @discardableResult
    public func addPassword(_ password: SecretBytes, label: String = "password") throws -> KeySlot {
        try addPasswordFlow(password.normalizedPassword(), label: label)
    }

    /// `convertToKeySlots(password: String, label:progress:)` with the database's password's
    /// UTF-8 bytes in ``SecretBytes``.
    public func convertToKeySlots(password: SecretBytes, label: String = "password", progress: ((Double) -> Void)? = nil) throws {
        try convertToKeySlotsFlow(password: password.normalizedPassword(), label: label, progress: progress)
    }

    /// `exportDataKey(password: String)` with the password's (or recovery key's) UTF-8 bytes in
    /// ``SecretBytes``.
    public func exportDataKey(password: SecretBytes) throws -> Data {
        try exportDataKeyFlow(UnlockSecret.typed(password.normalizedPassword()))
    }
}
