import Foundation
import TestSupport

// MARK: - KeyringSession

/// A real desktop keyring for one test: a private D-Bus session bus (`dbus-daemon --nofork`
/// with a minimal configuration that activates no services) and a `gnome-keyring-daemon`
/// (secrets component only) whose login keyring is created and unlocked with a test password
/// read from stdin. HOME and XDG_RUNTIME_DIR point into a temporary directory, so the user's own
/// keyrings are never touched. Both processes are stopped, by their process ids, on release.
final class KeyringSession: @unchecked Sendable {
    // @unchecked: every property is set in init and only read afterwards.
    let directory: URL
    let busAddress: String
    private let bus: ChildProcess
    private var keyring: ChildProcess?

    /// The keyring files (`login.keyring`) of this session.
    var keyringsDirectory: URL { directory.appendingPathComponent("home/.local/share/keyrings") }

    /// Starts the bus; with `keyring`, also the keyring daemon, and waits until it owns
    /// `org.freedesktop.secrets`.
    init(keyring startKeyring: Bool = true) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("SCMKeyring-\(UUID().uuidString)")
        for name in ["home", "run"] {
            try FileManager.default.createDirectory(
                at: directory.appendingPathComponent(name), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let config = directory.appendingPathComponent("bus.conf")
        try Self.busConfiguration(socketDirectory: directory.appendingPathComponent("run").path).write(
            to: config, atomically: true, encoding: .utf8)
        (bus, busAddress) = try Self.startBus(config: config)
        if startKeyring {
            do {
                keyring = try startKeyringDaemon()
                try waitForName("org.freedesktop.secrets")
            } catch {
                stop()
                throw error
            }
        }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// The environment the daemons (and `dbus-send`) run with.
    var environment: [String: String] {
        [
            "HOME": directory.appendingPathComponent("home").path,
            "XDG_RUNTIME_DIR": directory.appendingPathComponent("run").path,
            "DBUS_SESSION_BUS_ADDRESS": busAddress,
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
        ]
    }

    /// Runs KeyringProbe (built beside the test runner) on this session's bus; returns its
    /// exit status and its one line of output.
    func probe(_ arguments: String...) throws -> (status: Int32, output: String) {
        try Self.probe(arguments, environment: environment)
    }

    static func probe(_ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String) {
        let directories = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(), Bundle.main.bundleURL,
        ]
        guard
            let url = directories.map({ $0.appendingPathComponent("KeyringProbe") })
                .first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
        else {
            throw Failure(message: "KeyringProbe was not found beside the test runner; build it with `swift build --build-tests`")
        }
        let process = ChildProcess()
        process.executableURL = url
        process.arguments = arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Locks the login collection (`org.freedesktop.Secret.Service.Lock`), as when the screen
    /// locks or the session has not been unlocked.
    func lockLoginCollection() throws {
        let output = try dbusSend(
            "--dest=org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock",
            "array:objpath:/org/freedesktop/secrets/collection/login")
        guard output.contains("collection/login") else { throw Failure(message: "Lock did not lock the login collection: \(output)") }
    }

    /// Stops the keyring daemon and starts a new one on the same keyring files (unlocked with
    /// the same login password), as after a logout and login.
    func restartKeyring() throws {
        stopKeyring()
        try waitForName("org.freedesktop.secrets", present: false)
        keyring = try startKeyringDaemon()
        try waitForName("org.freedesktop.secrets")
    }

    /// Stops the keyring daemon with SIGKILL (so nothing it had not yet written survives) and
    /// waits for it.
    func stopKeyring() {
        if let keyring { Self.kill(keyring) }
    }

    private func stop() {
        stopKeyring()
        Self.kill(bus)
    }

    /// SIGKILL to the `timeout` wrapper's process group (the wrapper and its daemon): the
    /// daemons inherit the test runner's blocked signals, so SIGTERM would not stop them.
    private static func kill(_ process: ChildProcess) {
        guard process.isRunning else { return }
        _ = Foundation.kill(-process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    // MARK: - Processes

    private static func startBus(config: URL) throws -> (ChildProcess, String) {
        let process = try watched("dbus-daemon", ["--nofork", "--config-file=\(config.path)", "--print-address=1"])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        let address = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard address.hasPrefix("unix:") else {
            kill(process)
            throw Failure(message: "dbus-daemon printed no address (\(text))")
        }
        return (process, address)
    }

    private func startKeyringDaemon() throws -> ChildProcess {
        let process = try Self.watched(
            "gnome-keyring-daemon",
            [
                "--foreground", "--unlock", "--components=secrets",
                "--control-directory=\(directory.appendingPathComponent("run/keyring").path)",
            ])
        process.environment = environment
        let input = Pipe()
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // The login keyring's password, then end of input (what PAM does at login).
        input.fileHandleForWriting.write(Data("test-login-password".utf8))
        try input.fileHandleForWriting.close()
        return process
    }

    /// Polls `NameHasOwner` for up to 10 s until the name is (or is no longer) owned.
    private func waitForName(_ name: String, present: Bool = true) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let reply = try dbusSend(
                "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:\(name)")
            if reply.contains("boolean true") == present { return }
            // Waiting for the name to go, the daemon is gone already (killed and reaped): the bus
            // may still be dropping its name.
            if present, let keyring, !keyring.isRunning {
                throw Failure(message: "gnome-keyring-daemon exited with status \(keyring.terminationStatus)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw Failure(message: "\(name) did not \(present ? "appear on" : "leave") the test bus within 10 s")
    }

    private func dbusSend(_ arguments: String...) throws -> String {
        let process = ChildProcess()
        process.executableURL = try Self.executable("dbus-send")
        process.arguments = ["--bus=\(busAddress)", "--print-reply", "--type=method_call"] + arguments
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A daemon run under `timeout`, so that it cannot outlive a crashed test process by more
    /// than 10 minutes; its stderr goes nowhere, so it never holds the test runner's output open.
    private static func watched(_ name: String, _ arguments: [String]) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = try executable("timeout")
        process.arguments = ["--signal=KILL", "600", try executable(name).path] + arguments
        process.standardError = FileHandle.nullDevice
        return process
    }

    private static func executable(_ name: String) throws -> URL {
        for directory in ["/usr/bin", "/usr/local/bin", "/opt/homebrew/bin", "/bin"] {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        throw Failure(message: "\(name) is not installed; `make test` installs it (scripts/ensure-deps.sh)")
    }

    /// A session bus that listens in `socketDirectory`, lets everyone talk, and activates nothing.
    private static func busConfiguration(socketDirectory: String) -> String {
        """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>session</type>
          <listen>unix:dir=\(socketDirectory)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
            <allow own="*"/>
          </policy>
        </busconfig>
        """
    }

    struct Failure: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
