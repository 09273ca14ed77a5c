import SQLCipherCore

// MARK: - errno → error

extension DatabaseManagerError {
    /// Maps a failed file-system call (its ``Errno``) to the error a user can act on.
    package init(_ failure: FileSystem.Failure) {
        let path = failure.path
        if let refusal = failure.refusal {
            self = .untrustedFile(path: path, reason: refusal)
            return
        }
        switch failure.errno {
        case .fileExists: self = .fileAlreadyExists(path: path)
        case .permissionDenied, .notPermitted, .readOnlyFileSystem: self = .permissionDenied(path: path, underlying: nil)
        case .noSpace, .quotaExceeded, .fileTooLarge: self = .diskFull(path: path, underlying: nil)
        case .noSuchFile: self = .fileNotFound(path: path)
        case .nameTooLong: self = .invalidPath(path: path, reason: "a name in it, or the whole path, is too long")
        case .notADirectory: self = .invalidPath(path: path, reason: "a part of it is a file, not a directory")
        case .tooManySymbolicLinks: self = .invalidPath(path: path, reason: "its symbolic links form a loop")
        default: self = .ioError(path: path, underlying: nil)
        }
    }
}
