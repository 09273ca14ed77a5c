import Foundation

/// Files of `/proc`, read whole.
public enum ProcFile {
    /// The whole text of a procfs file such as `/proc/<pid>/maps`: procfs reports a size of 0, and
    /// `String(contentsOfFile:)` of a long one returns only its first page.
    public static func text(_ path: String) throws -> String {
        let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty { data.append(chunk) }
        return String(decoding: data, as: UTF8.self)
    }
}
