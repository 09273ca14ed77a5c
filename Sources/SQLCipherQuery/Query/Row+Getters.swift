import Foundation
import SQLCipherCore

// MARK: - Typed getters

extension Row {
    /// `true` when the column is NULL.
    public func isNull(_ index: Int) -> Bool { self[index].isNull }

    /// The column as a 64-bit integer, converted as SQLite converts it (`sqlite3_column_int64`,
    /// what ``RowView/int64(_:)`` returns): NULL is 0, a REAL is truncated toward zero (clamped
    /// to Int64's range), a TEXT or BLOB gives its leading integer (0 when it has none).
    @inlinable
    public func int64(_ index: Int) -> Int64 {
        if let integer = storage.int64(at: checkedIndexForGetter(index)) { return integer }
        return SQLiteCoercion.int64(self[index])
    }

    /// The column as a Double, converted as SQLite converts it (`sqlite3_column_double`): NULL
    /// is 0.0, a TEXT or BLOB gives its leading number (0.0 when it has none).
    @inlinable
    public func double(_ index: Int) -> Double {
        if let real = storage.double(at: checkedIndexForGetter(index)) { return real }
        return SQLiteCoercion.double(self[index])
    }

    /// The column as text, converted as SQLite converts it (`sqlite3_column_text`), or `nil` for
    /// NULL: an INTEGER in decimal, a REAL with up to 15 significant digits (`2.0`, `0.1`,
    /// `1.0e+20`), a BLOB's bytes as UTF-8.
    @inlinable
    public func text(_ index: Int) -> String? {
        if let text = storage.text(at: checkedIndexForGetter(index)) { return text }
        return SQLiteCoercion.text(self[index])
    }

    /// Calls `body` with the column's text as UTF-8 bytes (converted as ``text(_:)`` converts),
    /// an empty buffer for NULL. The bytes are valid only during the call.
    public func withUTF8<R>(_ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch self[index] {
        case .blob(let data): return try data.withUnsafeBytes { try body($0.bindMemory(to: UInt8.self)) }
        case let value:
            var text = SQLiteCoercion.text(value) ?? ""
            return try text.withUTF8(body)
        }
    }

    /// `index`, after the same range check as the subscript.
    @inlinable @inline(__always)
    func checkedIndexForGetter(_ index: Int) -> Int {
        precondition(index >= 0 && index < count, "Row index \(index) out of range: the row has \(count) columns")
        return index
    }
}

// MARK: - SQLite's conversions

/// SQLite's conversions between storage classes, as `sqlite3_column_int64`, `_double` and
/// `_text` make them, for a ``Row`` whose values were copied out with their own class.
@usableFromInline
enum SQLiteCoercion {
    @usableFromInline
    package static func int64(_ value: DatabaseValue) -> Int64 {
        switch value {
        case .null: return 0
        case .integer(let integer): return integer
        case .real(let real): return clamped(real)
        case .text(let text): return leadingInteger(Array(text.utf8))
        case .blob(let data): return leadingInteger(Array(data))
        }
    }

    @usableFromInline
    package static func double(_ value: DatabaseValue) -> Double {
        switch value {
        case .null: return 0
        case .integer(let integer): return Double(integer)
        case .real(let real): return real
        case .text(let text): return leadingNumber(Array(text.utf8))
        case .blob(let data): return leadingNumber(Array(data))
        }
    }

    @usableFromInline
    package static func text(_ value: DatabaseValue) -> String? {
        switch value {
        case .null: return nil
        case .integer(let integer): return String(integer)
        case .real(let real): return realText(real)
        case .text(let text): return text
        case .blob(let data): return String(decoding: data, as: UTF8.self)
        }
    }

    /// A REAL as SQLite prints it (`%!.15g`): 15 significant digits, and always a decimal point.
    static func realText(_ real: Double) -> String {
        if real.isInfinite { return real < 0 ? "-Inf" : "Inf" }
        let printed = String(format: "%.15g", real)
        if printed.contains(".") || printed.contains("n") { return printed }
        if let exponent = printed.firstIndex(of: "e") { return printed[..<exponent] + ".0" + printed[exponent...] }
        return printed + ".0"
    }

    /// A REAL truncated toward zero, clamped to Int64's range.
    static func clamped(_ real: Double) -> Int64 {
        if real.isNaN { return 0 }
        if real <= -9_223_372_036_854_775_808.0 { return .min }
        if real >= 9_223_372_036_854_775_807.0 { return .max }
        return Int64(real)
    }

    /// The integer that begins `bytes` after leading spaces (an optional sign, then digits),
    /// clamped to Int64's range; 0 when there is none.
    static func leadingInteger(_ bytes: [UInt8]) -> Int64 {
        var index = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
        var negative = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        var magnitude: UInt64 = 0
        while index < bytes.endIndex, let digit = digit(bytes[index]) {
            let (times, overflow) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(UInt64(digit))
            if overflow || overflow2 { return negative ? .min : .max }
            magnitude = sum
            index += 1
        }
        if negative { return magnitude >= UInt64(Int64.max) + 1 ? .min : -Int64(magnitude) }
        return magnitude > UInt64(Int64.max) ? .max : Int64(magnitude)
    }

    /// The number that begins `bytes` after leading spaces (sign, digits, a fraction, an
    /// exponent); 0 when there is none.
    static func leadingNumber(_ bytes: [UInt8]) -> Double {
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.endIndex
        var index = start
        var best = start
        func skipDigits() -> Bool {
            let from = index
            while index < bytes.endIndex, digit(bytes[index]) != nil { index += 1 }
            return index > from
        }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
        var digits = skipDigits()
        if digits { best = index }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            index += 1
            if skipDigits() || digits {
                digits = true
                best = index
            }
        }
        if digits, index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") { index += 1 }
            if skipDigits() { best = index }
        }
        return Double(String(decoding: bytes[start..<best], as: UTF8.self)) ?? 0
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }

    private static func digit(_ byte: UInt8) -> UInt8? {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) ? byte - UInt8(ascii: "0") : nil
    }
}
