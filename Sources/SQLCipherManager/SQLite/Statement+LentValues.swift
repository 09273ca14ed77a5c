// MARK: - Binding an array of values, texts and blobs lent

// The record writes bind values collected by their encoder (Records/): one buffer reused row
// after row. Like the one-to-eight-value calls (Statement+Borrowed.swift), texts and blobs are
// bound SQLITE_STATIC inside the closures that lend their bytes, and the statement steps in the
// innermost one: no pointer outlives its scope, and every later run rebinds every parameter.

extension Statement {
    /// Binds `values[order[i]]` (or `values[i]` without an order) at parameter `i + 1` for each
    /// of the statement's `count` parameters and runs `body` (which steps) while they are bound.
    func withLentBindings(
        _ values: [DatabaseValue], order: [Int]?, count: Int, _ body: () throws -> Void
    ) throws {
        // Through buffer pointers: each level of the recursion passes two words, no array retained.
        try values.withUnsafeBufferPointer { values in
            guard let order else { return try bindLent(values, order: nil, from: 0, count: count, body) }
            try order.withUnsafeBufferPointer { order in try bindLent(values, order: order, from: 0, count: count, body) }
        }
    }

    /// Binds the numbers and NULLs from `position` on up to the next text or blob, which it
    /// lends, and recurses inside the lending closure.
    private func bindLent(
        _ values: UnsafeBufferPointer<DatabaseValue>, order: UnsafeBufferPointer<Int>?, from position: Int, count: Int,
        _ body: () throws -> Void
    ) throws {
        var position = position
        while position < count {
            let value = values[order?[position] ?? position]
            let index = Int32(position + 1)
            position += 1
            switch value {
            case .text(let text):
                return try withBorrowed(text: text, at: index) {
                    try bindLent(values, order: order, from: position, count: count, body)
                }
            case .blob(let data):
                return try withBorrowed(blob: data, at: index) {
                    try bindLent(values, order: order, from: position, count: count, body)
                }
            case .integer(let int): try bind(int64: int, at: index)
            case .real(let double): try bind(double: double, at: index)
            case .null: try bindNull(at: index)
            }
        }
        try body()
    }
}
