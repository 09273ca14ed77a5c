import Foundation
import SQLCipherManager

// The key-slot flows the fault-injection tests kill (KeySlotFaultInjectionTests):
//   slots-change        keySlots.change(password: "old-secret", to: "new-secret") on a closed manager
//   slots-add           keySlots.add(password: "new-secret")
//   slots-remove        keySlots.remove(password: "other-secret")
//   slots-rotate        keySlots.rekey()
//   slots-convert       keySlots.enable(password: "old-secret") of a password database
//   slots-convert-back  keySlots.disable(password: "new-secret")
// The key-slot template unlocks with "old-secret" and "other-secret"; Argon2id is the tests'
// cheap 1 pass over 1 MiB, opted in.

/// Runs one key-slot flow on `database`; `ready` is called when the kill clock may start.
func runKeySlotFlow(_ flow: String, database: URL, configuration: DatabaseConfiguration, ready: () -> Void) throws {
    var slotConfiguration = configuration
    slotConfiguration.keySlots = KeySlotOptions(
        parameters: Argon2Parameters(opsLimit: 1, memoryKiB: 1024), allowsWeakKeyDerivation: true)
    let manager = DatabaseManager(url: database, configuration: slotConfiguration)
    if flow != "slots-change" { try manager.open(password: "old-secret") }
    ready()
    switch flow {
    case "slots-change": try manager.keySlots.change(password: "old-secret", to: "new-secret")
    case "slots-add": try manager.keySlots.add(password: "new-secret")
    case "slots-remove": try manager.keySlots.remove(password: "other-secret")
    case "slots-rotate": try manager.keySlots.rekey()
    case "slots-convert": try manager.keySlots.enable(password: "old-secret")
    case "slots-convert-back": try manager.keySlots.disable(password: "new-secret")
    default:
        FileHandle.standardError.write(Data("unknown flow \(flow)\n".utf8))
        exit(64)
    }
}
