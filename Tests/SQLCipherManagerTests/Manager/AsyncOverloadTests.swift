import Foundation
import SQLCipherManager
import Testing

/// `try await manager.read { }` / `write { }` / `transaction { }` are the async methods — which
/// run the body on the manager's own threads — wherever `await` is allowed, top-level code
/// included (Swift 6.3 ranks overloads there as in synchronous code, so the blocking forms have
/// names of their own: `readSync`, `writeSync`, `transactionSync`). Those are `noasync`: called
/// from async code, the build fails with a message that says what to do instead of blocking.
@Suite struct AsyncOverloadTests {
    @Test func anAsyncFunctionGetsTheAsyncOverloads() async throws {
        let dir = TemporaryDirectory()
        let manager = dir.manager()
        try manager.create(password: "secret")
        let caller = pthread_self()
        let writer = try await manager.write { db in
            try db.execute("CREATE TABLE t(x)")
            return pthread_self()
        }
        let reader = try await manager.read { db in
            _ = try db.scalar(Int.self, "SELECT count(*) FROM t")
            return pthread_self()
        }
        #expect(pthread_equal(writer, caller) == 0 && pthread_equal(reader, caller) == 0)
    }

    static let blocking = "blocks the calling thread: use try await manager."

    @Test(arguments: ["read", "write", "transaction"])
    func topLevelAwaitTakesTheAsyncMethod(_ call: String) throws {
        let result = try Self.typecheck("let m = DatabaseManager(url: nil)\nlet n = try await m.\(call) { _ in 1 }\n")
        #expect(result.status == 0 && !result.output.contains("warning"), "top-level await of \(call): \(result.output)")
    }

    @Test(arguments: ["read", "write", "transaction"])
    func theBlockingFormIsRefusedInAsyncCodeWithWhatToDo(_ call: String) throws {
        let result = try Self.typecheck(
            "let m = DatabaseManager(url: nil)\nfunc f() async throws -> Int { try m.\(call)Sync { _ in 1 } }\n")
        #expect(result.status != 0, "async code silently took the blocking \(call)Sync: \(result.output)")
        #expect(result.output.contains(Self.blocking + call), "\(result.output)")
    }

    @Test func asyncAndSyncCallersBuildWithoutWarnings() throws {
        let source = """
            let m = DatabaseManager(url: nil)
            func inAsync() async throws -> Int {
                try await m.read { _ in 1 } + m.write { _ in 2 } + m.transaction { _ in 3 }
            }
            func inSync() throws -> Int { try m.readSync { _ in 1 } + m.writeSync { _ in 2 } + m.transactionSync { _ in 3 } }
            Task { _ = try await m.read { _ in 1 } }

            """
        let result = try Self.typecheck(source)
        #expect(result.status == 0 && !result.output.contains("warning"), "\(result.output)")
    }

    /// `swiftc -typecheck` of a `main.swift` that imports the built module (Swift 6 mode).
    static func typecheck(_ body: String) throws -> (status: Int32, output: String) {
        let dir = TemporaryDirectory()
        let file = dir.url.appendingPathComponent("main.swift")
        try ("import SQLCipherManager\n" + body).write(to: file, atomically: true, encoding: .utf8)
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let cModules = try FileManager.default.contentsOfDirectory(atPath: sources.path).filter { $0.hasPrefix("C") }
        let arguments =
            ["swiftc", "-typecheck", "-swift-version", "6", "-I", modulesDirectory.path]
            + cModules.flatMap { ["-I", sources.appendingPathComponent($0).path] } + [file.path]
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/env"), arguments)
        return (result.status, result.stdout + result.stderr)
    }

    /// The build's `Modules` directory, beside the test bundle.
    static let modulesDirectory: URL = {
        var directory = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        directory.deleteLastPathComponent()
        while directory.path.contains(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("Modules")
    }()
}
