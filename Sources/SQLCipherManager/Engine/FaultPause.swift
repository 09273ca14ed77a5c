import Foundation

// MARK: - FaultPause

/// The kill -9 tests' seam (debug builds only; nothing in a release build): with
/// `SCM_FAULT_PAUSE=<step>[,<step>…]:<file>` in the environment, a replace that reaches one of
/// those steps creates `file` and waits (up to 60 s) until it is removed, so that a test can kill the process at
/// that exact step, or let other processes act there, then let it go on.
///
/// The steps of a replace, in order: `checked` (the copy is verified, the readers are shut
/// out and no other program has the WAL database open; the old file is untouched), `journaled`
/// (the journal says phase `retire`; the old file is still untouched), `tombstoned` (WAL: the
/// header is overwritten and the `scm_replaced` entry committed, its page 1 in the `-wal` not yet
/// retired), `retired`
/// (the old file's header is overwritten; the copy is not yet renamed over it) and
/// `installed` (the copy is in place; the old file's schema is not yet replaced).
enum FaultPause {
    static func at(_ step: String) {
        #if DEBUG
            guard let value = ProcessInfo.processInfo.environment["SCM_FAULT_PAUSE"],
                let colon = value.firstIndex(of: ":"), value[..<colon].split(separator: ",").contains(Substring(step))
            else { return }
            let file = String(value[value.index(after: colon)...])
            try? FileSystem.createEmptyFile(file)
            let deadline = Date(timeIntervalSinceNow: 60)
            while FileManager.default.fileExists(atPath: file), Date() < deadline {
                Thread.sleep(forTimeInterval: 0.001)
            }
        #endif
    }
}
