import SQLCipherCore

/// The checks around a key change in place (``DatabaseManager/inPlaceRekeyFlow(key:keyed:progress:)``)
/// that need no manager: can it run, why did it not apply, and which key opens a file whose
/// change was interrupted.
enum InPlaceRekeyCheck {
    /// The file and its directory (for the `-journal`) writable, and room for a journal or WAL
    /// that holds every page.
    static func requirePossible(path: String) throws {
        let directory = DatabaseFile(path: path).directory
        guard FileSystem.isWritable(path) else { throw DatabaseManagerError.permissionDenied(path: path, underlying: nil) }
        guard FileSystem.isWritable(directory) else { throw DatabaseManagerError.permissionDenied(path: directory, underlying: nil) }
        let size = FileSystem.databaseSize(of: path)
        // Each page once more, plus the journal's or WAL's few bytes per page and header.
        let needed = size + size / 64 + 65_536
        let available = try FileSystem.availableSpace(in: directory)
        guard available >= needed else {
            throw DatabaseManagerError.insufficientDiskSpace(path: path, needed: needed, available: available)
        }
    }

    /// Why the file is still on the old key, as far as the disk tells (SQLCipher does not say).
    static func unappliedError(path: String) -> DatabaseManagerError {
        let directory = DatabaseFile(path: path).directory
        if let available = try? FileSystem.availableSpace(in: directory), available < FileSystem.databaseSize(of: path) {
            return .diskFull(path: path, underlying: nil)
        }
        if !FileSystem.isWritable(path) { return .permissionDenied(path: path, underlying: nil) }
        if !FileSystem.isWritable(directory) { return .permissionDenied(path: directory, underlying: nil) }
        return .ioError(path: path, underlying: nil)
    }

    /// A refused key after recovery took the `stale` marker of an interrupted key change: which
    /// key opens the file (``DatabaseManagerError/keyChangeInterrupted(path:opensWith:)``); or
    /// ``DatabaseManagerError/operationInProgress(path:)`` while a change still runs.
    static func explainingInterrupted(
        _ error: DatabaseManagerError, path: String, key: SecretBytes, cipher: CipherOptions, stale: InPlaceRekeyMarker?
    ) -> DatabaseManagerError {
        switch error {
        case .incorrectPasswordOrSettings, .incorrectKeyOrSettings: break
        default: return error
        }
        if stale == nil, InPlaceRekeyMarker.read(for: path) != nil, OperationLock.isHeld(for: InPlaceRekeyMarker.path(for: path)) {
            return .operationInProgress(path: path)
        }
        guard let marker = stale else { return error }
        let given = KeyDerivation.salt(ofFileAt: path).flatMap { DerivedKeys.derive(key, salt: $0, cipher: cipher)?.rawKey } ?? key
        return .keyChangeInterrupted(path: path, opensWith: marker.side(of: given))
    }
}
