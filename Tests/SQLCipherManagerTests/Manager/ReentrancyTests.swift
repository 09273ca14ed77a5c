import Foundation
import TestSupport
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// Every manager call made from inside each kind of the manager's own closures: it works (a
/// query, a nested read: on the closure's connection), throws `reentrantCall` at once (a call
/// that would wait for the closure or change its connection), or — `close()` — takes effect
/// when the closure returns. Each run has a deadline, so a deadlock fails instead of hanging.
@Suite("Calls into the manager from inside its own closures: work, refuse, or close after; never deadlock", .ownThread)
struct ReentrancyTests {
    enum Kind: String, CaseIterable, Sendable {
        case read, write, transaction, withDatabase, asyncRead, asyncWrite, asyncTransaction
        var isRead: Bool { self == .read || self == .asyncRead }
    }

    enum Outcome: Equatable, Sendable { case works, refused, closesAfter }

    struct Call: Sendable {
        let name: String
        let inRead: Outcome
        let inWrite: Outcome
        let body: @Sendable (DatabaseManager, URL) throws -> Void
    }

    struct Row: Decodable { var x: Int }

    static let calls: [Call] = [
        Call(name: "fetchAll", inRead: .works, inWrite: .works) { m, _ in _ = try m.fetchAll("SELECT x FROM t") },
        Call(name: "fetchAll(named)", inRead: .works, inWrite: .works) { m, _ in
            _ = try m.fetchAll("SELECT x FROM t WHERE x > :x", arguments: ["x": 0])
        },
        Call(name: "fetchOne", inRead: .works, inWrite: .works) { m, _ in _ = try m.fetchOne("SELECT x FROM t") },
        Call(name: "scalar", inRead: .works, inWrite: .works) { m, _ in _ = try m.scalar(Int.self, "SELECT count(*) FROM t") },
        Call(name: "scalar(pack)", inRead: .works, inWrite: .works) { m, _ in _ = try m.scalar(Int.self, "SELECT ?", 1) },
        Call(name: "decodeScalar", inRead: .works, inWrite: .works) { m, _ in _ = try m.decodeScalar(Int.self, "SELECT count(*) FROM t") },
        Call(name: "fetchAll(Decodable)", inRead: .works, inWrite: .works) { m, _ in _ = try m.fetchAll(Row.self, "SELECT x FROM t") },
        Call(name: "fetchOne(Decodable)", inRead: .works, inWrite: .works) { m, _ in _ = try m.fetchOne(Row.self, "SELECT x FROM t") },
        Call(name: "schemaVersion", inRead: .works, inWrite: .works) { m, _ in _ = try m.schemaVersion },
        Call(name: "read (nested)", inRead: .works, inWrite: .works) { m, _ in _ = try m.readSync { try $0.scalar(Int.self, "SELECT 1") } },
        Call(name: "state getters", inRead: .works, inWrite: .works) { m, _ in
            _ = (m.isOpen, m.hasCachedKey, m.configuration, m.databaseURL, m.databaseExists, m.delegate == nil)
        },
        Call(name: "execute", inRead: .refused, inWrite: .works) { m, _ in try m.execute("INSERT INTO t VALUES (?)", 5) },
        Call(name: "execute(named)", inRead: .refused, inWrite: .works) { m, _ in
            try m.execute("INSERT INTO t VALUES (:x)", arguments: ["x": 6])
        },
        Call(name: "executeScript", inRead: .refused, inWrite: .works) { m, _ in try m.executeScript("INSERT INTO t VALUES (7);") },
        Call(name: "write", inRead: .refused, inWrite: .works) { m, _ in try m.writeSync { try $0.execute("INSERT INTO t VALUES (8)") } },
        Call(name: "transaction", inRead: .refused, inWrite: .works) { m, _ in
            try m.transactionSync { _ = try $0.scalar(Int.self, "SELECT 1") }
        },
        Call(name: "withDatabase", inRead: .refused, inWrite: .works) { m, _ in
            try m.withDatabase { _ = try $0.scalar(Int.self, "SELECT 1") }
        },
        Call(name: "setSchemaVersion", inRead: .refused, inWrite: .works) { m, _ in try m.setSchemaVersion(0) },
        Call(name: "integrityProblems", inRead: .refused, inWrite: .works) { m, _ in _ = try m.integrityProblems(quick: true) },
        Call(name: "cipherInfo", inRead: .refused, inWrite: .works) { m, _ in _ = try m.cipherInfo },
        Call(name: "open(password:)", inRead: .refused, inWrite: .refused) { m, _ in try m.open(password: "secret") },
        Call(name: "create(password:)", inRead: .refused, inWrite: .refused) { m, _ in try m.create(password: "secret-longer-1") },
        Call(name: "openWithCachedKey", inRead: .refused, inWrite: .refused) { m, _ in try m.openWithCachedKey() },
        Call(name: "reopen", inRead: .refused, inWrite: .refused) { m, _ in try m.reopen() },
        Call(name: "rekey(password:)", inRead: .refused, inWrite: .refused) { m, _ in try m.rekey(to: .password("another-secret-2")) },
        Call(name: "decrypt(to:)", inRead: .refused, inWrite: .refused) { m, dir in
            try m.decrypt(to: dir.appendingPathComponent("plain.db"))
        },
        Call(name: "backup(to:)", inRead: .refused, inWrite: .refused) { m, dir in
            try m.backup(to: dir.appendingPathComponent("backup.db"))
        },
        Call(name: "migrate(using:)", inRead: .refused, inWrite: .refused) { m, _ in try m.migrate(using: VersionedSchemaMigrator()) },
        Call(name: "close", inRead: .closesAfter, inWrite: .closesAfter) { m, _ in m.close() },
    ]

    /// Runs `call` inside a closure of `kind`; `nil` when it did not return before the deadline.
    private func run(_ call: Call, inside kind: Kind, _ manager: DatabaseManager, _ dir: URL) async -> Result<Void, any Error>? {
        await Deadline.value(seconds: 30) { () -> Result<Void, any Error> in
            let inner: @Sendable (Database) -> Result<Void, any Error> = { _ in Result { try call.body(manager, dir) } }
            do {
                switch kind {
                case .read: return try manager.readSync(inner)
                case .write: return try manager.writeSync(inner)
                case .transaction: return try manager.transactionSync(.immediate, inner)
                case .withDatabase: return try manager.withDatabase(inner)
                case .asyncRead: return try Self.blocking { try await asyncRead(manager, inner) }
                case .asyncWrite: return try Self.blocking { try await asyncWrite(manager, inner) }
                case .asyncTransaction: return try Self.blocking { try await manager.transaction(.deferred, inner) }
                }
            } catch {
                return .failure(OuterFailure(error: error))
            }
        }
    }

    struct OuterFailure: Error { let error: any Error }

    /// The thread the async calls start and resume on: not the cooperative pool, which long
    /// blocking tests running beside this one can hold for longer than the deadline.
    private static let executor = OwnThreadExecutor()

    /// Waits, on this (non-cooperative) thread, for an async call.
    private static func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let box = Locked<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task(executorPreference: executor) {
            do { box.value = .success(try await body()) } catch { box.value = .failure(error) }
            done.signal()
        }
        done.wait()
        return try box.value!.get()
    }

    private func check(journal: JournalMode?, kinds: [Kind]) async throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.journalMode = journal }
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE t(x INTEGER)")
        try manager.execute("INSERT INTO t VALUES (1)")
        for kind in kinds {
            for call in Self.calls {
                let expected = kind.isRead ? call.inRead : call.inWrite
                let label = "\(call.name) inside \(kind.rawValue) (\(journal?.rawValue ?? "rollback"))"
                guard let result = await run(call, inside: kind, manager, dir.url) else {
                    Issue.record("\(label): deadlock (no return within the deadline)")
                    return
                }
                switch (expected, result) {
                case (.works, .success):
                    #expect(manager.isOpen, "\(label)")
                case (.closesAfter, .success):
                    #expect(!manager.isOpen, "\(label): still open after the closure returned")
                    try manager.open(password: "secret")
                case (.refused, .failure(let error)):
                    guard case DatabaseManagerError.reentrantCall(_, let inside) = error else {
                        Issue.record("\(label): \(error) instead of reentrantCall")
                        continue
                    }
                    #expect(inside == (kind.isRead ? "read" : "write, transaction or withDatabase"), "\(label)")
                    #expect(manager.isOpen, "\(label)")
                default:
                    Issue.record("\(label): expected \(expected), got \(result)")
                }
                if !manager.isOpen { try manager.open(password: "secret") }
            }
        }
        #expect(try manager.scalar(Int.self, "SELECT count(*) FROM t WHERE x = 1") == 1)
    }

    @Test("WAL: every call inside every closure kind")
    func wal() async throws {
        try await check(journal: .wal, kinds: Kind.allCases)
    }

    @Test("rollback journal (reads on the writer): every call inside read and write")
    func rollback() async throws {
        try await check(journal: nil, kinds: [.read, .write, .asyncRead])
    }

    @Test("a query inside a write sees the write's uncommitted rows; close inside a read closes once it returns")
    func semantics() throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager { $0.journalMode = .wal }
        try manager.create(password: "secret")
        try manager.execute("CREATE TABLE t(x INTEGER)")
        let seen = try manager.writeSync { db -> Int? in
            try db.execute("INSERT INTO t VALUES (1)")
            return try manager.scalar(Int.self, "SELECT count(*) FROM t")
        }
        #expect(seen == 1)
        let open = Deadline.run(seconds: 15) { () -> Bool? in
            try? manager.readSync { _ -> Bool in
                manager.close()
                return manager.isOpen
            }
        }
        #expect(open == .some(.some(true)))
        #expect(!manager.isOpen)
    }
}

/// The `async` write, named so that the synchronous overload cannot be picked instead.
func asyncWrite<T: Sendable>(_ manager: DatabaseManager, _ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
    try await manager.write(body)
}
