import CBaseline

// MARK: - Rows

/// The Swift side of the row generator in `Benchmarks/CBaseline/rows.c`: the same texts (taken
/// from the C pool) and the same numbers, so both sides write identical rows.
struct Rows {
    static let insertSQL = "INSERT INTO bench(id, t1, t2, t3, t4, n1, n2, r) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
    static let selectAllSQL = "SELECT id, t1, t2, t3, t4, n1, n2, r FROM bench"
    static let lookupSQL = "SELECT id, t1, t2, t3, t4, n1, n2, r FROM bench WHERE id = ?"

    private let pool: [[String]]
    private let poolSize: Int

    init() {
        let size = Int(cb_pool_size())
        var buffer = [CChar](repeating: 0, count: 64)
        poolSize = size
        pool = (0..<4).map { field in
            (0..<size).map { k in
                let length = Int(cb_pool_text(Int32(field), Int32(k), &buffer, 64))
                return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
    }

    func text(_ row: Int, _ field: Int) -> String {
        pool[field][(row * (2 * field + 3) + field) % poolSize]
    }

    /// The text of `field` for `row`, formatted per row with string interpolation, as an
    /// application builds its values: the same bytes as the pool entry (`cb_format_text`).
    static func formattedText(_ row: Int, _ field: Int) -> String {
        let k = (row * (2 * field + 3) + field) % 1024
        let length = 12 + (k * 37 + field * 11) % 40
        // "f<field>k<k>:" is 4 characters plus the digits of k.
        let prefix = 5 + (k >= 10 ? 1 : 0) + (k >= 100 ? 1 : 0) + (k >= 1000 ? 1 : 0)
        let utf8 = letters.utf8
        let start = utf8.index(utf8.startIndex, offsetBy: (k + prefix) % 26)
        return "f\(field)k\(k):\(letters[start..<utf8.index(start, offsetBy: length - prefix)])"
    }

    /// 78 letters: every rotation of the alphabet is followed by at least 52 (as in `Benchmarks/CBaseline/seed.c`).
    private static let letters = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuvwxyz"

    static func int1(_ row: Int) -> Int64 { Int64((row * 7919) % 100_000) }
    static func int2(_ row: Int) -> Int64 { Int64(row % 13) }
    static func real(_ row: Int) -> Double { Double(row) * 0.25 }

    /// `count` pseudo-random primary keys in 1...rows (SplitMix64, fixed seed).
    static func randomIDs(count: Int, rows: Int) -> [Int64] {
        var state: UInt64 = 0x5EED_1234_ABCD_0001
        return (0..<count).map { _ in
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return Int64(z % UInt64(rows)) + 1
        }
    }
}
