import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A program the tests start: Foundation's `Process`, minus one race.
///
/// Foundation (on Linux) lists `/proc/self/fd`, then starts the child closing what it listed. A
/// descriptor another test opens in between — and Foundation opens files without `O_CLOEXEC` — is
/// inherited and kept for the child's whole life. A `cipherdb` started by one test then "has open"
/// another test's database, and a rekey there is rightly refused (a CI failure of stop 29). Here
/// the child closes every descriptor above 2 itself (`posix_spawn_file_actions_addclosefrom_np`),
/// after its standard streams are in place, so nothing is inherited by accident.
///
/// The surface is the part of `Process` the tests use, with the same names and meanings:
/// standard streams are a `Pipe`, a `FileHandle` or `nil` (this process's own); a `Pipe`'s
/// writing end is closed here once the child has it.
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: the configuration is set before `run()` by one thread; `state` is guarded by
    // `condition`, written by the waiting thread and read by any.
    public var executableURL: URL?
    public var arguments: [String] = []
    /// `nil`: this process's environment.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    public var standardInput: Any?
    public var standardOutput: Any?
    public var standardError: Any?
    /// Called once, on the waiting thread, after the child has ended.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)?

    public private(set) var processIdentifier: Int32 = 0
    private let condition = NSCondition()
    private var state: State = .notStarted

    private enum State {
        case notStarted
        case running
        case ended(status: Int32)
    }

    public init() {}

    /// Starts the program; throws when it cannot be started.
    public func run() throws {
        guard let executable = executableURL?.path else { throw ChildProcessError(message: "no executable") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (stream, target) in [(standardInput, Int32(0)), (standardOutput, 1), (standardError, 2)] {
            if let handle = stream as? FileHandle, handle === FileHandle.nullDevice {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            } else if let fd = Self.descriptor(stream, reading: target == 0) {
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        try GNUSpawn.closeFrom(&actions, 3)
        if let directory = currentDirectoryURL?.path { try GNUSpawn.changeDirectory(&actions, directory) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        Self.resetSignals(&attributes)
        let pid = try Self.spawn(executable, [executable] + arguments, environment, &actions, &attributes)
        processIdentifier = pid
        condition.withLock { state = .running }
        // The child has its ends now; ours would keep a reader from ever seeing end-of-file.
        if let pipe = standardInput as? Pipe { try? pipe.fileHandleForReading.close() }
        for case let pipe as Pipe in [standardOutput, standardError] { try? pipe.fileHandleForWriting.close() }
        Thread.detachNewThread { [self] in waitForExit() }
    }

    /// `true` from `run()` until the child has ended and been reaped.
    public var isRunning: Bool {
        condition.withLock { if case .running = state { true } else { false } }
    }

    /// Blocks until the child has ended.
    public func waitUntilExit() {
        condition.withLock {
            while case .running = state { condition.wait() }
        }
    }

    /// The exit status, or the signal's number when a signal ended it (as `Process`).
    public var terminationStatus: Int32 {
        let status = endedStatus
        return Self.exitedNormally(status) ? (status >> 8) & 0xff : status & 0x7f
    }

    /// Whether the child exited or a signal ended it.
    public var terminationReason: Process.TerminationReason {
        Self.exitedNormally(endedStatus) ? .exit : .uncaughtSignal
    }

    /// Sends SIGTERM.
    public func terminate() { if isRunning { kill(processIdentifier, SIGTERM) } }

    /// Sends SIGINT.
    public func interrupt() { if isRunning { kill(processIdentifier, SIGINT) } }

    private var endedStatus: Int32 {
        condition.withLock {
            guard case .ended(let status) = state else { preconditionFailure("the child has not ended") }
            return status
        }
    }

    private func waitForExit() {
        var status: Int32 = 0
        while waitpid(processIdentifier, &status, 0) == -1, errno == EINTR {}
        condition.withLock {
            state = .ended(status: status)
            condition.broadcast()
        }
        terminationHandler?(self)
    }

    private static func exitedNormally(_ status: Int32) -> Bool { status & 0x7f == 0 }

    private static func descriptor(_ stream: Any?, reading: Bool) -> Int32? {
        switch stream {
        case let pipe as Pipe: reading ? pipe.fileHandleForReading.fileDescriptor : pipe.fileHandleForWriting.fileDescriptor
        case let handle as FileHandle: handle.fileDescriptor
        default: nil
        }
    }

    /// Default dispositions and an empty mask, and a process group of its own, as `Process` does.
    private static func resetSignals(_ attributes: inout posix_spawnattr_t) {
        var all = sigset_t()
        sigfillset(&all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
    }

    private static func spawn(
        _ path: String, _ arguments: [String], _ environment: [String: String]?,
        _ actions: inout posix_spawn_file_actions_t, _ attributes: inout posix_spawnattr_t
    ) throws -> Int32 {
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw ChildProcessError(message: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        return pid
    }
}

/// glibc's two file actions (2.29, 2.34) that Swift's Glibc module does not show without
/// `_GNU_SOURCE`, looked up once.
private enum GNUSpawn {
    typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    typealias ChangeDirectory = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    static let closeFromFunction = symbol("posix_spawn_file_actions_addclosefrom_np", as: CloseFrom.self)
    static let changeDirectoryFunction = symbol("posix_spawn_file_actions_addchdir_np", as: ChangeDirectory.self)

    static func closeFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) throws {
        guard let function = closeFromFunction else { throw ChildProcessError(message: "glibc has no addclosefrom_np (2.34+)") }
        _ = function(&actions, lowest)
    }

    static func changeDirectory(_ actions: inout posix_spawn_file_actions_t, _ path: String) throws {
        guard let function = changeDirectoryFunction else { throw ChildProcessError(message: "glibc has no addchdir_np (2.29+)") }
        _ = path.withCString { function(&actions, $0) }
    }

    private static func symbol<T>(_ name: String, as type: T.Type) -> T? {
        dlsym(UnsafeMutableRawPointer(bitPattern: 0), name).map { unsafeBitCast($0, to: type) }
    }
}

/// Why a child could not be started.
public struct ChildProcessError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
