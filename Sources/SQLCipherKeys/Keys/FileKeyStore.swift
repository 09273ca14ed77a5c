import Foundation
import SQLCipherCore

// MARK: - FileKeyStore

/// Keeps each key in its own file, `<directory>/<identifier>`, holding the 32 raw bytes.
///
/// - The directory is created with mode 0700 (its parent must exist); each file is 0600, owned by
///   the user running the program.
/// - Before anything is read, a file or directory that another user owns, that group or others may
///   access, or that is a symbolic link or not a regular file is refused with a typed error.
/// - A store is atomic and durable: the bytes go to a temporary file that is `fsync`ed, then
///   renamed into place, and the directory is `fsync`ed, all under an `flock` on `<directory>/.lock`.
///   An existing key is never replaced.
/// - Files holding 64 hexadecimal digits (with an optional line end) are read too, so a key
///   written by hand (`openssl rand -hex 32 > key; chmod 600 key`) works.
///
/// Back the directory up apart from the database: a database copied with its key is not protected.
public struct FileKeyStore: KeyStore {
    /// The directory holding the key files.
    public let directory: URL

    /// A store in `directory`, which need not exist yet (the first ``storeKey(_:identifier:)``
    /// creates it with mode 0700).
    public init(directory: URL) {
        self.directory = directory
    }

    /// `file key store <directory>`, for messages.
    public var storeDescription: String { "file key store \(directory.path)" }

    /// The file that holds (or would hold) the key stored under `identifier`.
    public func fileURL(identifier: String) throws -> URL {
        try Self.validate(identifier)
        return directory.appendingPathComponent(identifier)
    }

    /// Reads `<directory>/<identifier>` after checking the directory and the open file (owner, mode,
    /// type, size); `nil` when the directory or the file does not exist.
    ///
    /// - Throws: ``KeyStoreError/insecurePermissions(path:mode:)``, ``KeyStoreError/wrongOwner(path:owner:expected:)``,
    ///   ``KeyStoreError/notARegularFile(path:)`` (nothing read), ``KeyStoreError/malformedKey(location:reason:)``,
    ///   ``KeyStoreError/permissionDenied(path:reason:)``, ``KeyStoreError/invalidIdentifier(_:reason:)``.
    public func loadKey(identifier: String) throws -> DatabaseKey? {
        try Self.validate(identifier)
        guard try KeyFile.checkDirectory(directory.path) else { return nil }
        return try KeyFile.read(directory.appendingPathComponent(identifier).path)
    }

    /// Writes the key durably (temporary file, `fsync`, `rename`, `fsync` of the directory).
    ///
    /// - Throws: ``KeyStoreError/alreadyStored(identifier:store:)`` when a key file is there,
    ///   the directory checks' errors, and I/O failures (the directory is left without a partial file).
    public func storeKey(_ key: DatabaseKey, identifier: String) throws {
        try Self.validate(identifier)
        try KeyFile.write(key, directory: directory.path, name: identifier, store: storeDescription)
    }

    /// Removes the key file (and a temporary file left by a crash).
    public func deleteKey(identifier: String) throws {
        try Self.validate(identifier)
        try KeyFile.remove(directory: directory.path, name: identifier)
    }

    /// Reads a key file anywhere, with the same checks as ``loadKey(identifier:)``: the file
    /// (not its directory) must belong to the user and have no group/other permission bits.
    ///
    /// - Throws: as ``loadKey(identifier:)``, and ``KeyStoreError/failed(location:reason:)``
    ///   when there is no file.
    public static func readKeyFile(at url: URL) throws -> DatabaseKey {
        guard let key = try KeyFile.read(url.path) else {
            throw KeyStoreError.failed(location: url.path, reason: "there is no such file")
        }
        return key
    }

    static func validate(_ identifier: String) throws(KeyStoreError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        guard !identifier.isEmpty, identifier.utf8.count <= 200 else {
            throw .invalidIdentifier(identifier, reason: "it must have 1 to 200 characters")
        }
        guard identifier.allSatisfy(allowed.contains), !identifier.hasPrefix(".") else {
            throw .invalidIdentifier(identifier, reason: "it may hold only letters, digits, '.', '_' and '-', and not start with '.'")
        }
    }
}
