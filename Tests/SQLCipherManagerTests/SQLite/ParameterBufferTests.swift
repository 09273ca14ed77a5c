import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// ``ParameterBuffer``: what a statement reads is exactly what was set, texts and blobs from the
/// arena, through growth, refills and clearing.
@Suite struct ParameterBufferTests {
    private static let values: [DatabaseValue] = [
        .null, .integer(.min), .integer(.max), .real(-0.5), .real(.infinity),
        .text(""), .text("é日本🙂"), .text(String(repeating: "long text ", count: 100)),
        .blob(Data()), .blob(Data((0..<1000).map { UInt8($0 % 256) })), .text("after the growth"),
    ]

    @Test("every kind binds as set, an empty text and an empty blob are not NULL, order picks")
    func bindsWhatWasSet() throws {
        let dir = TemporaryDirectory()
        let connection = try Connection(path: dir.file("plain.db").path, mode: .readWriteCreate)
        let buffer = ParameterBuffer(Self.values)
        #expect((0..<buffer.count).map { buffer[$0] } == Self.values)
        #expect(try read(buffer, order: nil, connection) == Self.values)
        let types = try connection.cachedStatement("SELECT typeof(?6), typeof(?9), length(?8)")
        try buffer.bind(to: types, order: Array(0..<9))
        #expect(try types.step())
        #expect([types.value(at: 0), types.value(at: 1), types.value(at: 2)] == [.text("text"), .text("blob"), .integer(1000)])
        types.resetKeepingBindings()
        let order = Array(Self.values.indices.reversed())
        #expect(try read(buffer, order: order, connection) == order.map { Self.values[$0] })
    }

    @Test("a new row reuses the arena; clear zeroes it and leaves NULLs")
    func refillAndClear() throws {
        let dir = TemporaryDirectory()
        let connection = try Connection(path: dir.file("plain.db").path, mode: .readWriteCreate)
        let buffer = ParameterBuffer(count: 2)
        for row in 0..<50 {
            let (text, blob) = (String(repeating: "x", count: row * 20), Data(repeating: UInt8(row), count: row))
            buffer.startRow()
            buffer.setText(0, text)
            buffer.setBlob(1, blob)
            #expect(try read(buffer, order: nil, connection) == [.text(text), .blob(blob)])
        }
        buffer.clear()
        #expect(buffer.isNull(0) && buffer.isNull(1))
        #expect(buffer.appendNull() == 2)
        buffer.setReal(2, 1.5)
        #expect(try read(buffer, order: nil, connection) == [.null, .null, .real(1.5)])
    }

    private func read(_ buffer: ParameterBuffer, order: [Int]?, _ connection: Connection) throws -> [DatabaseValue] {
        let count = order?.count ?? buffer.count
        let statement = try connection.cachedStatement("SELECT " + (1...count).map { "?\($0)" }.joined(separator: ", "))
        defer { statement.resetKeepingBindings() }
        try buffer.bind(to: statement, order: order)
        #expect(try statement.step())
        return (0..<Int32(count)).map { statement.value(at: $0) }
    }
}
