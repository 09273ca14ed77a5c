import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - PasswordFile

/// `--password-file PATH`: the first line of a regular file only the owner can access (as ssh
/// demands of a private key), or of a pipe (`<(…)`, a FIFO, `/dev/stdin`), read up to its first
/// newline so a writer that stays open does not block it — straight into `SecretBytes`, capped
/// at ``SecretInput/maximumLength`` like every other source.
enum PasswordFile {
    /// The first line of the file at `path`, without its line ending, checked as UTF-8.
    static func firstLine(of path: String, option: Option) throws -> SecretBytes {
        let cannotRead = Failure(
            .failure, "Cannot read the password file \(path) (\(option.rawValue)). Check the path and its permissions.")
        guard let handle = FileHandle(forReadingAtPath: path) else { throw cannotRead }
        defer { try? handle.close() }
        try checkAccess(handle.fileDescriptor, path: path, option: option)
        let source = "the password file \(path) (\(option.rawValue))"
        let line = try PasswordText.line(from: source, failure: cannotRead) {
            SecretInput.readLine(into: $0, from: handle.fileDescriptor)
        }
        return line ?? SecretBytes(zeroed: 0)
    }

    /// Refuses a regular file that its group or other users may read or write (`fstat` on the
    /// open file, so the checked file is the one read). Pipes and terminals are not checked.
    private static func checkAccess(_ descriptor: Int32, path: String, option: Option) throws {
        guard let mode = POSIXTerminal.regularFilePermissions(ofDescriptor: descriptor), mode & 0o077 != 0 else { return }
        throw Failure(
            .usage,
            "The password file \(path) (\(option.rawValue)) is accessible by other users (mode "
                + "\(String(mode, radix: 8))), so they can read the password. Restrict it with `chmod 600 \(path)`, then run "
                + "the command again.")
    }
}
