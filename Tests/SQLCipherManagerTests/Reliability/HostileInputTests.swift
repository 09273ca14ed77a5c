import Foundation
import Testing
@testable import SQLCipherManager

// MARK: - The hostile-input table (issue 16)

/// Numbers that wrap in SQLCipher's 32-bit `int`, passwords that collide, and files that get
/// the wrong diagnosis. Each case runs through ``BadInput/run()``: the typed error, a message
/// that says what to do and holds no password, every file byte-identical, no leftovers.
enum HostileInputs {
    static let cases: [BadInput] = kdfRanges + otherRanges + rangesInOtherFlows

    private static let secret = "secret"

    /// Values SQLCipher 3.4.1 reads as a 32-bit `int` (`atoi`): 2³² becomes 0 (no key
    /// stretching at all), 2³² + 64000 becomes 64000, 2³¹ − 1 runs PBKDF2 for minutes.
    static let wrapping: [(String, Int)] = [
        ("2^31 - 1", Int(Int32.max)), ("2^31", 1 << 31), ("2^32", 1 << 32), ("2^32 + 64000", (1 << 32) + 64000),
        ("Int.max", Int.max),
    ]

    /// The options of a real user: no legacy opt-in.
    private static func strict(_ change: @escaping @Sendable (inout CipherOptions) -> Void) -> @Sendable (inout DatabaseConfiguration) -> Void {
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
            cases.append(BadInput(name: "create, kdfIterations \(label)", expected: "invalidOption", mentions: "at least 1",
                                  arrange: { _ in }, act: { try $0.create(secret, configure: strict { $0.kdfIterations = value }) }))
        }
        for (label, value) in belowFloor {
            cases.append(BadInput(name: "create, kdfIterations \(label) without the legacy opt-in", expected: "invalidOption",
                                  mentions: "below the floor of 64000", arrange: { _ in },
                                  act: { try $0.create(secret, configure: strict { $0.kdfIterations = value }) }))
        }
        cases.append(BadInput(name: "create, kdfIterations 10000001", expected: "invalidOption", mentions: "ceiling of 10000000",
                              arrange: { _ in }, act: { try $0.create(secret, configure: strict { $0.kdfIterations = 10_000_001 }) }))
        for (label, value) in wrapping {
            cases.append(BadInput(name: "create, kdfIterations \(label)", expected: "invalidOption", mentions: "ceiling",
                                  arrange: { _ in }, act: { try $0.create(secret, configure: strict { $0.kdfIterations = value }) }))
            // The legacy opt-in lowers the floor, never the ceiling.
            cases.append(BadInput(name: "create, kdfIterations \(label), legacy opt-in", expected: "invalidOption",
                                  mentions: "ceiling", arrange: { _ in },
                                  act: { try $0.create(secret) { $0.cipher.kdfIterations = value } }))
            cases.append(BadInput(name: "open, kdfIterations \(label)", expected: "invalidOption", mentions: "ceiling",
                                  arrange: { try $0.makeEncrypted() },
                                  act: { try $0.open(secret) { $0.cipher.kdfIterations = value } }))
        }
        cases.append(BadInput(name: "open a 4000-iteration file without the legacy opt-in", expected: "invalidOption",
                              mentions: "allowsLegacyKDFIterations", arrange: { try $0.makeEncrypted() },
                              act: { try $0.open(secret, configure: strict { $0.kdfIterations = 4000 }) }))
        cases.append(BadInput(name: "create, kdfIterations 0, legacy opt-in", expected: "invalidOption", mentions: "at least 1",
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
            BadInput(name: "create, pageSize \(label)", expected: "invalidOption", mentions: "power of two from 512 to 65536",
                     arrange: { _ in }, act: { try $0.create(secret) { $0.cipher.pageSize = value } })
        } + compatibilities.map { label, value in
            BadInput(name: "create, compatibility \(label)", expected: "invalidOption", mentions: "must be 1 to 4",
                     arrange: { _ in }, act: { try $0.create(secret) { $0.cipher.compatibility = value } })
        }
    }()

    // MARK: Rekey and encrypt: the settings of the new file

    static let rangesInOtherFlows: [BadInput] = [
        BadInput(name: "rekey to kdfIterations 2^32", expected: "invalidOption", mentions: "ceiling", leavesManagerClosed: false,
                 arrange: { try $0.makeEncrypted() },
                 act: { try $0.open(secret).rekey(to: "new-secret", options: CipherOptions(kdfIterations: 1 << 32)) }),
        BadInput(name: "rekey to kdfIterations 2^31 - 1", expected: "invalidOption", mentions: "ceiling", leavesManagerClosed: false,
                 arrange: { try $0.makeEncrypted() },
                 act: { try $0.open(secret).rekey(to: secret, options: CipherOptions(kdfIterations: Int(Int32.max))) }),
        BadInput(name: "rekey to kdfIterations 4000 without the legacy opt-in", expected: "invalidOption", mentions: "floor",
                 leavesManagerClosed: false, arrange: { try $0.makeEncrypted() },
                 act: { try $0.open(secret).rekey(to: secret, options: CipherOptions(kdfIterations: 4000)) }),
        BadInput(name: "rekey to pageSize 2^32 + 1024", expected: "invalidOption", mentions: "power of two",
                 leavesManagerClosed: false, arrange: { try $0.makeEncrypted() },
                 act: { try $0.open(secret).rekey(to: secret, options: .fast(pageSize: (1 << 32) + 1024)) }),
        BadInput(name: "raw-key rekey to kdfIterations 2^32", expected: "invalidOption", leavesManagerClosed: false,
                 arrange: { try $0.makeEncrypted() },
                 act: { try $0.open(secret).rekey(toRawKey: Data(repeating: 9, count: 32), options: CipherOptions(kdfIterations: 1 << 32)) }),
        BadInput(name: "encrypt with kdfIterations 2^32", expected: "invalidOption", mentions: "ceiling",
                 arrange: { try Fixture.makePlaintextDatabase(at: $0.url) },
                 act: { scene in
                     try DatabaseManager.encryptPlaintextDatabase(
                         at: scene.url, password: "new-secret",
                         configuration: DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 1 << 32)))
                 }),
        BadInput(name: "encrypt with kdfIterations 4000 without the legacy opt-in", expected: "invalidOption", mentions: "floor",
                 arrange: { try Fixture.makePlaintextDatabase(at: $0.url) },
                 act: { scene in
                     try DatabaseManager.encryptPlaintextDatabase(
                         at: scene.url, to: scene.dir.file("out.db"), password: "new-secret",
                         configuration: DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 4000)))
                 }),
    ]
}

// MARK: - The runner

@Suite struct HostileInputTests {
    @Test func theTableIsLargeEnoughAndNamesAreUnique() {
        #expect(HostileInputs.cases.count >= 40)
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
        let manager = DatabaseManager(url: dir.file(), configuration: DatabaseConfiguration(
            cipher: CipherOptions(kdfIterations: CipherOptions.minimumKDFIterations)))
        try manager.create(password: "secret")
        #expect(try manager.cipherSettings().kdfIterations == CipherOptions.minimumKDFIterations)
    }
}
