import Foundation
import TestSupport

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// One test case's world: a fresh directory, the database path the flow works on, the passwords
/// the case typed (none may show up in an error), and clean-up for what it mounted or locked.
final class Scene: @unchecked Sendable {
    // @unchecked: a scene is used by one test case on one thread.
    let dir = TemporaryDirectory()
    /// The database path the flow works on (`test.db` in the directory unless a case moves it).
    var url: URL
    /// Every password the case used; an error message must contain none of them.
    private(set) var passwords: [String] = []
    /// The managers the case made, to check they were left closed.
    private(set) var managers: [DatabaseManager] = []
    /// The small disk ``url`` is on, if a case moved it there.
    private(set) var disk: SmallDisk?
    private var tearDowns: [() -> Void] = []

    init() { url = dir.file() }

    deinit {
        for manager in managers { manager.close() }
        for body in tearDowns.reversed() { body() }
    }

    /// The directories whose files a failed flow must leave as they were.
    var watchedDirectories: [URL] { [dir.url, url.deletingLastPathComponent()] }

    /// Runs `body` when the scene is released, before its directory is removed (last added, first run).
    func atTearDown(_ body: @escaping () -> Void) { tearDowns.append(body) }

    // MARK: - Managers

    /// A manager for ``url`` with the tests' fast KDF.
    func manager(configure: (inout DatabaseConfiguration) -> Void = { _ in }) -> DatabaseManager {
        let manager = TemporaryDirectory.manager(at: url, configure: configure)
        managers.append(manager)
        return manager
    }

    /// Opens ``url`` with `password` on a fresh manager.
    @discardableResult
    func open(_ password: String, configure: (inout DatabaseConfiguration) -> Void = { _ in }) throws -> DatabaseManager {
        try flow(password, configure) { try $0.open(password: password) }
    }

    /// Creates ``url`` with `password` on a fresh manager.
    @discardableResult
    func create(_ password: String, configure: (inout DatabaseConfiguration) -> Void = { _ in }) throws -> DatabaseManager {
        try flow(password, configure) { try $0.create(password: password) }
    }

    private func flow(
        _ password: String, _ configure: (inout DatabaseConfiguration) -> Void, _ body: (DatabaseManager) throws -> Void
    ) throws -> DatabaseManager {
        passwords.append(password)
        let manager = manager(configure: configure)
        try body(manager)
        return manager
    }

    /// Opens ``url`` with "secret", then rekeys it to `password`.
    func rekey(_ password: String, progress: ((Double) -> Void)? = nil) throws {
        let manager = try open("secret")
        passwords.append(password)
        try manager.rekey(to: .password(password), progress: progress)
    }

    /// Encrypts the plaintext file at ``url`` in place, or into `destination`.
    func encrypt(_ password: String, to destination: URL? = nil, progress: ((Double) -> Void)? = nil) throws {
        passwords.append(password)
        try DatabaseTools.encryptPlaintextDatabase(
            at: url, to: destination, password: password,
            configuration: TemporaryDirectory.manager(at: url).configuration, progress: progress)
    }

    /// Runs a flow whose progress fills the small disk as soon as the flow has started writing
    /// (its first report above 0; `atStart`: its first report, for an in-place rekey, which
    /// reports only 0 and 1), so the disk runs out in the middle; the filler is removed before
    /// this returns or throws.
    func fillingTheDisk(atStart: Bool = false, _ flow: (@escaping (Double) -> Void) throws -> Void) throws {
        let disk = disk
        defer { disk?.unfill() }
        var filled = false
        try flow { fraction in
            guard fraction > 0 || atStart, !filled else { return }
            filled = true
            disk?.fill()
        }
    }

    // MARK: - Files

    /// Writes an encrypted database at ``url`` (table `item` with `rows` rows).
    func makeEncrypted(at other: URL? = nil, password: String = "secret", rows: Int = 3) throws {
        passwords.append(password)
        try Fixture.makeEncryptedDatabase(at: other ?? url, password: password, rows: rows)
    }

    /// Rewrites the file at ``url`` through `change`.
    func edit(_ change: (inout Data) -> Void) throws {
        var bytes = Fixture.bytes(url)
        change(&bytes)
        try bytes.write(to: url)
    }

    /// Moves ``url`` onto a small tmpfs of its own (``SmallDisk``, root only).
    func moveToSmallDisk(kilobytes: Int) throws {
        let disk = try SmallDisk(kilobytes: kilobytes)
        self.disk = disk
        url = disk.file(url.lastPathComponent)
    }

    /// Makes ``url``'s directory (`directory: true`) or the file itself read-only, for root too
    /// (``ReadOnly``): a read-only directory takes no new file (journal, copy), a read-only file
    /// opens read-only.
    func makeReadOnly(directory: Bool) {
        let target = directory ? url.deletingLastPathComponent() : url
        ReadOnly.makeReadOnly(target)
        atTearDown { ReadOnly.makeWritable(target) }
    }

    /// Holds a lock on ``url`` from a second connection until the scene is released:
    /// `BEGIN EXCLUSIVE` keeps readers and writers out, `BEGIN IMMEDIATE` only writers.
    func holdLock(_ begin: String) throws {
        let holder = TemporaryDirectory.manager(at: url)
        try holder.open(password: "secret")
        try holder.execute(begin)
        atTearDown {
            try? holder.execute("ROLLBACK")
            holder.close()
        }
    }
}
