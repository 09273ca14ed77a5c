import Foundation

// MARK: - SecretBytes

/// Key material in memory that this type owns alone and zeroes when it is released.
///
/// Swift `String`s and `Data` given by the caller may be copied by the runtime and cannot be
/// reliably wiped; the bytes kept here (the cached password) are.
final class SecretBytes: @unchecked Sendable {
    // Immutable after init; only deinit writes (zeroes) the buffer.
    private let buffer: UnsafeMutableRawBufferPointer

    /// Copies the bytes of a collection into a fresh buffer.
    init<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 1)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        _ = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count]).initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
    }

    /// A password normalised to NFC and encoded as UTF-8, so the same password typed on two
    /// systems (composed or decomposed accents) gives the same key.
    convenience init(password: String) {
        var utf8 = Array(password.precomposedStringWithCanonicalMapping.utf8)
        self.init(utf8)
        utf8.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// A raw 32-byte key in SQLCipher's `x'<64 hex>'` form, which `sqlite3_key` uses directly
    /// without PBKDF2.
    convenience init(rawKey: Data) {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "x"), UInt8(ascii: "'")]
        text.reserveCapacity(rawKey.count * 2 + 3)
        for byte in rawKey {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        text.append(UInt8(ascii: "'"))
        self.init(text)
        text.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    let count: Int

    /// Gives the bytes to a closure, without copying them.
    func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    deinit {
        // memset_s is not on Linux; a volatile-ish loop through the raw pointer is not elided
        // because the memory is deallocated right after through an opaque call.
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        buffer.deallocate()
    }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible {
    var description: String { "SecretBytes(<redacted \(count) bytes>)" }
    var debugDescription: String { description }
}
