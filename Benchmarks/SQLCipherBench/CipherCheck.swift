import CBaseline
import Foundation
import SQLCipherManager

// MARK: - Cipher check

/// Proves, before anything is measured, that the library and raw C run the same cipher settings
/// and that they are the linked SQLCipher's defaults: neither side pins a page size, KDF or HMAC,
/// so a 3.x-style C baseline beside a 4.x library (or the reverse) would be a different workload.
/// A fixture (made by C) is opened by both sides and its settings read back from each; a file the
/// library creates must open in raw C with no setting given (the page size, KDF and HMAC all
/// have to match for page 1 to decrypt).
enum CipherCheck {
    /// The line for the report's header; throws when the two sides disagree.
    static func run(fixtures: Fixtures, rows: Int) throws -> String {
        try fixtures.ensure(rows: rows, encrypted: true, pageSize: 0)
        let fixture = fixtures.database(rows: rows, encrypted: true, pageSize: 0)
        let c = try cSettings(path: fixture.path)
        let manager = DatabaseManager(url: fixture)
        try manager.open(password: Fixtures.password)
        let ours = try manager.cipherInfo.settings
        manager.close()
        let kdf = try defaultKDF()
        let expected = CipherOptions(
            kdfIterations: Int(c.kdf_iter), pageSize: Int(c.page_size), usesHMAC: c.use_hmac != 0,
            kdfAlgorithm: KDFAlgorithm(rawValue: text(c.kdf_algorithm)), hmacAlgorithm: HMACAlgorithm(rawValue: text(c.hmac_algorithm)))
        guard ours == expected else { throw BenchError.failed("cipher settings differ: ours \(ours), raw C \(expected)") }
        guard expected.kdfIterations == kdf.iterations, (expected.kdfAlgorithm?.rawValue ?? "PBKDF2_HMAC_SHA1") == kdf.algorithm
        else { throw BenchError.failed("the fixture is not at the linked defaults (\(kdf.algorithm) × \(kdf.iterations)): \(expected)") }
        try checkCreatedFileOpensInC(fixtures: fixtures)
        return "SQLCipher \(text(c.version)): \(expected) on both sides (read back from each) = the linked library's defaults"
    }

    /// The shared object SQLCipher was loaded from (`/proc/self/maps`), to tell the legs apart.
    static var loadedLibrary: String {
        // Read to the end: a /proc file reports no size, and a sized read stops at its first page.
        guard let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() else { return "unknown" }
        let maps = String(decoding: data, as: UTF8.self)
        let line = maps.split(separator: "\n").first { $0.contains("libsqlcipher") }
        return line?.split(separator: " ").last.map(String.init) ?? "unknown"
    }

    // MARK: - Helpers

    private static func cSettings(path: String) throws -> cb_cipher_settings_t {
        try Fixtures.withCOptions(encrypted: true, pageSize: 0, cacheSize: 0) { options in
            guard let db = cb_open(path, options, 0) else { throw BenchError.failed("cipher check: C open \(path)") }
            defer { cb_close(db) }
            var settings = cb_cipher_settings_t()
            guard cb_cipher_settings(db, &settings) == 0 else { throw BenchError.failed("cipher check: C pragmas") }
            return settings
        }
    }

    private static func defaultKDF() throws -> (iterations: Int, algorithm: String) {
        var iterations: Int32 = 0
        var name = [CChar](repeating: 0, count: 32)
        guard cb_default_kdf(&iterations, &name, Int32(name.count)) == 0 else { throw BenchError.failed("default kdf") }
        return (Int(iterations), String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    private static func checkCreatedFileOpensInC(fixtures: Fixtures) throws {
        let url = fixtures.scratch("cipher-check")
        Fixtures.remove(url.path)
        defer { Fixtures.remove(url.path) }
        let manager = DatabaseManager(url: url)
        try manager.create(password: Fixtures.password)
        manager.close()
        _ = try cSettings(path: url.path)
    }

    /// A C `char[N]` field as a String (up to its NUL).
    private static func text<T>(_ field: T) -> String {
        withUnsafeBytes(of: field) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
    }
}
