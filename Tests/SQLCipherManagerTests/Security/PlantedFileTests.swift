import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Someone who may write in the database's directory but has no password plants a symbolic link or
/// a file of their own at a name the library writes, or a huge sparse file it
/// reads. Each is refused, typed, and left alone; nothing is written through it and
/// the database still opens as before.
@Suite(.ownThread) struct PlantedFileTests {
    /// A file elsewhere the link points to; it must keep its bytes.
    static let victimText = Data("not yours to overwrite\n".utf8)

    private func plantLink(_ name: String, in dir: TemporaryDirectory) throws -> URL {
        let victim = dir.file("victim")
        try Self.victimText.write(to: victim)
        try FileManager.default.createSymbolicLink(atPath: dir.file(name).path, withDestinationPath: victim.path)
        return victim
    }

    /// What runs with the link planted: each writes (or lets SQLite write) the planted name.
    enum Operation: String, CaseIterable, Sendable {
        case changePassword = "keys change-password"
        case rotate = "keys rotate"
        case settingsChange = "rekey with new settings"
        case inPlaceRekey = "rekey in place"
        case open
        case create
        case decrypt = "decrypt --to out.db"

        var usesKeySlots: Bool { self == .changePassword || self == .rotate }

        /// Makes the database the operation starts from (none for create).
        func prepare(_ dir: TemporaryDirectory) throws {
            switch self {
            case .changePassword, .rotate: try dir.createdKeySlotManager().close()
            case .create: break
            default: try RichDatabase.makeEncrypted(in: dir)
            }
        }

        /// Runs it with the link in place.
        func run(_ dir: TemporaryDirectory) throws {
            let manager = usesKeySlots ? dir.keySlotManager() : dir.manager()
            defer { manager.close() }
            switch self {
            case .changePassword: try manager.keySlots.change(password: "secret", to: "other-secret")
            case .rotate:
                try manager.open(password: "secret")
                try manager.keySlots.rekey()
            case .settingsChange:
                try manager.open(password: "old-secret")
                try manager.rekey(to: .password("new-secret"), options: .fast(kdfIterations: 4500))
            case .inPlaceRekey:
                try manager.open(password: "old-secret")
                try manager.rekey(to: .password("new-secret"))
            case .open: try manager.open(password: "old-secret")
            case .create: try manager.create(password: "new-secret")
            case .decrypt:
                try manager.open(password: "old-secret")
                try manager.decrypt(to: dir.file("out.db"))
            }
        }

        /// The database still opens as before (create: nothing was made).
        func expectIntact(_ dir: TemporaryDirectory) throws {
            switch self {
            case .create:
                #expect(!FileManager.default.fileExists(atPath: dir.file().path))
            case .changePassword, .rotate:
                let again = dir.keySlotManager()
                try again.open(password: "secret")
                again.close()
            default:
                let again = dir.manager()
                try again.open(password: "old-secret")
                again.close()
                #expect(!FileManager.default.fileExists(atPath: dir.file("out.db").path))
            }
        }
    }

    /// Every name the library creates beside a database, or lets SQLite create, with the
    /// operation that would write it.
    static let plantedNames: [(String, Operation)] = [
        ("test.db.scm-keys.tmp", .changePassword),
        ("test.db.scm-keys.next.tmp", .rotate),
        ("test.db.scm-keys.scm-lock", .changePassword),
        ("test.db.scm-journal.tmp", .settingsChange),
        ("test.db.scm-rekey", .settingsChange),
        ("test.db.scm-rekey-journal", .settingsChange),
        ("test.db.scm-previous", .settingsChange),
        ("test.db.scm-lock", .settingsChange),
        ("test.db.scm-rekeying.tmp", .inPlaceRekey),
        ("test.db.scm-rekeying.scm-lock", .inPlaceRekey),
        ("test.db-journal", .open),
        ("test.db-wal", .open),
        ("test.db-shm", .open),
        ("test.db-journal", .inPlaceRekey),
        ("test.db-creating", .create),
        ("test.db-creating-journal", .create),
        ("out.db.scm-decrypt", .decrypt),
        ("out.db.scm-decrypt-journal", .decrypt),
    ]

    /// A link at the name (to a file elsewhere in the directory): the operation is refused with
    /// ``DatabaseManagerError/untrustedFile(path:reason:)``, the file it points to keeps its
    /// bytes, the link stays, and the database opens as before.
    @Test("a symbolic link planted where the library writes is refused and left alone", arguments: plantedNames)
    func aPlantedLinkIsRefused(name: String, operation: Operation) throws {
        let dir = TemporaryDirectory()
        try operation.prepare(dir)
        let before = operation.usesKeySlots ? Fixture.bytes(dir.slotFile()) : nil
        let victim = try plantLink(name, in: dir)
        #expect(Self.isRefusal { try operation.run(dir) }, "\(name), \(operation.rawValue)")
        #expect(Fixture.bytes(victim) == Self.victimText, "\(name): the file behind the link changed")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file(name).path) == victim.path)
        if let before { #expect(Fixture.bytes(dir.slotFile()) == before) }
        try FileManager.default.removeItem(at: dir.file(name))
        try operation.expectIntact(dir)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.url.path).filter {
            $0.contains(".scm-") && !$0.hasSuffix(".scm-keys") || $0.hasSuffix("-creating")
        }
        #expect(leftovers.isEmpty, "\(name): left \(leftovers)")
    }

    /// A link at a key file's temporary name (`<directory>/.<name>.tmp`) stops the store: it is
    /// neither removed nor written through.
    @Test func aLinkAtTheKeyFileTemporaryIsRefused() throws {
        let dir = TemporaryDirectory()
        let store = FileKeyStore(directory: dir.file("keys"))
        try FileManager.default.createDirectory(
            at: dir.file("keys"), withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let victim = try plantLink("keys/.notes.tmp", in: dir)
        #expect(throws: KeyStoreError.notARegularFile(path: dir.file("keys/.notes.tmp").path)) {
            try store.storeKey(try DatabaseKey.generate(), identifier: "notes")
        }
        #expect(Fixture.bytes(victim) == Self.victimText)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: dir.file("keys/.notes.tmp").path) == victim.path)
        #expect(try store.loadKey(identifier: "notes") == nil)
    }

    /// A lock file another user owns (root's test: chown to nobody) is not taken as ours.
    @Test func aForeignLockFileIsRefused() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let lock = dir.file("test.db.scm-lock").path
        #expect(FileManager.default.createFile(atPath: lock, contents: Data("x".utf8)))
        guard chown(lock, 65_534, 65_534) == 0 else { return }  // not root: nothing to plant
        #expect(Self.isRefusal { try Operation.settingsChange.run(dir) })
        #expect(Fixture.bytes(URL(fileURLWithPath: lock)) == Data("x".utf8))
    }

    /// A 256 MB sparse journal is refused by the size `fstat` gives, before any read or parse,
    /// and stays for the operator to look at.
    @Test func aHugeSparseJournalIsRefusedUnread() throws {
        let dir = TemporaryDirectory()
        try RichDatabase.makeEncrypted(in: dir)
        let journal = dir.file("test.db.scm-journal").path
        #expect(FileManager.default.createFile(atPath: journal, contents: nil))
        #expect(truncate(journal, 256 << 20) == 0)
        #expect(Self.isRefusal { _ = try DatabaseTools.recoverInterruptedOperation(at: dir.file()) })
        #expect(FileSystem.size(of: journal) == 256 << 20)
    }

    static func isRefusal(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return false
        } catch DatabaseManagerError.untrustedFile {
            return true
        } catch {
            Issue.record("expected a refusal, got \(error)")
            return false
        }
    }
}
