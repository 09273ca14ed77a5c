// MARK: - Keys

extension LineEditor {
    /// What one key press (or escape sequence) asks for.
    enum Key: Equatable {
        case insert(Character)
        case backspace, delete, left, right, home, end, up, down
        case enter
        /// Ctrl-D: end of input on an empty line, otherwise delete.
        case endOfInput
        /// Ctrl-U: delete up to the cursor.
        case killToStart
        /// Ctrl-K: delete from the cursor.
        case killToEnd
        case ignored
    }

    /// Reads the next key from `next` (one byte a call, `nil` at end of input): control keys,
    /// `ESC [ …` and `ESC O …` sequences (arrows, Home, End, Delete) and UTF-8 characters.
    static func readKey(_ next: () -> UInt8?) -> Key? {
        guard let byte = next() else { return nil }
        switch byte {
        case 0x0D, 0x0A: return .enter
        case 0x7F, 0x08: return .backspace
        case 0x04: return .endOfInput
        case 0x01: return .home
        case 0x05: return .end
        case 0x02: return .left
        case 0x06: return .right
        case 0x10: return .up
        case 0x0E: return .down
        case 0x15: return .killToStart
        case 0x0B: return .killToEnd
        case 0x1B: return escapeSequence(next)
        case ..<0x20: return .ignored
        default: return character(startingWith: byte, next)
        }
    }

    /// The key of `ESC [ params final` or `ESC O final`.
    private static func escapeSequence(_ next: () -> UInt8?) -> Key {
        guard let kind = next() else { return .ignored }
        guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return .ignored }
        var parameter = ""
        while let byte = next() {
            guard (0x40...0x7E).contains(byte) else {
                parameter.append(Character(Unicode.Scalar(byte)))
                continue
            }
            switch Character(Unicode.Scalar(byte)) {
            case "A": return .up
            case "B": return .down
            case "C": return .right
            case "D": return .left
            case "H": return .home
            case "F": return .end
            case "~" where ["1", "7"].contains(parameter): return .home
            case "~" where ["4", "8"].contains(parameter): return .end
            case "~" where parameter == "3": return .delete
            default: return .ignored
            }
        }
        return .ignored
    }

    /// One UTF-8 character whose first byte is `lead`; invalid bytes are ignored.
    private static func character(startingWith lead: UInt8, _ next: () -> UInt8?) -> Key {
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard lead < 0x80 || lead >= 0xC0 else { return .ignored }
        var bytes = [lead]
        while bytes.count < length, let byte = next() { bytes.append(byte) }
        guard let text = String(validating: bytes, as: UTF8.self), let character = text.first else { return .ignored }
        return .insert(character)
    }
}
