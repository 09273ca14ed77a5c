import Foundation
import TestSupport

// MARK: - Shell

/// Runs a tool with arguments and returns its exit status (`-1` when it cannot be started).
@discardableResult
func runTool(_ tool: String, _ arguments: [String]) -> Int32 {
    (try? runProcess(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments).status) ?? -1
}

/// What a finished process left.
struct ProcessOutput {
    let status: Int32
    let stdout: String
    let stderr: String
}

/// Runs `executable` with `input` on its standard input and waits for it. Output goes through
/// temporary files, so a chatty process never blocks on a full pipe.
func runProcess(_ executable: URL, _ arguments: [String], input: Data = Data()) throws -> ProcessOutput {
    let dir = TemporaryDirectory()
    let files = ["stdin", "stdout", "stderr"].map { dir.file($0) }
    try input.write(to: files[0])
    for file in files.dropFirst() { try Data().write(to: file) }
    let handles = try [FileHandle(forReadingFrom: files[0])] + files.dropFirst().map { try FileHandle(forWritingTo: $0) }
    defer { for handle in handles { try? handle.close() } }
    let process = ChildProcess()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = handles[0]
    process.standardOutput = handles[1]
    process.standardError = handles[2]
    try process.run()
    process.waitUntilExit()
    let text = files.dropFirst().map { String(decoding: Fixture.bytes($0), as: UTF8.self) }
    return ProcessOutput(status: process.terminationStatus, stdout: text[0], stderr: text[1])
}

// MARK: - Read-only files and directories

/// Makes a file or directory unwritable in a way that also stops root: `chattr +i` (immutable) as
/// root, `chmod a-w` otherwise.
enum ReadOnly {
    static let isRoot = getuid() == 0

    /// `true` when this machine can make a path read-only for this process (root needs
    /// `chattr` and a file system with the immutable flag, such as ext4).
    static let isSupported: Bool = {
        guard isRoot else { return true }
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("scm-chattr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: probe.path, contents: Data())
        defer { try? FileManager.default.removeItem(at: probe) }
        guard runTool("chattr", ["+i", probe.path]) == 0 else { return false }
        let writable = access(probe.path, W_OK) == 0
        runTool("chattr", ["-i", probe.path])
        return !writable
    }()

    /// Runs `body` while `url` is read-only.
    static func whileReadOnly<T>(_ url: URL, _ body: () throws -> T) rethrows -> T {
        makeReadOnly(url)
        defer { makeWritable(url) }
        return try body()
    }

    /// Makes `url` read-only until ``makeWritable(_:)``.
    static func makeReadOnly(_ url: URL) {
        if isRoot { runTool("chattr", ["+i", url.path]) } else { runTool("chmod", ["a-w", url.path]) }
    }

    /// Undoes ``makeReadOnly(_:)``.
    static func makeWritable(_ url: URL) {
        if isRoot { runTool("chattr", ["-i", url.path]) } else { runTool("chmod", ["u+w", url.path]) }
    }
}

// MARK: - A small disk

/// A tmpfs of a few hundred kilobytes mounted on a fresh directory (root only), to run out of space.
final class SmallDisk: @unchecked Sendable {
    static let isSupported: Bool = {
        guard ReadOnly.isRoot else { return false }
        return (try? SmallDisk(kilobytes: 64)) != nil
    }()

    let url: URL

    init(kilobytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("scm-disk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        guard runTool("mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k", "tmpfs", url.path]) == 0 else {
            try? FileManager.default.removeItem(at: url)
            throw TestFailure()
        }
    }

    func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    /// Fills the disk with a file of zeros until not one more byte fits.
    func fill() {
        let fd = open(file("filler").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        defer { close(fd) }
        let zeros = [UInt8](repeating: 0, count: 4096)
        var size = zeros.count
        while size > 0 {
            let written = zeros.withUnsafeBytes { write(fd, $0.baseAddress, size) }
            if written < 0 { size /= 2 }  // ENOSPC: smaller writes, down to one byte
        }
    }

    /// Removes what ``fill()`` wrote.
    func unfill() { try? FileManager.default.removeItem(at: file("filler")) }

    deinit {
        runTool("umount", [url.path])
        try? FileManager.default.removeItem(at: url)
    }
}
