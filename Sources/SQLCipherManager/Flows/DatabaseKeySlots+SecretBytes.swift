import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Key-slot passwords in SecretBytes

extension DatabaseKeySlots {
    /// `add(password: String, label:)` with the new password's UTF-8 bytes in ``SecretBytes``:
    /// a program that reads the password straight into one never makes a `String` of it (an
    /// ASCII password is NFC already; any other is normalised through a `String`).
    ///
    /// - Returns: the new slot.
    @discardableResult
    public func add(password: SecretBytes, label: String = "password") throws -> KeySlot {
        try manager.addPasswordFlow(password.normalizedPassword(), label: label)
    }

    /// `change(password: String, to: String)` with both passwords' UTF-8 bytes in
    /// ``SecretBytes`` (a recovery key is accepted as `old` too, as at an open).
    public func change(password old: SecretBytes, to new: SecretBytes) throws {
        try manager.changePasswordFlow(from: old.normalizedPassword(), to: new.normalizedPassword())
    }

    /// `enable(password: String, label:progress:)` with the database's password's UTF-8 bytes
    /// in ``SecretBytes``.
    public func enable(password: SecretBytes, label: String = "password", progress: ((Double) -> Void)? = nil) throws {
        try manager.convertToKeySlotsFlow(password: password.normalizedPassword(), label: label, progress: progress)
    }

    /// `exportDataKey(password: String)` with the password's (or recovery key's) UTF-8 bytes
    /// in ``SecretBytes``.
    public func exportDataKey(password: SecretBytes) throws -> Data {
        try manager.exportDataKeyFlow(UnlockSecret.typed(password.normalizedPassword()))
    }
}
