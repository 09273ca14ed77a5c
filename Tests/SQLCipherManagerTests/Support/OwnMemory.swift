import Foundation
import TestSupport

@testable import SQLCipherCore

/// A search of this process's own writable memory (`/proc/self/maps`, then `/proc/self/mem`)
/// for secrets, which leaves no copy of them behind: each needle is held in ``SecretBytes``
/// (zeroed when released), the memory is read in chunks into one buffer that is zeroed after
/// each comparison, and the needles' and the buffer's own addresses are left out of the search.
enum OwnMemory {
    /// `true` where `/proc/self/mem` can be read, and the build is not a sanitizer's (whose
    /// shadow memory is one mapping of more than a tebibyte).
    static let isSearchable: Bool = {
        guard let maps = try? mapsText() else { return false }
        return !maps.split(separator: "\n").contains { line in
            let range = line.prefix { $0 != " " }.split(separator: "-").compactMap { UInt64($0, radix: 16) }
            return range.count == 2 && range[1] - range[0] > 1 << 40
        }
    }()

    /// What a search found and how much it read.
    struct Result {
        /// The names of the needles found, each with how many copies.
        var found: [String: Int] = [:]
        var bytesRead = 0
    }

    /// The writable private mappings (heap, thread stacks, anonymous memory, `.data`/`.bss`):
    /// where a copy made at run time lives. Read-only mappings hold the program's literals.
    private static func writableRegions() throws -> [Range<UInt64>] {
        let maps = try mapsText()
        return maps.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 2, fields[1].hasPrefix("rw"), fields[1].hasSuffix("p"),
                !line.hasSuffix("[vvar]"), !line.hasSuffix("[vsyscall]")
            else { return nil }
            let bounds = fields[0].split(separator: "-").compactMap { UInt64($0, radix: 16) }
            return bounds.count == 2 ? bounds[0]..<bounds[1] : nil
        }
    }

    /// `/proc/self/maps` read to its end: `String(contentsOfFile:)` reads one page of a file
    /// whose size `stat` says is 0, which is the first ~70 mappings only.
    private static func mapsText() throws -> String { try ProcFile.text("/proc/self/maps") }

    /// Searches the writable memory for each needle (a name and its bytes).
    static func search(for needles: [(name: String, bytes: SecretBytes)]) throws -> Result {
        let chunk = 1 << 20
        let overlap = (needles.map(\.bytes.count).max() ?? 1) - 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk + overlap, alignment: 16)
        defer {
            SecretBytes.wipe(buffer)
            buffer.deallocate()
        }
        var excluded: [Range<UInt64>] = [address(of: UnsafeRawBufferPointer(buffer))]
        for needle in needles { excluded.append(needle.bytes.withBytes { address(of: $0) }) }
        let fd = open("/proc/self/mem", O_RDONLY)
        guard fd >= 0 else { throw CocoaError(.fileReadNoPermission) }
        defer { close(fd) }
        var result = Result()
        for region in try writableRegions() {
            var start = region.lowerBound
            while start < region.upperBound {
                let length = Int(min(UInt64(chunk + overlap), region.upperBound - start))
                let read = pread(fd, buffer.baseAddress, length, off_t(start))
                guard read > 0 else {
                    // A page unmapped meanwhile (other threads allocate and free): the next one.
                    start += 4096
                    continue
                }
                let window = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<read])
                for range in excluded where range.overlaps(start..<(start + UInt64(read))) {
                    let from = Int(max(range.lowerBound, start) - start)
                    let to = Int(min(range.upperBound, start + UInt64(read)) - start)
                    SecretBytes.wipe(UnsafeMutableRawBufferPointer(rebasing: window[from..<to]))
                }
                result.bytesRead += read
                for needle in needles {
                    let count = occurrences(of: needle.bytes, in: UnsafeRawBufferPointer(window), before: min(read, chunk))
                    if count > 0 { result.found[needle.name, default: 0] += count }
                }
                SecretBytes.wipe(window)
                // A short read stopped at a page that is gone: go on right after it.
                start += UInt64(min(read, chunk))
            }
        }
        return result
    }

    private static func address(of bytes: UnsafeRawBufferPointer) -> Range<UInt64> {
        let base = UInt64(UInt(bitPattern: bytes.baseAddress))
        return base..<(base + UInt64(bytes.count))
    }

    /// The copies of `needle` in `haystack` that start before `limit` (the rest is the next
    /// chunk's overlap, counted there).
    private static func occurrences(of needle: SecretBytes, in haystack: UnsafeRawBufferPointer, before limit: Int) -> Int {
        needle.withBytes { wanted in
            guard let first = wanted.first, wanted.count <= haystack.count else { return 0 }
            var count = 0
            for index in 0..<min(limit, haystack.count - wanted.count + 1) where haystack[index] == first {
                if memcmp(haystack.baseAddress! + index, wanted.baseAddress!, wanted.count) == 0 { count += 1 }
            }
            return count
        }
    }
}

extension SecretBytes {
    /// A key's bytes as hexadecimal digits (lowercase or uppercase), written straight into a
    /// zeroable buffer.
    func hexDigits(uppercase: Bool) -> SecretBytes {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        let hex = SecretBytes(zeroedCount: 2 * count)
        withBytes { key in
            hex.withMutableBytes { out in
                for (index, byte) in key.enumerated() {
                    out[2 * index] = digits[Int(byte >> 4)]
                    out[2 * index + 1] = digits[Int(byte & 0x0F)]
                }
            }
        }
        return hex
    }

    /// The 32 key bytes of SQLCipher's raw key form `x'<64 hex key>…'`, decoded into a
    /// zeroable buffer.
    func keyBytesOfRawKeyText() -> SecretBytes {
        let key = SecretBytes(zeroedCount: 32)
        withBytes { text in
            key.withMutableBytes { out in
                func value(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x61 + 10 }
                for index in 0..<32 { out[index] = value(text[2 + 2 * index]) << 4 | value(text[3 + 2 * index]) }
            }
        }
        return key
    }
}
