@testable import SQLCipherCore
@testable import SQLCipherManager

/// What the linked SQLCipher writes by default, read at run time (`PRAGMA cipher_version`), for
/// tests that place bytes by page or expect a format's name.
enum LinkedFormat {
    /// `true` on SQLCipher 4.x.
    static var isSQLCipher4: Bool { (LinkedLibrary.cipherVersion?.major ?? 3) >= 4 }

    /// The page size of a new database with no `cipher_page_size`: 4096 on 4.x, 1024 on 3.x.
    static var pageSize: Int { isSQLCipher4 ? 4096 : 1024 }
}
