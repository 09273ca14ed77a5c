import Foundation

// MARK: - Durable replace

extension FileSystem {
    /// Replaces the file at `path` with `data` so that a crash leaves either the old content or
    /// the new, never a mix: writes `<path>.tmp`, flushes it (`fsync`), `rename`s it over `path`
    /// and flushes the folder. A new file is readable and writable by its owner only.
    static func replaceDurably(_ path: String, with data: Data) throws(Failure) {
        let staging = path + ".tmp"
        try write(data, to: staging)
        try sync(staging)
        try rename(staging, to: path)
        try sync(DatabaseFile(path: path).directory)
    }
}
