import Foundation
import SQLCipherManager
import Testing

/// A view model isolated to the main actor, as an app writes it in Swift 6 mode: no
/// `@unchecked`, no `@preconcurrency`. It cannot be a delegate (called on the manager's
/// threads), so it reads `events()`.
// README begin
@MainActor
final class NotesViewModel {
    private(set) var log: [DatabaseEvent] = []
    private(set) var status = "locked"

    /// Subscribes now (so no event is missed) and handles `count` events on the main actor.
    func watch(_ manager: DatabaseManager, count: Int) -> Task<Void, Never> {
        let events = manager.events()
        return Task { @MainActor in
            for await event in events {
                log.append(event)
                if case .didOpen = event { status = "unlocked" }
                if case .didCreate = event { status = "unlocked" }
                if case .didClose = event { status = "locked" }  // close() or close(forgettingKey:)
                if log.count == count { break }
            }
        }
    }
}
// README end

@Suite("Events as an AsyncSequence, for a @MainActor view model")
struct EventStreamTests {
    @Test @MainActor func mainActorViewModelSeesEventsInOrder() async throws {
        let dir = TemporaryDirectory()
        let url = dir.file()
        let viewModel = NotesViewModel()
        var configuration = DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true))
        configuration.busyTimeout = .seconds(5)
        let manager = DatabaseManager(url: url, configuration: configuration)
        let watching = viewModel.watch(manager, count: 7)
        // The flows run off the main actor, on a thread of their own.
        try await Task.detached {
            try manager.create(password: "first-password")
            try manager.rekey(to: .password("second-password"))
            manager.close(forgettingKey: false)
            _ = try? manager.open(password: "wrong-password")
            try manager.open(password: "second-password")
            manager.close()
            manager.close(forgettingKey: true)
        }.value
        await watching.value
        #expect(viewModel.log == [.didCreate, .willRekey, .didRekey, .didClose, .didOpen, .didClose, .didForgetKey])
        #expect(viewModel.status == "locked")
    }

    @Test("close, open, close gives [.didOpen, .didClose]; reopen closes then opens; lock forgets the key")
    func closeAndLockEvents() async throws {
        let dir = TemporaryDirectory()
        _ = try Fixture.makeEncryptedDatabase(in: dir)
        let manager = dir.manager()
        let delegate = RecordingDelegate()
        manager.delegate = delegate
        let stream = manager.events()
        manager.close()
        try manager.open(password: "secret")
        manager.close(forgettingKey: false)
        try manager.openWithCachedKey()
        try manager.reopen()
        manager.close(forgettingKey: true)
        manager.close(forgettingKey: true)
        manager.close()
        #expect(throws: DatabaseManagerError.noCachedKey) { try manager.openWithCachedKey() }
        try manager.open(password: "secret")
        withExtendedLifetime(manager) {}
        var seen: [DatabaseEvent] = []
        for await event in stream {
            seen.append(event)
            if seen.count == 8 { break }
        }
        let expected: [DatabaseEvent] = [.didOpen, .didClose, .didOpen, .didClose, .didOpen, .didClose, .didForgetKey, .didOpen]
        #expect(seen == expected)
        #expect(delegate.events == [.didOpen, .didClose, .didOpen, .didClose, .didOpen, .didClose, .didForgetKey, .didOpen])
    }

    @Test func eachStreamGetsEveryEventAndEndsWithTheManager() async throws {
        let dir = TemporaryDirectory()
        var manager: DatabaseManager? = DatabaseManager(
            url: dir.file(),
            configuration: DatabaseConfiguration(cipher: CipherOptions(kdfIterations: 4000, allowsLegacyKDFIterations: true)))
        let first = manager!.events()
        let second = manager!.events()
        try manager!.create(password: "a-password")
        manager!.close()
        manager = nil
        var seen: [[DatabaseEvent]] = []
        for stream in [first, second] {
            var events: [DatabaseEvent] = []
            for await event in stream { events.append(event) }
            seen.append(events)
        }
        #expect(seen == [[.didCreate, .didClose, .didForgetKey], [.didCreate, .didClose, .didForgetKey]])
    }
}
