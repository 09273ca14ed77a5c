import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// The shared instance is process-wide: these tests run one at a time and restore it.
@Suite(.serialized, .ownThread) struct SharedManagerTests {
    /// Runs `body` with the shared instance, then closes it and restores its defaults.
    static func restoringShared(_ body: (DatabaseManager) throws -> Void) rethrows {
        let shared = DatabaseManager.shared
        defer {
            shared.close(forgettingKey: true)
            shared.databaseURL = nil
            shared.delegate = nil
            shared.schemaMigrator = nil
            shared.configuration = DatabaseConfiguration()
        }
        try body(shared)
    }

    @Test func sharedManagerCreatesAndOpens() throws {
        try Self.restoringShared { shared in
            let dir = TemporaryDirectory()
            #expect(throws: DatabaseManagerError.notConfigured) { try shared.open(password: "secret") }
            shared.databaseURL = dir.file()
            shared.configuration.cipher = .fast()
            let delegate = RecordingDelegate()
            shared.delegate = delegate
            #expect(!shared.databaseExists)
            try shared.create(password: "secret")
            #expect(shared.databaseExists)
            shared.close()
            try shared.open(password: "secret")
            #expect(delegate.events == [.didCreate, .didClose, .didForgetKey, .didOpen])
            #expect(DatabaseManager.shared === shared)
        }
    }

    @Test func sharedManagerIsClosedAfterThePreviousTest() {
        #expect(!DatabaseManager.shared.isOpen)
        #expect(DatabaseManager.shared.databaseURL == nil)
    }
}
