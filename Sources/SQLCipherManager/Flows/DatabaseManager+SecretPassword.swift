import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - Passwords in SecretBytes

extension DatabaseManager {
    /// ``open(_:)`` with a password in ``SecretBytes``, under the manager's lock.
    func openFlow(passwordBytes password: SecretBytes) throws {
        if password.count == 0 { try refuseEmptyPassword() }
        let typed = password.normalizedPassword()
        if let path = databasePath, willAdoptPlaintextDatabase(path: path) {
            try configuration.passwordPolicy.validate(typed)
        }
        let slotKey = try keySlotKey(UnlockSecret.typed(typed), path: requirePath(), fallsBack: false)
        try openFlow(key: slotKey ?? typed, creating: false, slotPassword: slotKey == nil ? nil : typed)
    }

    /// `isCurrentPassword(_: String)` with the password's UTF-8 bytes in ``SecretBytes``.
    public func isCurrentPassword(_ password: SecretBytes) -> Bool {
        locked {
            guard database != nil, let cachedKey else { return false }
            let typed = password.normalizedPassword()
            guard cachedKey.isRawKey else { return typed.isEqual(to: cachedKey) }
            guard let passwordDigest else { return false }
            return PasswordDigest.of(typed).isEqual(to: passwordDigest)
        }
    }
}

extension SecretBytes {
    /// `true` when every byte is ASCII.
    var hasOnlyASCIIBytes: Bool { withBytes { $0.allSatisfy { $0 < 0x80 } } }

    /// The password's bytes in NFC: ASCII is its own NFC form, so it is used as is, with no
    /// copy; any other password goes through a `String` (a copy the runtime does not wipe).
    func normalizedPassword() -> SecretBytes {
        guard !isRawKey, !hasOnlyASCIIBytes else { return self }
        return SecretBytes(password: withBytes { String(decoding: $0, as: UTF8.self) })
    }

    /// The password as a `String`, for a rule that needs one (a copy that is not wiped).
    var passwordText: String { withBytes { String(decoding: $0, as: UTF8.self) } }
}

extension UnlockSecret {
    /// What a typed password may be (`typed(_:)`), from its bytes: the password,
    /// and a recovery key when the bytes have that form (only then is a `String` made of them).
    static func typed(_ password: SecretBytes) -> [UnlockSecret] {
        var secrets: [UnlockSecret] = [.password(password)]
        let looksLikeRecoveryKey = password.withBytes { RecoveryKey.mayBeRecoveryKey($0) }
        if looksLikeRecoveryKey, let recovery = try? RecoveryKey.secret(parsing: password.passwordText) {
            secrets.append(.recovery(recovery))
        }
        return secrets
    }
}

extension PasswordPolicy {
    /// `validate(_:)` for a password in ``SecretBytes``. The default policy (not
    /// blank) checks an ASCII password's bytes in place; any other policy or password needs a
    /// `String` of it, which is not wiped.
    func validate(_ password: SecretBytes) throws {
        if checksOnlyBlank, password.hasOnlyASCIIBytes {
            let blank = password.withBytes { $0.allSatisfy { [0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D].contains($0) } }
            if blank { throw DatabaseManagerError.invalidPassword(reason: Self.blankReason("")!) }
            return
        }
        try validate(password.passwordText)
    }
}

extension DatabaseTools {
    /// `encryptPlaintextDatabase(at:to:password: String, …)` with the password's UTF-8 bytes in
    /// ``SecretBytes``.
    public static func encryptPlaintextDatabase(
        at source: URL, to destination: URL? = nil, password: SecretBytes,
        configuration: DatabaseConfiguration = DatabaseConfiguration(), progress: ((Double) -> Void)? = nil
    ) throws {
        let typed = password.normalizedPassword()
        try configuration.passwordPolicy.validate(typed)
        try EncryptFlow(
            source: source.path, destination: destination?.path, key: typed, configuration: configuration
        ).run(progress: progress)
    }
}
