import Foundation

// MARK: - errno → error

extension DatabaseManagerError {
    /// Maps an `errno` failure to the error a user can act on.
    init(_ failure: FileSystem.Failure) {
        switch failure.code {
        case EEXIST: self = .fileAlreadyExists(path: failure.path)
        case EACCES, EPERM, EROFS: self = .permissionDenied(path: failure.path, underlying: nil)
        case ENOSPC, EDQUOT, EFBIG: self = .diskFull(path: failure.path, underlying: nil)
        case ENOENT: self = .fileNotFound(path: failure.path)
        case ENAMETOOLONG: self = .invalidPath(path: failure.path, reason: "a name in it, or the whole path, is too long")
        case ENOTDIR: self = .invalidPath(path: failure.path, reason: "a part of it is a file, not a folder")
        case ELOOP: self = .invalidPath(path: failure.path, reason: "its symbolic links form a loop")
        default: self = .ioError(path: failure.path, underlying: nil)
        }
    }
}
