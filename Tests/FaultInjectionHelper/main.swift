import Foundation
import SQLCipherManager

// The fault-injection tests' victim: performs one flow on the files in a directory and is killed
// with SIGKILL at a random moment. It prints READY when the flow is about to start (the kill
// clock starts there) and DONE when it finished.
//
//   FaultInjectionHelper <flow> <directory>
//   flows: rekey (in place), rekey-export (the same with explicit settings: export and
//          rename), encrypt-in-place, encrypt-to-path, decrypt, backup (same key, to out.db), adopt, first-launch, ledger-writer,
//          hang-in-transaction (commits 100 rows of `extra`, then spills a 2,000-row
//          transaction to the -journal or -wal, writes "SPILLED" to <directory>/marker and waits
//          to be killed), hold-open (commits 50 rows to the -wal, writes "HOLDING" to
//          <directory>/marker, keeps the database open until <directory>/release exists),
//          exec-sql (runs <directory>/script.sql on test.db and exits), slots-* (KeySlotFlows.swift),
//          upgrade (UpgradeFlow.swift: test.db from SQLCipher 2's format to the linked library's),
//          rekey-ledger-in-place (the same without settings),
//          settings (kdf_iter 4000 → 5000, same password, on test.db), rekey-ledger /
//          encrypt-ledger / settings-ledger (rekey "old-secret" → "new-secret" with explicit
//          settings, so through the export, encrypt the plaintext file in place, or kdf_iter 5000,
//          on <directory>/ledger.db, for the
//          replace-window tests; with SCM_FAULT_PAUSE=<step>:<file> the replace stops at that
//          step until <file> is removed, see FaultPause)
//
// ledger-writer is not killed: it is the write-ledger tests' writer in another process (see
// LedgerWriter.swift).
//
// Files: <directory>/test.db (the template copy), <directory>/out.db (encrypt-to-path, decrypt, backup).
// Passwords: "old-secret" (the encrypted template), "new-secret" (the result). KDF: 4000 iterations.

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: FaultInjectionHelper <flow> <directory>\n".utf8))
    exit(64)
}
let flow = arguments[1]
let directory = URL(fileURLWithPath: arguments[2], isDirectory: true)
let database = directory.appendingPathComponent("test.db")
let output = directory.appendingPathComponent("out.db")
// The tests' cheap KDF, below the floor for new databases: opted in explicitly.
let configuration = DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true))

/// The same settings given explicitly (the linked SQLCipher's default page size, 4096 from 4.0
/// and 1024 before, so the checks open the result with the configuration's settings): a rekey
/// with options that differ from the configuration's re-encrypts into a new file (the export
/// engine), where a key-only rekey changes the key in place.
let explicitSettings = CipherOptions(
    kdfIterations: 4000, pageSize: (DatabaseTools.linkedSQLCipherVersion?.major ?? 4) >= 4 ? 4096 : 1024,
    allowsLegacyKDFIterations: true)

func ready() {
    FileHandle.standardOutput.write(Data("READY\n".utf8))
}

do {
    switch flow {
    case "rekey":
        let manager = DatabaseManager(url: database, configuration: configuration)
        try manager.open(password: "old-secret")
        // Rows that stay in the -wal until the rekey checkpoints them.
        try manager.transactionSync { db in
            for index in 0..<500 { try db.execute("INSERT INTO extra(value) VALUES (?)", index) }
        }
        ready()
        try manager.rekey(to: .password("new-secret"))
    case "encrypt-in-place":
        ready()
        try DatabaseTools.encryptPlaintextDatabase(at: database, password: "new-secret", configuration: configuration)
    case "encrypt-to-path":
        ready()
        try DatabaseTools.encryptPlaintextDatabase(at: database, to: output, password: "new-secret", configuration: configuration)
    case "decrypt":
        let manager = DatabaseManager(url: database, configuration: configuration)
        try manager.open(password: "old-secret")
        ready()
        try manager.decrypt(to: output)
    case "backup":
        let manager = DatabaseManager(url: database, configuration: configuration)
        try manager.open(password: "old-secret")
        ready()
        try manager.backup(to: output)
    case "adopt":
        var adopting = configuration
        adopting.adoptsPlaintextDatabase = true
        let manager = DatabaseManager(url: database, configuration: adopting)
        ready()
        try manager.open(password: "new-secret")
    case "rekey-export":
        let manager = DatabaseManager(url: database, configuration: configuration)
        try manager.open(password: "old-secret")
        try manager.transactionSync { db in
            for index in 0..<500 { try db.execute("INSERT INTO extra(value) VALUES (?)", index) }
        }
        ready()
        try manager.rekey(to: .password("new-secret"), options: explicitSettings)
    case "rekey-ledger-in-place":
        let manager = DatabaseManager(url: directory.appendingPathComponent("ledger.db"), configuration: configuration)
        try manager.open(password: "old-secret")
        ready()
        try manager.rekey(to: .password("new-secret"))
        manager.close()
    case "rekey-ledger":
        let manager = DatabaseManager(url: directory.appendingPathComponent("ledger.db"), configuration: configuration)
        try manager.open(password: "old-secret")
        ready()
        try manager.rekey(to: .password("new-secret"), options: explicitSettings)
        manager.close()
    case "settings", "settings-ledger":
        // A change that needs a new file: the same password with kdf_iter 5000.
        let name = flow == "settings" ? "test.db" : "ledger.db"
        let manager = DatabaseManager(url: directory.appendingPathComponent(name), configuration: configuration)
        try manager.open(password: "old-secret")
        ready()
        try manager.rekey(to: .password("old-secret"), options: CipherOptions(kdfIterations: 5000, allowsLegacyKDFIterations: true))
        manager.close()
    case "encrypt-ledger":
        ready()
        try DatabaseTools.encryptPlaintextDatabase(
            at: directory.appendingPathComponent("ledger.db"), password: "new-secret", configuration: configuration)
    case "ledger-writer":
        try LedgerWriter(directory: directory).run()
    case "exec-sql":
        // Observation tests: another process commits <directory>/script.sql on test.db.
        let manager = DatabaseManager(url: database, configuration: configuration)
        try manager.open(password: "old-secret")
        try manager.withDatabase { db in
            try db.executeScript(String(contentsOf: directory.appendingPathComponent("script.sql"), encoding: .utf8))
        }
        manager.close()
    case "hang-in-transaction":
        let manager = DatabaseManager(url: database, configuration: configuration)
        try manager.open(password: "old-secret")
        try manager.withDatabase { db in try db.execute("PRAGMA cache_size = 5") }
        ready()
        for index in 0..<100 { try manager.withDatabase { db in try db.execute("INSERT INTO extra(value) VALUES (?)", index) } }
        try manager.transactionSync { db in
            for _ in 0..<2000 { try db.execute("INSERT INTO extra(value, filler) VALUES (-1, randomblob(300))") }
            try Data("SPILLED".utf8).write(to: directory.appendingPathComponent("marker"))
            Thread.sleep(forTimeInterval: 60)
        }
    case "hold-open":
        let manager = DatabaseManager(url: database, configuration: configuration)
        try manager.open(password: "old-secret")
        try manager.withDatabase { db in try db.execute("PRAGMA wal_autocheckpoint = 0") }
        for index in 0..<50 { try manager.withDatabase { db in try db.execute("INSERT INTO extra(value) VALUES (?)", index) } }
        ready()
        try Data("HOLDING".utf8).write(to: directory.appendingPathComponent("marker"))
        let release = directory.appendingPathComponent("release").path
        while !FileManager.default.fileExists(atPath: release) { Thread.sleep(forTimeInterval: 0.01) }
        manager.close()
    case "first-launch":
        // First launch: the key goes to <directory>/keys first, then test.db is created or encrypted.
        let manager = DatabaseManager(url: database, configuration: configuration)
        ready()
        try manager.openOrCreate(keyStore: FileKeyStore(directory: directory.appendingPathComponent("keys")), identifier: "db")
        try manager.transactionSync { db in
            try db.execute("CREATE TABLE IF NOT EXISTS launch(id INTEGER PRIMARY KEY, value INTEGER)")
            for index in 0..<200 { try db.execute("INSERT INTO launch(value) VALUES (?)", index) }
        }
    case "upgrade":
        try runUpgradeFlow(database: database, ready: ready)
    case let keySlotFlow where keySlotFlow.hasPrefix("slots-"):
        try runKeySlotFlow(keySlotFlow, database: database, configuration: configuration, ready: ready)
    default:
        FileHandle.standardError.write(Data("unknown flow \(flow)\n".utf8))
        exit(64)
    }
    FileHandle.standardOutput.write(Data("DONE\n".utf8))
} catch {
    FileHandle.standardError.write(Data("FAILED: \(error)\n".utf8))
    exit(1)
}
