// MARK: - TerminalText

/// Text from data (a value, a table or column name, a key-slot label, a file name, SQL) made
/// safe to show on a terminal: nothing in it can move the cursor, change colours, set the
/// window title or forge a line. The one escaping function of both programs.
///
/// Escaped, each as a visible backslash sequence: the C0 controls and DEL (`\t`, `\n`, `\r`,
/// else `\x1b` style), the C1 controls U+0080–U+009F (`\u{9b}`), the bidirectional marks,
/// embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069)
/// and the line and paragraph separators U+2028 and U+2029 (`\u{202e}` style), bytes that are
/// not UTF-8 (`\xff`), and the backslash itself (`\\`), so every escape reads one way back.
/// Everything else, letters of any script and emoji included, is kept.
public enum TerminalText {
    /// `text` with every character a terminal would act on written as an escape.
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars { append(scalar, to: &out) }
        return out
    }

    /// `bytes` decoded as UTF-8 and escaped as ``escape(_:)`` does; each byte that is not part
    /// of valid UTF-8 is shown as `\xHH` instead of being replaced by U+FFFD.
    public static func escape<Bytes: Collection<UInt8>>(bytes: Bytes) -> String {
        let bytes = Array(bytes)
        var out = ""
        var index = 0
        while index < bytes.count {
            if let (scalar, length) = scalar(in: bytes, at: index) {
                append(scalar, to: &out)
                index += length
            } else {
                out += hex(bytes[index])
                index += 1
            }
        }
        return out
    }

    /// The well-formed UTF-8 scalar starting at `index` and its length in bytes, or `nil`.
    private static func scalar(in bytes: [UInt8], at index: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[index]
        let length: Int
        switch lead {
        case 0x00...0x7F: return (Unicode.Scalar(lead), 1)
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        guard let text = String(validating: bytes[index..<index + length], as: UTF8.self), let scalar = text.unicodeScalars.first
        else { return nil }
        return (scalar, length)
    }

    /// `true` when a terminal would act on `scalar` rather than show it.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }

    private static func append(_ scalar: Unicode.Scalar, to out: inout String) {
        switch scalar {
        case "\\": out += "\\\\"
        case "\t": out += "\\t"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case _ where scalar.value < 0x80 && needsEscape(scalar): out += hex(UInt8(scalar.value))
        case _ where needsEscape(scalar): out += "\\u{" + String(scalar.value, radix: 16) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }

    private static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
    }
}
