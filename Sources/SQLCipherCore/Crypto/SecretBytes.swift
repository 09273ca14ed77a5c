import Foundation

// MARK: - SecretBytes

/// Key material in memory that this type owns alone and zeroes when it is released.
///
/// Swift `String`s and `Data` given by the caller may be copied by the runtime and cannot be
/// reliably wiped; the bytes kept here (the cached password) are. A program that reads a
/// password can read it straight into one (``init(zeroed:)``, then ``withMutableBytes(_:)``) and
/// give it to the `password:` methods that take `SecretBytes`, so no `String` copy of it is made.
public final class SecretBytes: @unchecked Sendable {
    // @unchecked: every stored property but `observer` (read and written only under
    // `observerLock`) is a `let`. The buffer's bytes are written only by the
    // initializers, by `withMutableBytes` while the value is being built (before it is shared),
    // and by deinit, when no other reference exists; in between they are only read.
    private let buffer: UnsafeMutableRawBufferPointer
    private let observerLock = NSLock()
    private var observer: (@Sendable (UnsafeRawBufferPointer) -> Void)?

    /// Test hook: called by deinit with the buffer right after it was zeroed, before it is
    /// freed. Set and read under a lock, so a test may set it from any thread.
    var wipeObserver: (@Sendable (UnsafeRawBufferPointer) -> Void)? {
        get { observerLock.withLock { observer } }
        set { observerLock.withLock { observer = newValue } }
    }

    /// Copies the bytes of a collection into a fresh buffer.
    package init<C: Collection>(_ bytes: C, isRawKey: Bool = false) where C.Element == UInt8 {
        buffer = .allocate(byteCount: max(bytes.count, 1), alignment: 1)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        _ = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<bytes.count]).initializeMemory(as: UInt8.self, from: bytes)
        count = bytes.count
        self.isRawKey = isRawKey
    }

    /// A password normalised to NFC and encoded as UTF-8, so the same password typed on two
    /// systems (composed or decomposed accents) gives the same key.
    package convenience init(password: String) {
        // ASCII is its own NFC form: copied straight from the caller's string, with no
        // normalised `String` (which the runtime would free without wiping).
        if password.utf8.allSatisfy({ $0 < 0x80 }) {
            self.init(password.utf8)
            return
        }
        var utf8 = Array(password.precomposedStringWithCanonicalMapping.utf8)
        self.init(utf8)
        utf8.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// A raw 32-byte key in SQLCipher's `x'<64 hex>'` form, which `sqlite3_key` uses directly
    /// without PBKDF2.
    package convenience init<C: Collection>(rawKey: C) where C.Element == UInt8 {
        let hex = Array("0123456789abcdef".utf8)
        var text: [UInt8] = [UInt8(ascii: "x"), UInt8(ascii: "'")]
        text.reserveCapacity(rawKey.count * 2 + 3)
        for byte in rawKey {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        text.append(UInt8(ascii: "'"))
        self.init(text, isRawKey: true)
        text.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// The number of bytes.
    public let count: Int

    /// `count` zero bytes, to be filled in place with ``withMutableBytes(_:)``: a password read
    /// straight into it is never in memory that is not wiped.
    public convenience init(zeroed count: Int) {
        self.init(zeroedCount: count)
    }

    /// A copy of `bytes` (a password's UTF-8 bytes, for example); wipe the original yourself.
    public convenience init<C: Collection>(copying bytes: C) where C.Element == UInt8 {
        self.init(bytes)
    }

    /// `count` zero bytes, to be filled in place with ``withMutableBytes(_:)`` (so that a key
    /// computed into it is never in memory this type does not wipe).
    package init(zeroedCount: Int, isRawKey: Bool = false) {
        buffer = .allocate(byteCount: max(zeroedCount, 1), alignment: 1)
        buffer.initializeMemory(as: UInt8.self, repeating: 0)
        count = zeroedCount
        self.isRawKey = isRawKey
    }

    /// A raw key with its salt in SQLCipher's `x'<64 hex key><32 hex salt>'` form, written
    /// straight into this type's buffer.
    package convenience init(rawKeyText key: UnsafeRawBufferPointer, salt: [UInt8]) {
        self.init(zeroedCount: 3 + 2 * (key.count + salt.count), isRawKey: true)
        let hex = Array("0123456789abcdef".utf8)
        withMutableBytes { out in
            var index = 0
            func put(_ byte: UInt8) {
                out[index] = byte
                index += 1
            }
            put(UInt8(ascii: "x"))
            put(UInt8(ascii: "'"))
            for byte in key {
                put(hex[Int(byte >> 4)])
                put(hex[Int(byte & 0x0F)])
            }
            for byte in salt {
                put(hex[Int(byte >> 4)])
                put(hex[Int(byte & 0x0F)])
            }
            put(UInt8(ascii: "'"))
        }
    }

    /// Lends the bytes for writing, without copying them. Only while the value is being built
    /// (before it is given to another thread or to the library).
    public func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// `true` for a raw key (`x'…'`), `false` for a password.
    package let isRawKey: Bool

    /// Gives the bytes to a closure, without copying them.
    public func withBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }

    /// Compares two secrets in time that depends only on their lengths.
    public func isEqual(to other: SecretBytes) -> Bool {
        guard count == other.count else { return false }
        return withBytes { mine in
            other.withBytes { theirs in
                var difference: UInt8 = 0
                for index in 0..<count { difference |= mine[index] ^ theirs[index] }
                return difference == 0
            }
        }
    }

    deinit {
        Self.wipe(buffer)
        wipeObserver?(UnsafeRawBufferPointer(buffer))
        buffer.deallocate()
    }

    /// Zeroes memory with a call the optimiser may not remove as a dead store before `free`
    /// (`explicit_bzero` in glibc, `memset_s` on Apple systems).
    package static func wipe(_ buffer: UnsafeMutableRawBufferPointer) { POSIX.zero(buffer) }
}

extension SecretBytes: CustomStringConvertible, CustomDebugStringConvertible {
    /// `SecretBytes(<redacted N bytes>)`: never the bytes.
    public var description: String { "SecretBytes(<redacted \(count) bytes>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}
