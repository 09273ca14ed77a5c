import Foundation
import TerminalIO

// MARK: - PasswordFile

/// `--password-file PATH`: the first line of a regular file only the owner can access (as ssh
/// demands of a private key), or of a pipe (`<(…)`, a FIFO, `/dev/stdin`), read up to its first
/// newline so a writer that stays open does not block it.
enum PasswordFile {
    /// A first line longer than this is not a password (`/dev/zero`, a database given by mistake).
    static let maximumLength = 1 << 20

    /// The first line of the file at `path`, without its line ending, decoded strictly as UTF-8.
    static func firstLine(of path: String, option: Option) throws -> String {
        let cannotRead = Failure(
            .failure, "Cannot read the password file \(path) (\(option.rawValue)). Check the path and its permissions.")
        guard let handle = FileHandle(forReadingAtPath: path) else { throw cannotRead }
        defer { try? handle.close() }
        try checkAccess(handle.fileDescriptor, path: path, option: option)
        var bytes: [UInt8] = []
        do {
            while bytes.count <= maximumLength, let chunk = try handle.read(upToCount: 4096), !chunk.isEmpty {
                bytes += chunk
                if chunk.contains(UInt8(ascii: "\n")) { break }
            }
        } catch {
            throw cannotRead  // a folder (EISDIR), or an I/O error
        }
        let line = Array(bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 1, omittingEmptySubsequences: false)[0])
        guard line.count <= maximumLength else {
            throw Failure(
                .usage,
                "The first line of \(path) (\(option.rawValue)) is longer than 1 MiB: it is not a password "
                    + "file. Check the path.")
        }
        return try PasswordText.decode(
            Console.stripLineEnding(line),
            from: "the password file \(path) (\(option.rawValue))")
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
