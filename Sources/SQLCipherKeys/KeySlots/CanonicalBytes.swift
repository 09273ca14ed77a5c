import Foundation

// MARK: - CanonicalBytes

/// An unambiguous byte string of fields (each as a 4-byte big-endian length and its bytes):
/// the associated data of every AEAD in a slot file and the input of its authenticator, so
/// that no two different sets of fields give the same bytes.
struct CanonicalBytes {
    private(set) var data = Data()

    init(purpose: String) { add(purpose) }

    mutating func add(_ bytes: Data) {
        var length = UInt32(bytes.count).bigEndian
        withUnsafeBytes(of: &length) { data.append(contentsOf: $0) }
        data.append(bytes)
    }

    mutating func add(_ text: String) { add(Data(text.utf8)) }

    mutating func add(_ number: Int) { add(String(number)) }

    mutating func add(_ number: Int64) { add(String(number)) }
}
