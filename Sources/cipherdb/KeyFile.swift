import Foundation
import SQLCipherManager

// MARK: - --key-file

/// `--key-file PATH` (and `--new-key-file PATH` for rekey): a raw 32-byte key (32 bytes, or 64
/// hexadecimal digits and an optional line end) instead of a password, read with the checks of
/// ``FileKeyStore`` — a file that is a symbolic link, belongs to another user or that group or
/// others may access is refused before a byte is read.
enum KeyFile {
    /// The key named by `option`, or `nil` when the option was not given.
    static func key(_ invocation: Invocation, _ option: Option = .keyFile) throws -> DatabaseKey? {
        guard let path = invocation.value(option) else { return nil }
        let password = option == .keyFile ? [Option.passwordEnv, .passwordFile] : [.newPasswordEnv, .newPasswordFile]
        if let other = password.first(where: invocation.has) {
            throw Failure.usage("\(option.rawValue) and \(other.rawValue) both give the key. Use one.")
        }
        do {
            return try FileKeyStore.readKeyFile(at: URL(fileURLWithPath: path))
        } catch {
            throw Failure(.failure, "Cannot use the key file \(path) (\(option.rawValue)): \(error)")
        }
    }

}
