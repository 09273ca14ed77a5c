import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - The matrix

/// One bad input: how to set the scene, the flow that must fail, and how it must fail.
struct BadInput: Sendable, CustomTestStringConvertible {
    enum Needs: Sendable {
        case nothing
        /// Paths that are read-only for root too (``ReadOnly``: `chattr +i`).
        case readOnly
        /// A small tmpfs to fill (``SmallDisk``: root).
        case smallDisk
        /// SQLCipher 3.x linked (4.x can read 4.x files and knows the 4.x pragmas).
        case sqlcipher3
    }

    let name: String
    /// The ``DatabaseManagerError`` case name, or `sqlite:<code>` for a statement's ``SQLiteError``.
    let expected: String
    /// Text the error's description must contain, beyond the generic checks.
    var mentions: String?
    var needs: Needs = .nothing
    /// `false` for cases whose flow opens the database, then fails on a statement.
    var leavesManagerClosed = true
    let arrange: @Sendable (Scene) throws -> Void
    let act: @Sendable (Scene) throws -> Void

    var testDescription: String { name }
}

/// The password every scene's database is made with, unless a case says otherwise.
private let secret = "secret"

/// A password that is legal but easy to mangle (quoting, C strings, Unicode forms, length).
struct UnusualPassword: Sendable, CustomTestStringConvertible {
    let name: String
    let password: String
    let nearMiss: String

    init(_ name: String, _ password: String, nearMiss: String) {
        self.name = name
        self.password = password
        self.nearMiss = nearMiss
    }

    var testDescription: String { name }
}

/// Cases grouped by what is wrong. Each one, run by ``BadInputMatrixTests/badInput(_:)``, must
/// throw the expected typed error with a message that names the file and says what to do, never
/// contains a password, and leaves every byte of the directory as it was.
///
/// "An encrypted file opened without a password" has two meanings in this API: `open` with an
/// empty or blank password (refused by the policy before the file is touched), and handing the
/// file to `encryptPlaintextDatabase`, the one flow that opens a file without a key
/// (`notPlaintextDatabase`). A stock SQLite client opening our file is in the interop suites.
/// Root-only cases (`chattr +i`, a small tmpfs) are cancelled with the reason elsewhere.
enum BadInputMatrix {
    static let cases: [BadInput] = files + damage + keys + passwords + paths + changes + readOnly + locks + diskFull

    // MARK: Files that are not SQLCipher databases

    static let files: [BadInput] = [
        BadInput(
            name: "missing file", expected: "fileNotFound", mentions: "Create it",
            arrange: { _ in }, act: { try $0.open(secret) }),
        BadInput(
            name: "0-byte file", expected: "notADatabase", mentions: "empty",
            arrange: { try Data().write(to: $0.url) }, act: { try $0.open(secret) }),
        BadInput(
            name: "a few bytes of text", expected: "notADatabase", mentions: "not a whole number of pages",
            arrange: { try Data("hello".utf8).write(to: $0.url) }, act: { try $0.open(secret) }),
        BadInput(
            name: "random bytes, odd size", expected: "notADatabase", mentions: "1000 bytes",
            arrange: { try randomBytes(1000).write(to: $0.url) }, act: { try $0.open(secret) }),
        BadInput(
            name: "random bytes, whole pages", expected: "incorrectPasswordOrSettings",
            arrange: { try randomBytes(4096).write(to: $0.url) }, act: { try $0.open(secret) }),
        // Not "plaintext, encrypt it first": the rest of the 100-byte header is not SQLite's.
        BadInput(
            name: "plaintext header followed by garbage", expected: "notADatabase",
            arrange: { try (Data(DatabaseFile.plaintextHeader) + randomBytes(4080)).write(to: $0.url) },
            act: { try $0.open(secret) }),
        BadInput(
            name: "plaintext SQLite opened with a password", expected: "plaintextDatabase", mentions: "encrypt it",
            arrange: { try Fixture.makePlaintextDatabase(at: $0.url) }, act: { try $0.open(secret) }),
        BadInput(
            name: "plaintext SQLite opened with a raw key", expected: "plaintextDatabase",
            arrange: { try Fixture.makePlaintextDatabase(at: $0.url) },
            act: { try $0.manager().open(.rawKey(Data(repeating: 7, count: 32))) }),
        BadInput(
            name: "SQLCipher 4 default settings", expected: "incorrectPasswordOrSettings",
            mentions: "SQLCipher major version", needs: .sqlcipher3,
            arrange: { try FileManager.default.copyItem(at: Fixture.shipped("sqlcipher4-default.sqlcipher"), to: $0.url) },
            act: { try $0.open(secret) }),
    ]

    // MARK: Damaged encrypted files

    static let damage: [BadInput] = [
        BadInput(
            name: "truncated mid-page", expected: "notADatabase", mentions: "not a whole number of pages",
            arrange: { scene in
                try scene.makeEncrypted(rows: 300)
                try scene.edit { $0 = $0.prefix($0.count / 2 + 100) }
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "truncated at a page boundary", expected: "corrupt", mentions: "damaged",
            arrange: { scene in
                try scene.makeEncrypted(rows: 300)
                try scene.edit { $0 = $0.prefix($0.count / 2 / LinkedFormat.pageSize * LinkedFormat.pageSize) }
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "truncated to its first page", expected: "corrupt",
            arrange: { scene in
                try scene.makeEncrypted(rows: 300 * LinkedFormat.pageSize / 1024)
                try scene.edit { $0 = $0.prefix(LinkedFormat.pageSize) }
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "flipped byte in the salt", expected: "incorrectPasswordOrSettings",
            arrange: { scene in
                try scene.makeEncrypted()
                try scene.edit { $0[3] ^= 0x01 }
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "flipped byte inside page 1", expected: "incorrectPasswordOrSettings",
            arrange: { scene in
                try scene.makeEncrypted()
                try scene.edit { $0[100] ^= 0x01 }
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "flipped byte inside a data page, integrity checked on open", expected: "corrupt",
            mentions: "Restore it from a backup",
            arrange: { scene in
                try scene.makeEncrypted(rows: 500 * LinkedFormat.pageSize / 1024)
                try scene.edit { $0[3 * LinkedFormat.pageSize + 200] ^= 0x01 }
            }, act: { try $0.open(secret) { $0.checksIntegrityOnOpen = true } }),
        // A query's SQLITE_CORRUPT is said with the path and advice, like at open.
        BadInput(
            name: "flipped byte inside a data page, then read", expected: "corrupt", mentions: "malformed",
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted(rows: 500 * LinkedFormat.pageSize / 1024)
                try scene.edit { $0[3 * LinkedFormat.pageSize + 200] ^= 0x01 }
            }, act: { _ = try $0.open(secret).fetchAll("SELECT * FROM item") }),
    ]

    // MARK: Keys and cipher settings

    static let keys: [BadInput] = [
        BadInput(
            name: "wrong password", expected: "incorrectPasswordOrSettings", mentions: "Try again",
            arrange: { try $0.makeEncrypted() }, act: { try $0.open("not-the-secret") }),
        BadInput(
            name: "encrypted file opened without a password (empty)", expected: "incorrectPasswordOrSettings",
            mentions: "Try again", arrange: { try $0.makeEncrypted() }, act: { try $0.open("") }),
        BadInput(
            name: "encrypted file opened with a whitespace-only password", expected: "incorrectPasswordOrSettings",
            arrange: { try $0.makeEncrypted() }, act: { try $0.open(" \t\n ") }),
        BadInput(
            name: "other kdf_iter", expected: "incorrectPasswordOrSettings", mentions: "kdf_iter",
            arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret) { $0.cipher.kdfIterations = 4001 } }),
        BadInput(
            name: "other page size", expected: "incorrectPasswordOrSettings",
            arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret) { $0.cipher.pageSize = 2 * LinkedFormat.pageSize } }),
        BadInput(
            name: "HMAC off for a file written with HMAC", expected: "incorrectPasswordOrSettings",
            arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret) { $0.cipher.usesHMAC = false } }),
        BadInput(
            name: "SQLCipher 4 option on 3.x", expected: "unsupportedOption", mentions: "needs SQLCipher 4",
            needs: .sqlcipher3, arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret) { $0.cipher.kdfAlgorithm = .sha512 } }),
        BadInput(
            name: "wrong raw key", expected: "incorrectKeyOrSettings",
            arrange: { scene in
                let manager = scene.manager()
                try manager.create(.rawKey(Data(repeating: 1, count: 32)))
                manager.close()
            },
            act: { try $0.manager().open(.rawKey(Data(repeating: 2, count: 32))) }),
        BadInput(
            name: "raw key of 31 bytes", expected: "invalidKeyLength", mentions: "32 bytes",
            arrange: { try $0.makeEncrypted() },
            act: { try $0.manager().open(.rawKey(Data(repeating: 2, count: 31))) }),
        BadInput(
            name: "password-keyed file opened with a raw key", expected: "incorrectKeyOrSettings",
            arrange: { try $0.makeEncrypted() },
            act: { try $0.manager().open(.rawKey(Data(secret.utf8) + Data(repeating: 0, count: 26))) }),
    ]

    // MARK: Unusual passwords: each file opens with its exact password only

    /// Each password the file is made with, and a near miss that must not open it.
    static let unusualPasswords: [UnusualPassword] = [
        UnusualPassword("quotes", #"it's a "quoted" secret"#, nearMiss: #"its a "quoted" secret"#),
        UnusualPassword("SQL in the password", "x'; PRAGMA key = 'y'; --", nearMiss: "y"),
        UnusualPassword("backslashes", #"C:\path\to\secret\\"#, nearMiss: "C:/path/to/secret/"),
        UnusualPassword("a NUL byte inside", "before\u{0}after", nearMiss: "before"),
        UnusualPassword("emoji", "🔐🐈‍⬛ secret", nearMiss: "🔐🐈 secret"),
        UnusualPassword("combining characters (NFD)", "cafe\u{301} secret", nearMiss: "cafe secret"),
        UnusualPassword("precomposed characters (NFC)", "caf\u{E9} secret", nearMiss: "caf\u{E8} secret"),
        UnusualPassword(
            "10 KB", String(repeating: "0123456789", count: 1024),
            nearMiss: String(repeating: "0123456789", count: 1023) + "012345678X"),
        UnusualPassword("a trailing space", "secret ", nearMiss: "secret"),
    ]

    static let passwords: [BadInput] = unusualPasswords.map { password in
        BadInput(
            name: "password with \(password.name): near miss", expected: "incorrectPasswordOrSettings",
            arrange: { try $0.makeEncrypted(password: password.password) }, act: { try $0.open(password.nearMiss) })
    }

    // MARK: Paths

    static let paths: [BadInput] = [
        BadInput(
            name: "path is a directory: open", expected: "isDirectory", mentions: "is a directory",
            arrange: { try FileManager.default.createDirectory(at: $0.url, withIntermediateDirectories: false) },
            act: { try $0.open(secret) }),
        BadInput(
            name: "path is a directory: create", expected: "isDirectory",
            arrange: { try FileManager.default.createDirectory(at: $0.url, withIntermediateDirectories: false) },
            act: { try $0.create(secret) }),
        BadInput(
            name: "parent directory missing: open", expected: "parentDirectoryMissing", mentions: "Create the directory",
            arrange: { $0.url = $0.dir.url.appendingPathComponent("missing/test.db") }, act: { try $0.open(secret) }),
        BadInput(
            name: "parent directory missing: create", expected: "parentDirectoryMissing",
            arrange: { $0.url = $0.dir.url.appendingPathComponent("missing/test.db") }, act: { try $0.create(secret) }),
        BadInput(
            name: "create over an encrypted database", expected: "fileAlreadyExists", mentions: "Open it instead",
            arrange: { try $0.makeEncrypted() }, act: { try $0.create("other-secret") }),
        BadInput(
            name: "create over a plaintext database", expected: "fileAlreadyExists",
            arrange: { try Fixture.makePlaintextDatabase(at: $0.url) }, act: { try $0.create(secret) }),
        // Reading the header of a pipe blocked forever before DatabaseFile checked for a regular file.
        BadInput(
            name: "path is a named pipe", expected: "notADatabase", mentions: "not a regular file",
            arrange: { scene in
                guard mkfifo(scene.url.path, 0o600) == 0 else { throw TestFailure() }
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "file name too long: create", expected: "invalidPath", mentions: "too long",
            arrange: { $0.url = $0.dir.file(String(repeating: "n", count: 300) + ".db") }, act: { try $0.create(secret) }),
        BadInput(
            name: "file name too long: encrypt to it", expected: "invalidPath", mentions: "too long",
            arrange: { try Fixture.makePlaintextDatabase(at: $0.url) },
            act: { try $0.encrypt(secret, to: $0.dir.file(String(repeating: "n", count: 300) + ".db")) }),
        BadInput(
            name: "file name too long: decrypt to it", expected: "invalidPath", mentions: "too long",
            leavesManagerClosed: false, arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret).decrypt(to: $0.dir.file(String(repeating: "n", count: 300) + ".db")) }),
        BadInput(
            name: "path is a dangling symbolic link", expected: "fileNotFound",
            arrange: {
                try FileManager.default.createSymbolicLink(
                    atPath: $0.url.path, withDestinationPath: $0.dir.file("elsewhere.db").path)
            },
            act: { try $0.open(secret) }),
    ]

    // MARK: Rekey, encrypt and decrypt refused before they start

    static let changes: [BadInput] = [
        BadInput(
            name: "encrypted file given to encrypt (opened without a password)", expected: "notPlaintextDatabase",
            mentions: "Open it with its password", arrange: { try $0.makeEncrypted() },
            act: { try $0.encrypt("new-secret") }),
        BadInput(
            name: "encrypt a missing file", expected: "fileNotFound",
            arrange: { _ in }, act: { try $0.encrypt("new-secret") }),
        BadInput(
            name: "encrypt into an existing file", expected: "fileAlreadyExists",
            arrange: { scene in
                try Fixture.makePlaintextDatabase(at: scene.url)
                try scene.makeEncrypted(at: scene.dir.file("other.db"))
            }, act: { try $0.encrypt("new-secret", to: $0.dir.file("other.db")) }),
        BadInput(
            name: "rekey to an empty password", expected: "invalidPassword", leavesManagerClosed: false,
            arrange: { try $0.makeEncrypted() }, act: { try $0.rekey("") }),
        BadInput(
            name: "rekey a closed manager", expected: "notOpen",
            arrange: { try $0.makeEncrypted() }, act: { try $0.manager().rekey(to: .password("new-secret")) }),
        BadInput(
            name: "decrypt into an existing file", expected: "fileAlreadyExists", leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted()
                try Fixture.makePlaintextDatabase(at: scene.dir.file("plain.db"))
            }, act: { try $0.open(secret).decrypt(to: $0.dir.file("plain.db")) }),
    ]

    // MARK: Read-only files and directories (write flows)

    static let readOnly: [BadInput] = [
        BadInput(
            name: "read-only directory: create", expected: "permissionDenied", mentions: "permissions", needs: .readOnly,
            arrange: { $0.makeReadOnly(directory: true) }, act: { try $0.create(secret) }),
        BadInput(
            name: "read-only directory: write", expected: "notWritable", mentions: "cannot be written", needs: .readOnly,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted()
                scene.makeReadOnly(directory: true)
            }, act: { try $0.open(secret).execute("INSERT INTO item(name) VALUES ('x')") }),
        BadInput(
            name: "read-only file: write", expected: "notWritable", mentions: "cannot be written", needs: .readOnly,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted()
                scene.makeReadOnly(directory: false)
            }, act: { try $0.open(secret).execute("INSERT INTO item(name) VALUES ('x')") }),
        BadInput(
            name: "read-only file: migration on open", expected: "migrationFailed", mentions: "readonly",
            needs: .readOnly,
            arrange: { scene in
                try scene.makeEncrypted()
                scene.makeReadOnly(directory: false)
            },
            act: { scene in
                let manager = scene.manager()
                manager.schemaMigrator = MockSchemaMigrator(targetVersion: 2)
                try manager.open(password: secret)
            }),
        BadInput(
            name: "read-only directory: rekey", expected: "permissionDenied", needs: .readOnly, leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted()
                scene.makeReadOnly(directory: true)
            }, act: { try $0.rekey("new-secret") }),
        BadInput(
            name: "read-only file: rekey", expected: "permissionDenied", needs: .readOnly, leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted()
                scene.makeReadOnly(directory: false)
            }, act: { try $0.rekey("new-secret") }),
        BadInput(
            name: "read-only file: encrypt in place", expected: "permissionDenied", needs: .readOnly,
            arrange: { scene in
                try Fixture.makePlaintextDatabase(at: scene.url)
                scene.makeReadOnly(directory: false)
            }, act: { try $0.encrypt("new-secret") }),
        BadInput(
            name: "read-only directory: encrypt in place", expected: "permissionDenied", needs: .readOnly,
            arrange: { scene in
                try Fixture.makePlaintextDatabase(at: scene.url)
                scene.makeReadOnly(directory: true)
            }, act: { try $0.encrypt("new-secret") }),
        BadInput(
            name: "read-only directory: decrypt into it", expected: "permissionDenied", needs: .readOnly,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted()
                scene.makeReadOnly(directory: true)
            }, act: { try $0.open(secret).decrypt(to: $0.dir.file("plain.db")) }),
    ]

    // MARK: Locks held by another connection

    static let locks: [BadInput] = [
        BadInput(
            name: "exclusive lock held by another connection: open", expected: "busy", mentions: "locked",
            arrange: { scene in
                try scene.makeEncrypted()
                try scene.holdLock("BEGIN EXCLUSIVE")
            }, act: { try $0.open(secret) { $0.busyTimeout = .milliseconds(100) } }),
        BadInput(
            name: "write lock held by another connection: write", expected: "busy", mentions: "locked",
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.makeEncrypted()
                try scene.holdLock("BEGIN IMMEDIATE")
            }, act: { try $0.open(secret) { $0.busyTimeout = .milliseconds(100) }.execute("INSERT INTO item(name) VALUES ('x')") }),
    ]

    // MARK: Full disk (write flows)

    static let diskFull: [BadInput] = [
        BadInput(
            name: "disk full: create", expected: "diskFull", mentions: "Free some space", needs: .smallDisk,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 256)
                scene.disk?.fill()
            }, act: { try $0.create(secret) }),
        BadInput(
            name: "disk full: migration on open", expected: "migrationFailed", mentions: "full", needs: .smallDisk,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 256)
                try scene.makeEncrypted()
                scene.disk?.fill()
            },
            act: { scene in
                let manager = scene.manager()
                manager.schemaMigrator = MockSchemaMigrator(targetVersion: 2)
                try manager.open(password: secret)
            }),
        BadInput(
            name: "disk full: write", expected: "sqlite:13", mentions: "full", needs: .smallDisk,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 256)
                try scene.makeEncrypted()
                scene.disk?.fill()
            }, act: { try $0.open(secret).execute("INSERT INTO item(name) VALUES (zeroblob(100000))") }),
        BadInput(
            name: "too little space: rekey", expected: "insufficientDiskSpace", needs: .smallDisk,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 256)
                try scene.makeEncrypted(rows: 2000)
                scene.disk?.fill()
            }, act: { try $0.rekey("new-secret") }),
        BadInput(
            name: "too little space: encrypt", expected: "insufficientDiskSpace", needs: .smallDisk,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 256)
                try Fixture.makePlaintextDatabase(at: scene.url, rows: 2000)
                scene.disk?.fill()
            }, act: { try $0.encrypt("new-secret") }),
        BadInput(
            name: "disk fills up during rekey", expected: "diskFull", mentions: "full", needs: .smallDisk,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 512)
                try scene.makeEncrypted(rows: 2000)
            }, act: { scene in try scene.fillingTheDisk(atStart: true) { try scene.rekey("new-secret", progress: $0) } }),
        BadInput(
            name: "disk fills up during encrypt in place", expected: "diskFull", mentions: "full", needs: .smallDisk,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 512)
                try Fixture.makePlaintextDatabase(at: scene.url, rows: 2000)
            }, act: { scene in try scene.fillingTheDisk { try scene.encrypt("new-secret", progress: $0) } }),
        BadInput(
            name: "disk fills up during encrypt to a new file", expected: "diskFull", mentions: "full",
            needs: .smallDisk,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 512)
                try Fixture.makePlaintextDatabase(at: scene.url, rows: 2000)
            },
            act: { scene in
                let destination = scene.url.deletingLastPathComponent().appendingPathComponent("encrypted.db")
                try scene.fillingTheDisk { try scene.encrypt("new-secret", to: destination, progress: $0) }
            }),
        BadInput(
            name: "disk fills up during decrypt", expected: "diskFull", mentions: "full", needs: .smallDisk,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 512)
                try scene.makeEncrypted(rows: 2000)
            },
            act: { scene in
                let manager = try scene.open(secret)
                let destination = scene.url.deletingLastPathComponent().appendingPathComponent("plain.db")
                try scene.fillingTheDisk { try manager.decrypt(to: destination, progress: $0) }
            }),
        BadInput(
            name: "disk fills up during backup", expected: "diskFull", mentions: "full", needs: .smallDisk,
            leavesManagerClosed: false,
            arrange: { scene in
                try scene.moveToSmallDisk(kilobytes: 512)
                try scene.makeEncrypted(rows: 2000)
            },
            act: { scene in
                let manager = try scene.open(secret)
                let destination = scene.url.deletingLastPathComponent().appendingPathComponent("backup.db")
                try scene.fillingTheDisk { try manager.backup(to: destination, progress: $0) }
            }),
    ]

    private static func randomBytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) })
    }
}

// MARK: - The runner

@Suite(.ownThread) struct BadInputMatrixTests {
    @Test func theMatrixIsLargeEnough() {
        #expect(BadInputMatrix.cases.count >= 30)
        #expect(Set(BadInputMatrix.cases.map(\.name)).count == BadInputMatrix.cases.count, "case names must be unique")
    }

    @Test(arguments: BadInputMatrix.cases)
    func badInput(_ input: BadInput) throws {
        try input.run()
    }

    /// The positive side of the password rows: each unusual password opens its own file, and NFC
    /// and NFD spellings of one password are the same key (passwords are normalised to NFC).
    @Test(arguments: BadInputMatrix.unusualPasswords)
    func unusualPasswordsOpenTheirOwnFile(_ unusual: UnusualPassword) throws {
        let password = unusual.password
        let scene = Scene()
        try scene.makeEncrypted(password: password)
        let manager = try scene.open(password)
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM item") == 3)
        manager.close()
        let decomposed = password.decomposedStringWithCanonicalMapping
        let composed = password.precomposedStringWithCanonicalMapping
        #expect(try scene.open(decomposed).scalar(Int.self, "SELECT count(*) FROM item") == 3)
        #expect(try scene.open(composed).scalar(Int.self, "SELECT count(*) FROM item") == 3)
    }

    /// A failed write on a full disk cannot leave the file byte-identical: SQLite restores the
    /// changed pages from its journal and SQLCipher encrypts them again with fresh random IVs.
    /// What must hold is that the content is the same and the file is sound.
    @Test(.enabled(if: SmallDisk.isSupported, "mounting a small tmpfs needs root"))
    func diskFullDuringATransactionKeepsTheContent() throws {
        let scene = Scene()
        try scene.moveToSmallDisk(kilobytes: 128)
        try scene.makeEncrypted(rows: 20)
        let manager = try scene.open(secret)
        let rows = try manager.fetchAll("SELECT * FROM item")
        #expect(
            thrownCase {
                try manager.transactionSync { db in
                    try db.execute("INSERT INTO item(name) VALUES ('before the big one')")
                    try db.execute("INSERT INTO item(name) VALUES (zeroblob(400000))")
                }
            } == "sqlite:13")
        #expect(try manager.fetchAll("SELECT * FROM item") == rows)
        #expect(try manager.integrityProblems().isEmpty)
        manager.close()
        #expect(try scene.open(secret).fetchAll("SELECT * FROM item") == rows)
    }
}
