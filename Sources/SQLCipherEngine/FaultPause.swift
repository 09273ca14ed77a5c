import Foundation
import SQLCipherCore

// MARK: - FaultPause

/// The kill -9 tests' seam (debug builds only; nothing in a release build): with
/// `SCM_FAULT_PAUSE=<step>[,<step>…]:<file>` in the environment, a replace that reaches one of
/// those steps creates `file` and waits (up to 60 s) until it is removed, so that a test can kill the process at
/// that exact step, or let other processes act there, then let it go on.
///
/// The steps of a replace, in order: `checked` (the copy is verified and on disk, the old
/// file is held exclusively and its `-wal` checkpointed and removed; the journal still says
/// phase `export`), `journaled` (the journal says phase `install`; the old file is at the
/// path), `linked` (the old file also has its second name `<db>.scm-previous`) and `installed`
/// (the copy is at the path; the second name not yet removed). A key change in place:
/// `rekey-marked` (its marker is written, the transaction not begun) and `rekey-committed`
/// (committed and checked, the marker not yet removed).
package enum FaultPause {
    package static func at(_ step: String) {
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
