import Foundation
import SQLCipherManager

// MARK: - TSV

/// Rows as tab-separated values: a header line of column names, then one line a row.
/// NULL prints as `\N`; tab, newline, carriage return and backslash are escaped as `\t`, `\n`,
/// `\r`, `\\`; a BLOB prints as `x'hex'`.
enum TSV {
    static func header(_ columnNames: [String]) -> String {
        columnNames.map(escape).joined(separator: "\t")
    }

    static func line(_ row: Row) -> String {
        row.values.map(field).joined(separator: "\t")
    }

    static func field(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "\\N"
        case .integer(let number): "\(number)"
        case .real(let number): "\(number)"
        case .text(let text): escape(text)
        case .blob(let data): "x'" + Hex.string(data) + "'"
        }
    }

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "\\": escaped += "\\\\"
            case "\t": escaped += "\\t"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

// MARK: - JSON

/// Rows as JSON objects whose keys keep the column order. NULL is `null`, numbers are numbers
/// (a non-finite real is `null`), a BLOB is the tagged value `{"base64":"AP8="}`, so it is never
/// mistaken for text.
enum JSONRows {
    static func object(_ row: Row) -> String {
        let members = zip(row.columnNames, row.values).map { name, value in
            string(name) + ":" + self.value(value)
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    static func value(_ value: DatabaseValue) -> String {
        switch value {
        case .null: "null"
        case .integer(let number): "\(number)"
        case .real(let number): number.isFinite ? "\(number)" : "null"
        case .text(let text): string(text)
        case .blob(let data): "{\"base64\":" + string(data.base64EncodedString()) + "}"
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
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
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
