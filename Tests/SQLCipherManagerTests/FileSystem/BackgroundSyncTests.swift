import Foundation
import Testing

@testable import SQLCipherCore
@testable import SQLCipherEngine
@testable import SQLCipherKeys
@testable import SQLCipherManager
@testable import SQLCipherQuery

/// ``FileSystem/BackgroundSync``: the flush the export engine runs beside its verification.
@Suite struct BackgroundSyncTests {
    @Test func aFileIsFlushedAndEveryWaitSucceeds() throws {
        let dir = TemporaryDirectory()
        let file = dir.file("data.bin")
        try Data(repeating: 7, count: 256 * 1024).write(to: file)
        let flush = try FileSystem.BackgroundSync(file.path)
        try flush.wait()
        try flush.wait()
    }

    @Test func aMissingFileFailsAtOnceNamingTheCall() throws {
        let dir = TemporaryDirectory()
        let missing = dir.file("missing.bin").path
        #expect {
            _ = try FileSystem.BackgroundSync(missing)
        } throws: { error in
            guard let failure = error as? FileSystem.Failure else { return false }
            return failure.operation == "open" && failure.path == missing && failure.errno == .noSuchFile
        }
    }
}
