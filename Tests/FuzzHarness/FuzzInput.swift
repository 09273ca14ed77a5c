import Foundation

// MARK: - FuzzInput

/// How the libFuzzer target reads one input as a ``FileSet`` and the way to open it:
/// byte 0 — bits 0-1 the sidecar (`0`, `3` none, `1` `-wal`, `2` `-journal`), bit 2 a wrong
/// password, bit 3 `quick_check` on open; bytes 1-4 — where the main file ends (little-endian,
/// modulo the length); the rest — the main file, then the sidecar.
public struct FuzzInput: Sendable {
    public let files: FileSet
    public let wrongPassword: Bool
    public let checksIntegrity: Bool

    public init(_ bytes: [UInt8]) {
        let flags = bytes.first ?? 0
        let body = bytes.count > 5 ? Array(bytes[5...]) : []
        let split = bytes.count > 5 ? bytes[1...4].reversed().reduce(0) { $0 << 8 | Int($1) } % (body.count + 1) : 0
        var files = ["": Data(body[..<split])]
        switch flags & 3 {
        case 1: files["-wal"] = Data(body[split...])
        case 2: files["-journal"] = Data(body[split...])
        default: break
        }
        self.files = FileSet(files)
        wrongPassword = flags & 4 != 0
        checksIntegrity = flags & 8 != 0
    }

    /// The input that decodes to `files` (one sidecar at most: the `-wal` if both exist).
    public static func encode(_ files: FileSet, wrongPassword: Bool = false) -> [UInt8] {
        let sidecar: (flag: UInt8, data: Data)? = files.files["-wal"].map { (1, $0) } ?? files.files["-journal"].map { (2, $0) }
        let split = UInt32(files.main.count)
        let length = (0..<4).map { UInt8(truncatingIfNeeded: split >> (8 * $0)) }
        return [(sidecar?.flag ?? 0) | (wrongPassword ? 4 : 0)] + length + Array(files.main) + Array(sidecar?.data ?? Data())
    }
}
