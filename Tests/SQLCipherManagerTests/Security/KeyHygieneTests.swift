import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Passwords and keys never show up in descriptions, debug descriptions, `dump()`, errors or
/// what the delegate hears; key buffers are zeroed when they are released.
@Suite(.ownThread) struct KeyHygieneTests {
    static let password = "hunter2-Kx9-unique-password"
    static let newPassword = "rekeyed-Qz7-unique-password"
    static let rawKey = Data((0..<32).map { UInt8(0xA0 + $0 % 16) ^ UInt8($0) })

    // MARK: - Text

    /// Every way a value can be turned into text: description, debug description, `dump()`.
    private func renderings(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        return [String(describing: value), String(reflecting: value), dumped]
    }

    /// Fails when `text` holds a secret: as text, as lowercase or uppercase hex, or as the run of
    /// decimal byte values that `dump()` prints for byte collections.
    private func expectNoSecret(in text: String, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in [Data(Self.password.utf8), Data(Self.newPassword.utf8), Self.rawKey] {
            let hex = secret.map { String(format: "%02x", $0) }.joined()
            let plain = String(decoding: secret, as: UTF8.self)
            #expect(!text.contains(plain) || secret == Self.rawKey, "\(context) shows a secret", sourceLocation: sourceLocation)
            #expect(!text.lowercased().contains(hex), "\(context) shows a secret in hex", sourceLocation: sourceLocation)
            let numbers = text.split { !$0.isNumber }.compactMap { Int($0) }
            let bytes = secret.map(Int.init)
            let found =
                numbers.count >= bytes.count
                && (0...(numbers.count - bytes.count)).contains { Array(numbers[$0..<($0 + bytes.count)]) == bytes }
            #expect(!found, "\(context) shows a secret as byte values", sourceLocation: sourceLocation)
        }
    }

    @Test func anOpenManagerItsConfigurationAndItsCachedKeyShowNoSecret() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: Self.password)
        try manager.execute("CREATE TABLE t(x)")
        let raw = dir.manager("raw.db")
        try raw.create(.rawKey(Self.rawKey))
        for (name, value) in [
            ("manager", manager as Any), ("raw-key manager", raw), ("configuration", manager.configuration),
            ("cached key", manager.cachedKey as Any), ("raw cached key", raw.cachedKey as Any),
        ] {
            for text in renderings(value) { expectNoSecret(in: text, name) }
        }
        #expect(manager.hasCachedKey && raw.hasCachedKey, "the test must look at managers that hold a key")
    }

    @Test func errorsAndDelegateEventsShowNoSecret() throws {
        let dir = TemporaryDirectory()
        _ = try Fixture.makeEncryptedDatabase(in: dir, password: "the-real-one")
        let delegate = DescribingDelegate()
        let manager = dir.manager()
        manager.delegate = delegate
        var errors: [any Error] = []
        func collect(_ body: () throws -> Void) {
            if let error = thrownError(body) { errors.append(error) }
        }
        collect { try manager.open(password: Self.password) }
        collect { try manager.open(.rawKey(Self.rawKey)) }
        let missing = dir.manager("missing.db")
        missing.delegate = delegate
        collect { try missing.open(password: Self.password) }
        collect { try DatabaseTools.encryptPlaintextDatabase(at: dir.file(), password: Self.password) }
        try manager.open(password: "the-real-one")
        collect { try manager.rekey(to: .password(Self.newPassword), options: CipherOptions(pageSize: 1000)) }
        collect { try manager.transactionSync { _ in try manager.rekey(to: .password(Self.newPassword)) } }
        try manager.rekey(to: .password(Self.newPassword))
        manager.close()
        collect { try manager.open(password: Self.password) }
        #expect(errors.count == 7)
        for error in errors {
            for text in renderings(error) + [error.localizedDescription] { expectNoSecret(in: text, "\(error)") }
        }
        #expect(!delegate.descriptions.isEmpty)
        for text in delegate.descriptions { expectNoSecret(in: text, "a delegate event") }
    }

    // MARK: - Zeroing

    /// Key bytes bound to `ATTACH … KEY ?` are read by SQLite from our buffer, which is wiped
    /// later; a copy in SQLite's heap would be freed without wiping. Changing the buffer after
    /// binding changes what the statement sees, so SQLite kept no copy.
    @Test func boundKeyBytesAreNotCopiedBySQLite() throws {
        let connection = try Connection(path: ":memory:", mode: .readWriteCreate)
        defer { connection.close() }
        let statement = try connection.prepare("SELECT ?")
        var bytes = Array("bound-first".utf8)
        try bytes.withUnsafeMutableBytes { buffer in
            defer { statement.clearBindings() }
            try statement.bind(secret: UnsafeRawBufferPointer(buffer), at: 1)
            buffer.copyBytes(from: Array("then-zeroed".utf8))
            #expect(try statement.step())
            #expect(statement.value(at: 0) == .blob(Data("then-zeroed".utf8)))
        }
    }

    /// Records what a key buffer held when it was released.
    final class WipeWitness: @unchecked Sendable {
        private let lock = NSLock()
        private var _wiped: [[UInt8]] = []
        var wiped: [[UInt8]] { lock.withLock { _wiped } }

        func watch(_ secret: SecretBytes?) {
            secret?.wipeObserver = { bytes in self.lock.withLock { self._wiped.append(Array(bytes)) } }
        }

        /// Exactly one buffer was released, of `count` bytes, and it held only zeros.
        func expectOneZeroedBuffer(of count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(wiped.count == 1, sourceLocation: sourceLocation)
            #expect(wiped.first?.count == count, sourceLocation: sourceLocation)
            #expect(wiped.first?.allSatisfy { $0 == 0 } == true, sourceLocation: sourceLocation)
        }
    }

    @Test func aSecretIsZeroedWhenReleased() {
        let witness = WipeWitness()
        do {
            let secret = SecretBytes(password: Self.password)
            secret.withBytes { #expect(Array($0) == Array(Self.password.utf8)) }
            witness.watch(secret)
        }
        witness.expectOneZeroedBuffer(of: Self.password.utf8.count)
    }

    /// A manager released without a close zeroes its key too (its connections close in deinit).
    @Test func theCachedKeyIsZeroedWhenTheManagerIsReleased() throws {
        let dir = TemporaryDirectory()
        let witness = WipeWitness()
        try {
            let manager = dir.manager()
            try manager.create(password: Self.password)
            witness.watch(manager.cachedKey)
        }()
        witness.expectOneZeroedBuffer(of: Self.password.utf8.count)
    }

    /// The ways a manager lets go of its cached key.
    enum KeyRelease: String, CaseIterable, Sendable {
        case close
        case lock
        case rekey
        /// Close a database opened with a raw key, then open another one with a password.
        case rawKeyThenAnotherDatabase
    }

    @Test(arguments: KeyRelease.allCases)
    func theReleasedCachedKeyIsZeroed(_ release: KeyRelease) throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        if release == .rawKeyThenAnotherDatabase {
            try manager.create(.rawKey(Self.rawKey))
        } else {
            try manager.create(password: Self.password)
        }
        let witness = WipeWitness()
        witness.watch(manager.cachedKey)
        switch release {
        case .close:
            manager.close()
            #expect(!manager.hasCachedKey && manager.derivedKey == nil)
        case .lock:
            manager.close(forgettingKey: false)
            #expect(manager.hasCachedKey)
            manager.close(forgettingKey: true)
            #expect(!manager.hasCachedKey)
        case .rekey:
            try manager.rekey(to: .password(Self.newPassword))
            #expect(manager.isCurrentPassword(Self.newPassword))
        case .rawKeyThenAnotherDatabase:
            manager.close()
            try dir.manager("other.db").create(password: Self.password)
            manager.databaseURL = dir.file("other.db")
            try manager.open(password: Self.password)
        }
        // A raw key is kept in SQLCipher's x'<64 hex>' form: 67 bytes.
        witness.expectOneZeroedBuffer(of: release == .rawKeyThenAnotherDatabase ? 67 : Self.password.utf8.count)
    }
}

/// A delegate that keeps the full text of every error it hears.
final class DescribingDelegate: DatabaseManagerDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var _descriptions: [String] = []
    var descriptions: [String] { lock.withLock { _descriptions } }

    private func record(_ error: DatabaseManagerError) {
        var dumped = ""
        dump(error, to: &dumped)
        lock.withLock { _descriptions += ["\(error)", String(reflecting: error), dumped] }
    }

    func databaseManager(_ manager: DatabaseManager, didFailToRekey error: DatabaseManagerError) { record(error) }
    func databaseManager(_ manager: DatabaseManager, didFail error: DatabaseManagerError) { record(error) }
}
