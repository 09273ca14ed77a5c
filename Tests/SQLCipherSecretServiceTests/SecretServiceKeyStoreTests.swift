import Foundation
import TestSupport
import Testing

/// SecretServiceKeyStore against a real gnome-keyring-daemon on a private session bus; each
/// step runs in KeyringProbe, a client process on that bus.
@Suite("SecretServiceKeyStore: a real gnome-keyring-daemon on a private D-Bus bus", .ownThread)
struct SecretServiceKeyStoreTests {
    @Test func storeLoadDeleteRoundTripThroughTheDaemon() throws {
        let session = try KeyringSession()
        let (keyFile, raw) = try writeRandomKeyFile(in: session.directory)
        let loaded = session.directory.appendingPathComponent("loaded")
        #expect(try session.probe("load", "org.example.tests", "notes", loaded.path).output == "missing")
        #expect(try session.probe("store", "org.example.tests", "notes", keyFile.path).output == "stored")
        #expect(try session.probe("load", "org.example.tests", "notes", loaded.path).output == "loaded")
        #expect(Fixture.contents(loaded.appendingPathComponent("notes")) == raw)
        // Another service or identifier does not find it.
        #expect(try session.probe("load", "org.example.other", "notes", loaded.path).output == "missing")
        #expect(try session.probe("load", "org.example.tests", "notes-2", loaded.path).output == "missing")
        // A stored key is never replaced.
        let (otherFile, _) = try writeRandomKeyFile(in: session.directory, name: "other-key")
        #expect(try session.probe("store", "org.example.tests", "notes", otherFile.path).output == "error: keyStore.alreadyStored")
        #expect(try session.probe("delete", "org.example.tests", "notes").output == "deleted")
        #expect(try session.probe("load", "org.example.tests", "notes", loaded.path).output == "missing")
        #expect(try session.probe("delete", "org.example.tests", "notes").output == "deleted")
    }

    @Test func theKeySurvivesADaemonRestartAndIsNotInTheKeyringFileInClear() throws {
        let session = try KeyringSession()
        let (keyFile, raw) = try writeRandomKeyFile(in: session.directory)
        #expect(try session.probe("store", "org.example.tests", "notes", keyFile.path).output == "stored")
        try session.restartKeyring()
        let loaded = session.directory.appendingPathComponent("loaded")
        #expect(try session.probe("load", "org.example.tests", "notes", loaded.path).output == "loaded")
        #expect(Fixture.contents(loaded.appendingPathComponent("notes")) == raw)
        let files = try FileManager.default.contentsOfDirectory(atPath: session.keyringsDirectory.path)
        #expect(files.contains("login.keyring"))
        for name in files {
            #expect(Fixture.contents(session.keyringsDirectory.appendingPathComponent(name)).range(of: raw) == nil, "\(name)")
        }
    }

    @Test func aLockedKeyringIsUnavailableNotMissing() throws {
        let session = try KeyringSession()
        let (keyFile, _) = try writeRandomKeyFile(in: session.directory)
        #expect(try session.probe("store", "org.example.tests", "notes", keyFile.path).output == "stored")
        try session.lockLoginCollection()
        let loaded = session.directory.appendingPathComponent("loaded")
        #expect(try session.probe("load", "org.example.tests", "notes", loaded.path).output == "error: keyStore.locked")
        // Still never replaced while locked.
        #expect(try session.probe("store", "org.example.tests", "notes", keyFile.path).output == "error: keyStore.alreadyStored")
    }

    @Test func noKeyringDaemonOrNoBusIsServiceUnavailable() throws {
        let session = try KeyringSession(keyring: false)
        let loaded = session.directory.appendingPathComponent("loaded").path
        #expect(try session.probe("load", "org.example.tests", "notes", loaded).output == "error: keyStore.serviceUnavailable")
        var noBus = session.environment
        noBus["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(session.directory.path)/no-bus-here"
        let result = try KeyringSession.probe(["load", "org.example.tests", "notes", loaded], environment: noBus)
        #expect(result.output == "error: keyStore.serviceUnavailable")
        #expect(result.status == 1)
    }

    @Test func firstLaunchWithTheKeyringThenALockedKeyringNeverMakesANewKey() throws {
        let session = try KeyringSession()
        let database = session.directory.appendingPathComponent("notes.db")
        #expect(try session.probe("open-or-create", "org.example.notes", "notes-db", database.path).output == "createdWithNewKey rows=1")
        #expect(try session.probe("open-or-create", "org.example.notes", "notes-db", database.path).output == "openedExisting rows=2")
        try session.lockLoginCollection()
        let before = Fixture.contents(database)
        #expect(
            try session.probe("open-or-create", "org.example.notes", "notes-db", database.path).output == "error: manager.keyUnavailable")
        #expect(Fixture.contents(database) == before)
        // After logging in again (a fresh, unlocked daemon on the same keyring) every row is there.
        try session.restartKeyring()
        #expect(try session.probe("open-or-create", "org.example.notes", "notes-db", database.path).output == "openedExisting rows=3")
    }

    /// A 0600 file with 32 random bytes (`/dev/urandom`), and the bytes.
    private func writeRandomKeyFile(in directory: URL, name: String = "key") throws -> (URL, Data) {
        var generator = SystemRandomNumberGenerator()
        let raw = Data((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let url = directory.appendingPathComponent(name)
        try raw.write(to: url)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        return (url, raw)
    }
}

enum Fixture {
    static func contents(_ url: URL) -> Data { (try? Data(contentsOf: url)) ?? Data() }
}
