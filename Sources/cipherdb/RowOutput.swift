import Foundation
import SQLCipherManager
import TerminalIO

// MARK: - Cell

/// One value of a row as exec prints it: TEXT whose bytes are not UTF-8 is kept as those bytes
/// (``RowView/withUTF8(_:_:)``), never turned into U+FFFD.
enum Cell {
    case value(DatabaseValue)
    case invalidText([UInt8])

    /// The cells of the row `row` is on.
    static func cells(_ row: RowView) -> [Cell] {
        (0..<row.count).map { index in
            let value = row[index]
            guard case .text = value else { return .value(value) }
            return row.withUTF8(index) { bytes in
                String(validating: bytes, as: UTF8.self) == nil ? .invalidText(Array(bytes)) : .value(value)
            }
        }
    }
}

// MARK: - TSV

/// Rows as tab-separated values: a header line of column names, then one line a row.
/// NULL prints as `\N`; a BLOB prints as `x'hex'`; text and names are escaped for a terminal
/// (``TerminalText/escape(_:)``: tab, newline, carriage return and backslash as `\t`, `\n`,
/// `\r`, `\\`, other controls as `\x1b`, C1 and bidi controls as `\u{202e}`, bytes that are
/// not UTF-8 as `\xff`), so no value can move the cursor or forge a line. `--json` gives the
/// exact values.
enum TSV {
    static func header(_ columnNames: [String]) -> String {
        columnNames.map(TerminalText.escape).joined(separator: "\t")
    }

    static func line(_ cells: [Cell]) -> String {
        cells.map(field).joined(separator: "\t")
    }

    static func field(_ cell: Cell) -> String {
        switch cell {
        case .invalidText(let bytes): TerminalText.escape(bytes: bytes)
        case .value(.null): "\\N"
        case .value(.integer(let number)): "\(number)"
        case .value(.real(let number)): "\(number)"
        case .value(.text(let text)): TerminalText.escape(text)
        case .value(.blob(let data)): "x'" + Hex.string(data) + "'"
        }
    }
}

// MARK: - JSON

/// Rows as JSON objects whose keys keep the column order. NULL is `null`, numbers are numbers
/// (a non-finite real is `null`), a BLOB is the tagged value `{"base64":"AP8="}`, so it is never
/// mistaken for text, and TEXT whose bytes are not UTF-8 is `{"base64":"/w==","invalidUTF8":true}`
/// (its exact bytes). Strings escape every control a terminal would act on as `\uXXXX`, so the
/// output is safe on a terminal and a JSON parser still reads the exact text.
enum JSONRows {
    static func object(_ columnNames: [String], _ cells: [Cell]) -> String {
        let members = zip(columnNames, cells).map { name, cell in
            string(name) + ":" + self.value(cell)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func value(_ cell: Cell) -> String {
        switch cell {
        case .invalidText(let bytes): "{\"base64\":" + string(Data(bytes).base64EncodedString()) + ",\"invalidUTF8\":true}"
        case .value(.null): "null"
        case .value(.integer(let number)): "\(number)"
        case .value(.real(let number)): number.isFinite ? "\(number)" : "null"
        case .value(.text(let text)): string(text)
        case .value(.blob(let data)): "{\"base64\":" + string(data.base64EncodedString()) + "}"
        }
    }

    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where TerminalText.needsEscape(scalar): out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

enum Hex {
    static func string(_ data: Data) -> String {
        data.map { String(format: "%02x", $0) }.joined()
    }
}
