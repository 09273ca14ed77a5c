import Foundation
import SQLCipherManager
import SQLCipherSecretService

// The keyring tests' client process: GLib reads the session bus address from the environment
// once per process, so each test runs this program on its own private bus (and keyring daemon).
// It prints one line: what happened, never key bytes.
//
//   KeyringProbe store <service> <identifier> <key file>    store the key read from <key file>
//   KeyringProbe load <service> <identifier> <key directory>   load; write it to <key directory>/<identifier>
//   KeyringProbe delete <service> <identifier>
//   KeyringProbe open-or-create <service> <identifier> <database>   first-launch flow, then
//                  add a row to table `note` and print the row count

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: KeyringProbe <command> <service> <identifier> [path]\n".utf8))
    exit(64)
}
let (command, service, identifier) = (arguments[0], arguments[1], arguments[2])
let path = arguments.count > 3 ? URL(fileURLWithPath: arguments[3]) : nil

func say(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

/// An error's case name: `keyStore.locked`, `manager.keyUnavailable`…
func caseName(_ error: any Error) -> String {
    let label = Mirror(reflecting: error).children.first?.label ?? "\(error)"
    return (error is KeyStoreError ? "keyStore." : error is DatabaseManagerError ? "manager." : "other.") + label
}

do {
    let store = try SecretServiceKeyStore(service: service)
    switch (command, path) {
    case ("store", let file?):
        try store.storeKey(try FileKeyStore.readKeyFile(at: file), identifier: identifier)
        say("stored")
    case ("load", let directory?):
        guard let key = try store.loadKey(identifier: identifier) else {
            say("missing")
            break
        }
        try FileKeyStore(directory: directory).storeKey(key, identifier: identifier)
        say("loaded")
    case ("delete", _):
        try store.deleteKey(identifier: identifier)
        say("deleted")
    case ("open-or-create", let database?):
        let manager = DatabaseManager(url: database)
        let outcome = try manager.openOrCreate(keyStore: store, identifier: identifier)
        try manager.withDatabase { db in try db.execute("CREATE TABLE IF NOT EXISTS note(body TEXT)") }
        try manager.withDatabase { db in try db.execute("INSERT INTO note VALUES ('row')") }
        let count = try manager.readSync { db in try db.scalar(Int.self, "SELECT count(*) FROM note") } ?? 0
        manager.close()
        say("\(outcome.rawValue) rows=\(count)")
    default:
        FileHandle.standardError.write(Data("unknown command \(command)\n".utf8))
        exit(64)
    }
} catch {
    say("error: \(caseName(error))")
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}
