import Foundation
import TestSupport
import Testing

/// Once a command is done, no copy of a password it read is left in
/// cipherdb's memory. cipherdb pauses before exit (`CIPHERDB_TEST_PAUSE_BEFORE_EXIT`), and the
/// test reads every mapped region of it through `/proc/<pid>/mem` and looks for the bytes.
@Suite(
    .enabled(
        if: !ProcessMemory.isSanitizerBuild,
        "a sanitizer build maps terabytes of shadow memory: reading cipherdb's whole memory would not fit"),
    .ownThread
) struct CipherDBSecretMemoryTests: UsesCipherDB {
    let cli: CipherDBFixture
    init() throws { cli = try CipherDBFixture() }

    static let oldPassword = "MemProbe-old-4c1f9a7e"
    static let newPassword = "MemProbe-new-b83d0e52"

    /// Runs cipherdb with `stdin`, and when it pauses before exit, the passwords of `secrets`
    /// found in its memory (with how many copies), and its exit status.
    func secretsLeft(_ arguments: [String], stdin: String, secrets: [String]) throws -> (status: Int32, found: [String: Int]) {
        let marker = directory.url.appendingPathComponent("paused").path
        let running = try Program.start(
            "cipherdb", arguments, in: directory.url, environment: ["CIPHERDB_TEST_PAUSE_BEFORE_EXIT": marker])
        running.send(stdin)
        running.closeInput()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: marker) {
            try #require(Date() < deadline && running.process.isRunning, "cipherdb did not pause before exit")
            usleep(10_000)
        }
        let status =
            Int32(
                String(decoding: FileManager.default.contents(atPath: marker) ?? Data(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        let memory = try ProcessMemory(pid: running.process.processIdentifier)
        try FileManager.default.removeItem(atPath: marker)
        _ = try running.wait()
        var found: [String: Int] = [:]
        for secret in secrets {
            let count = memory.occurrences(of: Array(secret.utf8))
            if count > 0 { found[secret] = count }
        }
        #expect(memory.bytesRead > 1_000_000, "too little memory was read to tell: \(memory.bytesRead) bytes")
        // The search sees what is there: the command line is in memory until exit.
        #expect(memory.occurrences(of: Array("--legacy-kdf".utf8)) > 0, "the memory read misses the arguments")
        return (status, found)
    }

    @Test func aWrongPasswordIsNotLeftInMemory() throws {
        try cli.createDatabase("CREATE TABLE t(x)")
        let (status, found) = try secretsLeft(["verify", "db.db"] + fast, stdin: Self.oldPassword + "\n", secrets: [Self.oldPassword])
        #expect(status == 3)
        #expect(found.isEmpty, "copies left in memory: \(found)")
    }

    @Test func neitherPasswordOfARekeyIsLeftInMemory() throws {
        let create = try cli(["create", "db.db"] + fast, stdin: Self.oldPassword + "\n")
        try #require(create.status == 0, "\(create.output)")
        let (status, found) = try secretsLeft(
            ["rekey", "db.db"] + fast, stdin: Self.oldPassword + "\n" + Self.newPassword + "\n",
            secrets: [Self.oldPassword, Self.newPassword])
        #expect(status == 0)
        #expect(found.isEmpty, "copies left in memory: \(found)")
        #expect(try cli(["verify", "db.db"] + fast, stdin: Self.newPassword + "\n").status == 0)
    }

    /// The key-slot commands hand the library `SecretBytes` too: no `String` of either password.
    @Test func neitherPasswordOfAKeySlotChangeIsLeftInMemory() throws {
        let create = try cli(["keys", "db.db", "create"] + fast, stdin: Self.oldPassword + "\n")
        try #require(create.status == 0, "\(create.output)")
        let (status, found) = try secretsLeft(
            ["keys", "db.db", "change-password"] + fast, stdin: Self.oldPassword + "\n" + Self.newPassword + "\n",
            secrets: [Self.oldPassword, Self.newPassword])
        #expect(status == 0)
        #expect(found.isEmpty, "copies left in memory: \(found)")
        let (added, foundAdd) = try secretsLeft(
            ["keys", "db.db", "add-password"] + fast, stdin: Self.newPassword + "\n" + Self.oldPassword + "\n",
            secrets: [Self.oldPassword, Self.newPassword])
        #expect(added == 0)
        #expect(foundAdd.isEmpty, "copies left in memory after add-password: \(foundAdd)")
        #expect(try cli(["verify", "db.db"] + fast, stdin: Self.oldPassword + "\n").status == 0)
    }
}

/// Every readable mapped region of a process (`/proc/<pid>/maps`), read through
/// `/proc/<pid>/mem` while it is paused.
struct ProcessMemory {
    /// `true` in a ThreadSanitizer or AddressSanitizer build (`make sanitize`), whose shadow
    /// memory is one mapping of more than a tebibyte; the programs it runs are built the same way.
    static let isSanitizerBuild: Bool = {
        guard let maps = try? ProcFile.text("/proc/self/maps") else { return false }
        return maps.split(separator: "\n").contains { line in
            let range = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt64($0, radix: 16) }
            return range.count == 2 && range[1] - range[0] > 1 << 40
        }
    }()

    private(set) var regions: [[UInt8]] = []
    var bytesRead: Int { regions.reduce(0) { $0 + $1.count } }

    init(pid: Int32) throws {
        let maps = try ProcFile.text("/proc/\(pid)/maps")
        let mem = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/mem"))
        defer { try? mem.close() }
        for line in maps.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("r"), !line.hasSuffix("[vvar]") else { continue }
            let range = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            guard range.count == 2 else { continue }
            do {
                try mem.seek(toOffset: range[0])
                if let data = try mem.read(upToCount: Int(range[1] - range[0])) { regions.append(Array(data)) }
            } catch {
                continue  // a region that cannot be read (a guard page)
            }
        }
    }

    func occurrences(of needle: [UInt8]) -> Int {
        guard let first = needle.first else { return 0 }
        var count = 0
        for region in regions where region.count >= needle.count {
            region.withUnsafeBufferPointer { bytes in
                var index = 0
                while index <= bytes.count - needle.count {
                    if bytes[index] == first, needle.indices.allSatisfy({ bytes[index + $0] == needle[$0] }) { count += 1 }
                    index += 1
                }
            }
        }
        return count
    }
}
