import SQLCipherCore

// MARK: - Diagnosis of a failed open or unlock

extension DatabaseManagerError {
    /// Turns a failure to open or unlock `path` into the error a user can act on, looking at the
    /// file itself where SQLite's code is ambiguous (26 means wrong key, other settings,
    /// plaintext file or not a database). The errors of the layers below are said as the manager
    /// says them (``init(layerError:)``), a file-system failure by its `errno` (``init(_:)``).
    init(diagnosing error: any Error, path: String) {
        if let mapped = DatabaseManagerError(layerError: error) {
            self = mapped
        } else if let failure = error as? FileSystem.Failure {
            self = DatabaseManagerError(failure)
        } else if let error = error as? SQLiteError {
            self = Self.diagnosing(error, path: path)
        } else {
            self = .ioError(path: path, underlying: nil)
        }
    }

    private static func diagnosing(_ error: SQLiteError, path: String) -> DatabaseManagerError {
        switch error.extendedCode {
        case .notADatabase:
            if HeaderSaltFile.hasPlaintextHeaderForm(path) {
                // A missing or damaged salt file says so; a readable one was refused with the key.
                do { _ = try HeaderSaltFile.read(for: path) } catch { return DatabaseManagerError(error) }
                return .headerSaltUnusable(path: path, saltFile: HeaderSaltFile.path(for: path), problem: .rejected)
            }
            return DatabaseManagerError(problemBeforeUnlockAt: path) ?? .incorrectPasswordOrSettings(path: path)
        case .corrupt: return .corrupt(path: path, underlying: error)
        case .cantOpen:
            return DatabaseManagerError(problemBeforeUnlockAt: path) ?? .permissionDenied(path: path, underlying: error)
        case .permission, .auth, .readOnly: return .permissionDenied(path: path, underlying: error)
        case .full: return .diskFull(path: path, underlying: error)
        case .ioError: return .ioError(path: path, underlying: error)
        case .busy, .locked: return .busy(path: path, underlying: error)
        default: return .sqlite(error)
        }
    }

    /// What is wrong with the file at `path` before any key is tried (``DatabaseFile``'s look
    /// at the path and the header), or `nil` when it could be an SQLCipher database.
    init?(problemBeforeUnlockAt path: String) {
        let file = DatabaseFile(path: path)
        if let reason = file.pathProblem {
            self = .invalidPath(path: path, reason: reason)
            return
        }
        switch file.kind() {
        case .missing: self = .fileNotFound(path: path)
        case .parentDirectoryMissing: self = .parentDirectoryMissing(path: path)
        case .directory: self = .isDirectory(path: path)
        case .unreadable: self = .permissionDenied(path: path, underlying: nil)
        case .empty: self = .notADatabase(path: path, reason: "the file is empty (0 bytes)")
        case .specialFile: self = .notADatabase(path: path, reason: "it is not a regular file (a pipe, socket or device)")
        case .plaintextSQLite: self = .plaintextDatabase(path: path)
        case .damagedSQLiteHeader:
            self = .notADatabase(path: path, reason: file.plaintextHeaderProblem ?? "its SQLite header is damaged")
        case .encryptedOrNotADatabase:
            guard let size = file.size, size < 512 || size % 512 != 0 else { return nil }
            self = .notADatabase(path: path, reason: "its size (\(size) bytes) is not a whole number of pages")
        }
    }

    /// Why ``DatabaseTools/encryptPlaintextDatabase(at:to:password:configuration:progress:)-(_,_,String,_,_)``
    /// refuses the file at `path` before it asks for a key, or `nil` for a plaintext SQLite
    /// database: an empty or non-plaintext file is ``notPlaintextDatabase(path:)``, anything
    /// else what an unlock would say (``init(problemBeforeUnlockAt:)``).
    init?(problemBeforeEncryptingAt path: String) {
        switch DatabaseFile(path: path).kind() {
        case .plaintextSQLite: return nil
        case .empty, .encryptedOrNotADatabase: self = .notPlaintextDatabase(path: path)
        default: self = DatabaseManagerError(problemBeforeUnlockAt: path) ?? .notPlaintextDatabase(path: path)
        }
    }
}
