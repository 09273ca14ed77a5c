import Foundation

// MARK: - ExitPause

/// Test hook for the secrets-in-memory test: with `CIPHERDB_TEST_PAUSE_BEFORE_EXIT=PATH` in the
/// environment, cipherdb writes its exit status to PATH once the command is done and waits,
/// still running with all its memory, until the file is removed (the test reads
/// `/proc/<pid>/mem` meanwhile), then exits. Without the variable it does nothing.
enum ExitPause {
    static let variable = "CIPHERDB_TEST_PAUSE_BEFORE_EXIT"

    static func pauseIfAsked(_ status: Int32) {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty else { return }
        guard FileManager.default.createFile(atPath: path, contents: Data("\(status)\n".utf8)) else { return }
        // At most two minutes, so a test that dies never leaves cipherdb behind for long.
        for _ in 0..<12_000 where FileManager.default.fileExists(atPath: path) {
            Thread.sleep(forTimeInterval: 0.01)
        }
    }
}
