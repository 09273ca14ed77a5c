import Foundation
import SQLCipherCore

// MARK: - RecoveryKey

/// A recovery key, returned once by ``DatabaseKeySlots/addRecoveryKey(label:)``: 184 random bits
/// and a 16-bit check, written as 8 groups of 5 Crockford base32 characters
/// (`7KQ2M-…-X4P9D`; no I, L, O or U, and case, spaces and dashes do not matter when typed back).
///
/// Show ``text`` to the user once and let them write it down; this library keeps no copy.
/// Type it wherever a password is asked (``DatabaseManager/open(password:)`` tries the recovery
/// slots with it) or give it to ``DatabaseManager/open(recoveryKey:)``. Its `description`
/// is redacted.
public struct RecoveryKey: Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The slot that holds it.
    public let slotID: Int
    /// The key in its written form. Show it once; do not log it.
    public let text: String

    package init(slotID: Int, text: String) {
        self.slotID = slotID
        self.text = text
    }

    /// The slot it opens, never the key itself: `RecoveryKey(slot …, <redacted>)`.
    public var description: String { "RecoveryKey(slot \(slotID), <redacted>)" }
    /// The same as ``description``: the key is never printed, not even in a debugger.
    public var debugDescription: String { description }

    // MARK: - Encoding

    package static let randomLength = 23
    private static let checkLength = 2
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// The written form of `secret` (23 bytes): its bytes and a 2-byte BLAKE2b check, in base32 groups.
    package static func text(for secret: SecretBytes) -> String {
        var bits = secret.withBytes { Array($0) } + check(secret)
        defer { Sodium.wipeArray(&bits) }
        var characters: [UInt8] = []
        for index in 0..<(bits.count * 8 / 5) {
            var value = 0
            for bit in 0..<5 {
                let position = index * 5 + bit
                value = value << 1 | Int(bits[position / 8] >> (7 - UInt8(position % 8)) & 1)
            }
            if index > 0, index % 5 == 0 { characters.append(UInt8(ascii: "-")) }
            characters.append(alphabet[value])
        }
        return String(decoding: characters, as: UTF8.self)
    }

    /// `true` when `bytes` may be a typed recovery key: 30 to 80 ASCII letters, digits,
    /// dashes and spaces. Anything else is not parsed (a parse copies the text).
    package static func mayBeRecoveryKey<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        (30...80).contains(bytes.count)
            && bytes.allSatisfy {
                $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: " ") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0 & 0xDF)
            }
    }

    /// The 23 secret bytes of a typed recovery key, or why it is not one.
    package static func secret(parsing typed: String) throws -> SecretBytes {
        var values: [UInt8] = []
        for scalar in typed.uppercased().unicodeScalars where scalar != "-" && scalar != " " {
            let mapped: Unicode.Scalar =
                switch scalar {
                case "O": "0"
                case "I", "L": "1"
                default: scalar
                }
            guard mapped.isASCII, let value = alphabet.firstIndex(of: UInt8(mapped.value)) else {
                throw KeySlotError.invalidRecoveryKey(reason: "it contains a character that is not in the alphabet")
            }
            values.append(UInt8(value))
        }
        defer { Sodium.wipeArray(&values) }
        let total = randomLength + checkLength
        guard values.count == total * 8 / 5 else {
            throw KeySlotError.invalidRecoveryKey(reason: "it has \(values.count) characters instead of \(total * 8 / 5)")
        }
        let bytes = SecretBytes(zeroedCount: total)
        bytes.withMutableBytes { out in
            for (index, value) in values.enumerated() {
                for bit in 0..<5 where value >> (4 - UInt8(bit)) & 1 == 1 {
                    let position = index * 5 + bit
                    out[position / 8] |= 1 << (7 - UInt8(position % 8))
                }
            }
        }
        let secret = bytes.withBytes { SecretBytes($0.prefix(randomLength)) }
        let given = bytes.withBytes { Data($0.suffix(checkLength)) }
        guard given == Data(check(secret)) else {
            throw KeySlotError.invalidRecoveryKey(reason: "its check characters do not match (a typing mistake)")
        }
        return secret
    }

    /// The first 2 bytes of BLAKE2b("scm-recovery-check" ‖ secret): catches typing mistakes, not a secret.
    private static func check(_ secret: SecretBytes) -> [UInt8] {
        let label = Array("scm-recovery-check".utf8)
        let digest = label.withUnsafeBytes { labelBytes in
            secret.withBytes { Sodium.hash([labelBytes, $0], key: nil, length: 16) }
        }
        return digest.withBytes { Array($0.prefix(checkLength)) }
    }
}
