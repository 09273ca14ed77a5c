import Foundation
import SQLCipherManager

/// The write-ledger tests' writer in another process: inserts rows into `<directory>/ledger.db`
/// (autocommit, one row per statement) until `<directory>/stop` exists, and appends the id of
/// every insert that returned success to `<directory>/ledger.txt` (`+` once `<directory>/changed`
/// exists). When an insert fails because another program re-keyed the file in place (a rekey)
/// or replaced it (a settings change), it opens the file again with whichever known password and settings
/// now open it, as an app would after asking its user, and appends "<id> <password>" to
/// `<directory>/reopened.txt` (`id`: the insert that failed). Prints READY once open.
struct LedgerWriter {
    let directory: URL
    /// The passwords and kdf_iter values the tests use: before, after a rekey, after a settings change.
    private let candidates = [("old-secret", 4000), ("new-secret", 4000), ("old-secret", 5000)]

    func run() throws {
        let url = directory.appendingPathComponent("ledger.db")
        var manager = try open(url).manager
        let ledger = try FileHandle(forWritingTo: create("ledger.txt"))
        let reopened = try FileHandle(forWritingTo: create("reopened.txt"))
        FileHandle.standardOutput.write(Data("READY\n".utf8))
        var failed = 0
        var id = 1_000_000
        while !exists("stop") {
            let after = exists("changed")
            do {
                try manager.withDatabase { db in try db.execute("INSERT INTO ledger(id, body) VALUES (?, ?)", id, "row \(id)") }
                ledger.write(Data("\(id)\(after ? "+" : "")\n".utf8))
            } catch {
                failed += 1
                switch error as? DatabaseManagerError {
                case .keyChanged?:
                    manager.close()
                    let (next, password) = try open(url)
                    manager = next
                    reopened.write(Data("\(id) \(password)\n".utf8))
                default: break
                }
                usleep(2000)
            }
            id += 1
            usleep(1000)
        }
        manager.close()
        try Data("\(failed)\n".utf8).write(to: create("failed.txt"))
    }

    /// A manager open on the file with the first known password and settings that unlock it,
    /// and that password.
    private func open(_ url: URL) throws -> (manager: DatabaseManager, password: String) {
        for (password, iterations) in candidates {
            var configuration = DatabaseConfiguration(cipher: CipherOptions(kdfIterations: iterations, allowsLegacyKDFIterations: true))
            configuration.busyTimeout = .seconds(10)
            let manager = DatabaseManager(url: url, configuration: configuration)
            if (try? manager.open(password: password)) != nil { return (manager, password) }
        }
        throw DatabaseManagerError.incorrectPasswordOrSettings(path: url.path)
    }

    private func exists(_ name: String) -> Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent(name).path)
    }

    private func create(_ name: String) -> URL {
        let url = directory.appendingPathComponent(name)
        _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        return url
    }
}
