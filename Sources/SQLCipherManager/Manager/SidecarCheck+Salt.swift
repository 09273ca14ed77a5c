import Foundation
import SQLCipherCore

/// A `-wal` or hot `-journal` whose copy of page 1 starts with the database's own salt (the
/// 16 bytes SQLCipher keeps in the clear at the start of page 1, random for every file) was
/// written for this database. When it replays into a database the key does not open, the key
/// was changed in place and committed there (a rekey in the `-wal`), or the key given is not
/// the one the journal was written under: a wrong key for the database as SQLite sees it, not
/// a foreign sidecar (whose advice, to move it away, would drop those commits).
extension SidecarCheck {
    /// `true` when the `-wal` or `-journal` at `sidecar` holds a page 1 that starts with `salt`.
    static func sidecar(_ sidecar: String, holdsPageOneWithSalt salt: [UInt8]) -> Bool {
        guard salt.count == KeyDerivation.saltLength, let size = FileSystem.size(of: sidecar) else { return false }
        return sidecar.hasSuffix("-wal")
            ? walHoldsPageOne(sidecar, size: size, salt: salt) : journalHoldsPageOne(sidecar, size: size, salt: salt)
    }

    /// WAL: a 32-byte header (page size at offset 8), then frames of a 24-byte header (page
    /// number first) and the page.
    private static func walHoldsPageOne(_ path: String, size: Int64, salt: [UInt8]) -> Bool {
        guard let header = try? FileSystem.bytes(of: path, count: 32, at: 0), header.count == 32 else { return false }
        let pageSize = Int64(uint32BigEndian(header, at: 8))
        guard pageSize >= 512, pageSize <= 65_536 else { return false }
        return records(of: path, size: size, from: 32, pageAt: 24, length: 24 + pageSize, holdPageOneWith: salt)
    }

    /// Rollback journal: a header (sector size at offset 20, page size at 24) padded to one
    /// sector, then records of the page number, the page and a 4-byte checksum.
    private static func journalHoldsPageOne(_ path: String, size: Int64, salt: [UInt8]) -> Bool {
        guard let header = try? FileSystem.bytes(of: path, count: 28, at: 0), header.count == 28 else { return false }
        let sectorSize = Int64(uint32BigEndian(header, at: 20))
        let pageSize = Int64(uint32BigEndian(header, at: 24))
        guard pageSize >= 512, pageSize <= 65_536, sectorSize >= 32, sectorSize <= 65_536 else { return false }
        return records(of: path, size: size, from: sectorSize, pageAt: 4, length: 8 + pageSize, holdPageOneWith: salt)
    }

    /// Walks records of `length` bytes from `start`, each with its page number first and the
    /// page at `pageAt`: `true` at the first record of page 1 whose page starts with `salt`.
    private static func records(
        of path: String, size: Int64, from start: Int64, pageAt: Int, length: Int64, holdPageOneWith salt: [UInt8]
    ) -> Bool {
        var offset = start
        while offset + length <= size {
            if let record = try? FileSystem.bytes(of: path, count: pageAt + salt.count, at: offset),
                record.count == pageAt + salt.count, uint32BigEndian(record, at: 0) == 1, Array(record[pageAt...]) == salt
            {
                return true
            }
            offset += length
        }
        return false
    }

    private static func uint32BigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
