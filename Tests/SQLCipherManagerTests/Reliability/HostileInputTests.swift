import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

// MARK: - The hostile-input table

/// Numbers that wrap in SQLCipher's 32-bit `int`, passwords that collide, and files that get
/// the wrong diagnosis. Each case runs through ``BadInput/run()``: the typed error, a message
/// that says what to do and holds no password, every file byte-identical, no leftovers.
enum HostileInputs {
    static let cases: [BadInput] = kdfRanges + otherRanges + rangesInOtherFlows + headers + sizesAndPaths + queries

    private static let secret = "secret"

    /// Values SQLCipher 3.4.1 reads as a 32-bit `int` (`atoi`): 2³² becomes 0 (no key
    /// stretching at all), 2³² + 64000 becomes 64000, 2³¹ − 1 runs PBKDF2 for minutes.
    static let wrapping: [(String, Int)] = [
        ("2^31 - 1", Int(Int32.max)), ("2^31", 1 << 31), ("2^32", 1 << 32), ("2^32 + 64000", (1 << 32) + 64000),
        ("Int.max", Int.max),
    ]

    /// The options of a real user: no legacy opt-in.
    private static func strict(_ change: @escaping @Sendable (inout CipherOptions) -> Void)
        -> @Sendable (inout DatabaseConfiguration) -> Void
    {
        { configuration in
            configuration.cipher = CipherOptions()
            change(&configuration.cipher)
        }
    }

    // MARK: kdf_iter

    static let kdfRanges: [BadInput] = {
        var cases: [BadInput] = []
        let belowFloor: [(String, Int)] = [("1", 1), ("4000 (SQLCipher 2)", 4000), ("63999", 63_999)]
        let nonPositive: [(String, Int)] = [("0", 0), ("-1", -1), ("Int.min", Int.min)]
        for (label, value) in nonPositive {
            cases.append(
                BadInput(
                    name: "create, kdfIterations \(label)", expected: "invalidOption", mentions: "at least 1",
                    arrange: { _ in }, act: { try $0.create(secret, configure: strict { $0.kdfIterations = value }) }))
        }
        for (label, value) in belowFloor {
            cases.append(
                BadInput(
                    name: "create, kdfIterations \(label) without the legacy opt-in", expected: "invalidOption",
                    mentions: "below the floor of 64000", arrange: { _ in },
                    act: { try $0.create(secret, configure: strict { $0.kdfIterations = value }) }))
        }
        cases.append(
            BadInput(
                name: "create, kdfIterations 10000001", expected: "invalidOption", mentions: "ceiling of 10000000",
                arrange: { _ in }, act: { try $0.create(secret, configure: strict { $0.kdfIterations = 10_000_001 }) }))
        for (label, value) in wrapping {
            cases.append(
                BadInput(
                    name: "create, kdfIterations \(label)", expected: "invalidOption", mentions: "ceiling",
                    arrange: { _ in }, act: { try $0.create(secret, configure: strict { $0.kdfIterations = value }) }))
            // The legacy opt-in lowers the floor, never the ceiling.
            cases.append(
                BadInput(
                    name: "create, kdfIterations \(label), legacy opt-in", expected: "invalidOption",
                    mentions: "ceiling", arrange: { _ in },
                    act: { try $0.create(secret) { $0.cipher.kdfIterations = value } }))
            cases.append(
                BadInput(
                    name: "open, kdfIterations \(label)", expected: "invalidOption", mentions: "ceiling",
                    arrange: { try $0.makeEncrypted() },
                    act: { try $0.open(secret) { $0.cipher.kdfIterations = value } }))
        }
        cases.append(
            BadInput(
                name: "open a 4000-iteration file without the legacy opt-in", expected: "invalidOption",
                mentions: "allowsLegacyKDFIterations", arrange: { try $0.makeEncrypted() },
                act: { try $0.open(secret, configure: strict { $0.kdfIterations = 4000 }) }))
        cases.append(
            BadInput(
                name: "create, kdfIterations 0, legacy opt-in", expected: "invalidOption", mentions: "at least 1",
                arrange: { _ in }, act: { try $0.create(secret) { $0.cipher.kdfIterations = 0 } }))
        return cases
    }()

    // MARK: Page size and compatibility

    static let otherRanges: [BadInput] = {
        let pageSizes: [(String, Int)] = [
            ("0", 0), ("-1024", -1024), ("1023", 1023), ("3000", 3000), ("131072", 131_072),
            ("2^32 + 512 (wraps to 512)", (1 << 32) + 512), ("2^32 + 4096", (1 << 32) + 4096), ("Int.max", Int.max),
        ]
        let compatibilities: [(String, Int)] = [("0", 0), ("5", 5), ("-1", -1), ("2^32 + 3", (1 << 32) + 3)]
        return pageSizes.map { label, value in
            BadInput(
                name: "create, pageSize \(label)", expected: "invalidOption", mentions: "power of two from 512 to 65536",
                arrange: { _ in }, act: { try $0.create(secret) { $0.cipher.pageSize = value } })
        }
            + compatibilities.map { label, value in
                BadInput(
                    name: "create, compatibility \(label)", expected: "invalidOption", mentions: "must be 1 to 4",
                    arrange: { _ in }, act: { try $0.create(secret) { $0.cipher.compatibility = value } })
            }
    }()

    // MARK: Rekey and encrypt: the settings of the new file

    static let rangesInOtherFlows: [BadInput] = [
        BadInput(
            name: "rekey to kdfIterations 2^32", expected: "invalidOption", mentions: "ceiling", leavesManagerClosed: false,
            arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret).rekey(to: .password("new-secret"), options: CipherOptions(kdfIterations: 1 << 32)) }),
        BadInput(
            name: "rekey to kdfIterations 2^31 - 1", expected: "invalidOption", mentions: "ceiling", leavesManagerClosed: false,
            arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret).rekey(to: .password(secret), options: CipherOptions(kdfIterations: Int(Int32.max))) }),
        BadInput(
            name: "rekey to kdfIterations 4000 without the legacy opt-in", expected: "invalidOption", mentions: "floor",
            leavesManagerClosed: false, arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret).rekey(to: .password(secret), options: CipherOptions(kdfIterations: 4000)) }),
        BadInput(
            name: "rekey to pageSize 2^32 + 1024", expected: "invalidOption", mentions: "power of two",
            leavesManagerClosed: false, arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret).rekey(to: .password(secret), options: .fast(pageSize: (1 << 32) + 1024)) }),
        BadInput(
            name: "raw-key rekey to kdfIterations 2^32", expected: "invalidOption", leavesManagerClosed: false,
            arrange: { try $0.makeEncrypted() },
            act: { try $0.open(secret).rekey(to: .rawKey(Data(repeating: 9, count: 32)), options: CipherOptions(kdfIterations: 1 << 32)) }),
        BadInput(
            name: "encrypt with kdfIterations 2^32", expected: "invalidOption", mentions: "ceiling",
            arrange: { try Fixture.makePlaintextDatabase(at: $0.url) },
            act: { scene in
                try DatabaseTools.encryptPlaintextDatabase(
                    at: scene.url, password: "new-secret",
                    configuration: DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 1 << 32)))
            }),
        BadInput(
            name: "encrypt with kdfIterations 4000 without the legacy opt-in", expected: "invalidOption", mentions: "floor",
            arrange: { try Fixture.makePlaintextDatabase(at: $0.url) },
            act: { scene in
                try DatabaseTools.encryptPlaintextDatabase(
                    at: scene.url, to: scene.dir.file("out.db"), password: "new-secret",
                    configuration: DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 4000)))
            }),
    ]
}

// MARK: - Wrong diagnoses (item 7)

extension HostileInputs {
    /// A real plaintext header (from a database SQLite wrote), then `change` applied.
    static func plaintextHeader(_ change: (inout [UInt8]) -> Void = { _ in }) throws -> Data {
        let dir = TemporaryDirectory()
        try Fixture.makePlaintextDatabase(at: dir.file("plain.db"))
        var header = Array(Fixture.bytes(dir.file("plain.db")).prefix(100))
        change(&header)
        return Data(header)
    }

    private static func open(_ bytes: @escaping @Sendable () throws -> Data, name: String, mentions: String) -> [BadInput] {
        [
            BadInput(
                name: "open: \(name)", expected: "notADatabase", mentions: mentions,
                arrange: { try bytes().write(to: $0.url) }, act: { try $0.open(secret) }),
            BadInput(
                name: "encrypt: \(name)", expected: "notADatabase", mentions: mentions,
                arrange: { try bytes().write(to: $0.url) }, act: { try $0.encrypt("new-secret") }),
            BadInput(
                name: "open, adopting plaintext: \(name)", expected: "notADatabase", mentions: mentions,
                arrange: { try bytes().write(to: $0.url) },
                act: { try $0.open(secret) { $0.adoptsPlaintextDatabase = true } }),
        ]
    }

    /// Files that start with `"SQLite format 3\0"` but are not databases: "not a database",
    /// never "plaintext, encrypt it first".
    static let headers: [BadInput] =
        open({ Data(DatabaseFile.plaintextHeader) }, name: "the 16-byte header alone", mentions: "shorter than a 100-byte")
        + open(
            { Data(DatabaseFile.plaintextHeader) + Data(repeating: 0, count: 84) }, name: "header and 84 zero bytes",
            mentions: "page size field (0)")
        + open(
            { Data(DatabaseFile.plaintextHeader) + Data((0..<4080).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }) },
            name: "header and 4080 bytes of garbage", mentions: "not a power of two")
        + open({ try plaintextHeader() }, name: "a real header cut to 100 bytes", mentions: "less than its first page")
        + open(
            {
                try plaintextHeader {
                    $0[16] = 0x03
                    $0[17] = 0xE8
                } + Data(count: 3996)
            }, name: "page size field 1000",
            mentions: "page size field (1000)")
        + open(
            { try plaintextHeader { $0[21] = 0 } + Data(count: 4000) }, name: "payload fractions not 64/32/32",
            mentions: "rest of the header is not SQLite's")

    static let sizesAndPaths: [BadInput] = [
        BadInput(
            name: "truncated to 512 bytes, right password", expected: "notADatabase", mentions: "truncated",
            arrange: { scene in
                try scene.makeEncrypted(rows: 300)
                try scene.edit { $0 = $0.prefix(512) }
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "truncated to 512 bytes, page size 4096", expected: "notADatabase", mentions: "less than one 4096-byte page",
            arrange: { scene in
                try scene.makeEncrypted(rows: 300)
                try scene.edit { $0 = $0.prefix(512) }
            }, act: { try $0.open(secret) { $0.cipher.pageSize = 4096 } }),
        BadInput(
            name: "create through a file", expected: "invalidPath", mentions: "is a file, not a directory",
            arrange: { scene in
                try scene.makeEncrypted(at: scene.dir.file("enc.db"))
                scene.url = scene.dir.file("enc.db").appendingPathComponent("sub.db")
            }, act: { try $0.create(secret) }),
        BadInput(
            name: "open through a file", expected: "invalidPath", mentions: "is a file, not a directory",
            arrange: { scene in
                try scene.makeEncrypted(at: scene.dir.file("enc.db"))
                scene.url = scene.dir.file("enc.db").appendingPathComponent("sub.db")
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "encrypt through a file", expected: "invalidPath", mentions: "is a file, not a directory",
            arrange: { scene in
                try Fixture.makePlaintextDatabase(at: scene.dir.file("plain.db"))
                scene.url = scene.dir.file("plain.db").appendingPathComponent("sub.db")
            }, act: { try $0.encrypt("new-secret") }),
        BadInput(
            name: "open a 4,200-byte path", expected: "invalidPath", mentions: "too long",
            arrange: { scene in
                let deep = Array(repeating: String(repeating: "d", count: 200), count: 21).joined(separator: "/")
                scene.url = scene.dir.url.appendingPathComponent(deep).appendingPathComponent("test.db")
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "open an existing database at a path too long for SQLite", expected: "invalidPath",
            mentions: "too long for SQLite",
            arrange: { scene in
                let deep = Array(repeating: String(repeating: "e", count: 120), count: 5).joined(separator: "/")
                let directory = scene.dir.url.appendingPathComponent(deep)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Fixture.makeEncryptedDatabase(at: scene.dir.file("short.db"))
                scene.url = directory.appendingPathComponent("test.db")
                try FileManager.default.moveItem(at: scene.dir.file("short.db"), to: scene.url)
            }, act: { try $0.open(secret) }),
        BadInput(
            name: "create at a path too long for SQLite", expected: "invalidPath", mentions: "too long for SQLite",
            arrange: { scene in
                let deep = Array(repeating: String(repeating: "f", count: 120), count: 5).joined(separator: "/")
                let directory = scene.dir.url.appendingPathComponent(deep)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                scene.url = directory.appendingPathComponent("test.db")
            }, act: { try $0.create(secret) }),
        BadInput(
            name: "a loop of symbolic links", expected: "invalidPath", mentions: "loop",
            arrange: { scene in
                try FileManager.default.createSymbolicLink(atPath: scene.url.path, withDestinationPath: scene.dir.file("b.db").path)
                try FileManager.default.createSymbolicLink(atPath: scene.dir.file("b.db").path, withDestinationPath: scene.url.path)
            }, act: { try $0.open(secret) }),
    ]

    /// Errors met by a query after a good open, said like the same error at open: the path and what to do.
    static let queries: [BadInput] = {
        let damaged: @Sendable (Scene) throws -> Void = { scene in
            try scene.makeEncrypted(rows: 500 * LinkedFormat.pageSize / 1024)
            try scene.edit { $0[3 * LinkedFormat.pageSize + 200] ^= 0x01 }
        }
        let flows: [(String, @Sendable (DatabaseManager) throws -> Void)] = [
            ("execute", { try $0.execute("UPDATE item SET name = name || 'x'") }),
            ("scalar", { _ = try $0.scalar(Int.self, "SELECT sum(length(name)) FROM item") }),
            ("fetchOne", { _ = try $0.fetchOne("SELECT * FROM item ORDER BY name DESC") }),
            ("transaction", { manager in try manager.transactionSync { _ = try $0.fetchAll("SELECT * FROM item") } }),
            ("withDatabase", { manager in try manager.withDatabase { _ = try $0.fetchAll("SELECT * FROM item") } }),
        ]
        let locked: [BadInput] = [
            BadInput(
                name: "exclusive lock held by another connection: read", expected: "busy", mentions: "busyTimeout",
                leavesManagerClosed: false,
                arrange: { try $0.makeEncrypted() },
                act: { scene in
                    let manager = try scene.open(secret) { $0.busyTimeout = .milliseconds(100) }
                    try scene.holdLock("BEGIN EXCLUSIVE")
                    _ = try manager.fetchAll("SELECT * FROM item")
                }),
            BadInput(
                name: "write lock held by another connection: immediate transaction", expected: "busy", mentions: "locked",
                leavesManagerClosed: false,
                arrange: { scene in
                    try scene.makeEncrypted()
                    try scene.holdLock("BEGIN IMMEDIATE")
                },
                act: { try $0.open(secret) { $0.busyTimeout = .milliseconds(100) }.transactionSync(.immediate) { _ in } }),
        ]
        return flows.map { name, flow in
            BadInput(
                name: "damaged data page met by \(name)", expected: "corrupt", mentions: "Restore it from a backup",
                leavesManagerClosed: false, arrange: damaged, act: { try flow(try $0.open(secret)) })
        } + locked
    }()
}

// MARK: - The runner

@Suite(.ownThread) struct HostileInputTests {
    @Test func theTableIsLargeEnoughAndNamesAreUnique() {
        #expect(HostileInputs.cases.count >= 75)
        #expect(Set(HostileInputs.cases.map(\.name)).count == HostileInputs.cases.count, "case names must be unique")
    }

    @Test(arguments: HostileInputs.cases)
    func hostileInput(_ input: BadInput) throws {
        try input.run()
    }

    /// The edges of the ranges are accepted: the floor, the ceiling, 1 with the legacy opt-in.
    @Test func theRangesIncludeTheirEdges() throws {
        try CipherOptions(kdfIterations: CipherOptions.minimumKDFIterations).validateValues()
        try CipherOptions(kdfIterations: CipherOptions.maximumKDFIterations).validateValues()
        try CipherOptions(kdfIterations: 1, allowsLegacyKDFIterations: true).validateValues()
        try CipherOptions(pageSize: 512).validateValues()
        try CipherOptions(pageSize: 65536).validateValues()
        #expect(CipherOptions.maximumKDFIterations < Int(Int32.max))
    }

    /// A real user's new database at the floor opens, and reads back the floor (not a wrapped value).
    @Test func aDatabaseAtTheFloorIsCreatedWithoutTheOptIn() throws {
        let dir = TemporaryDirectory()
        let manager = DatabaseManager(
            url: dir.file(),
            configuration: DatabaseConfiguration(
                cipher: CipherOptions(kdfIterations: CipherOptions.minimumKDFIterations)))
        try manager.create(password: "secret")
        #expect(try manager.cipherInfo.settings.kdfIterations == CipherOptions.minimumKDFIterations)
    }
}
