// MARK: - Ranges
import SQLCipherCore

extension CipherOptions {
    /// Checks every number against its range, without SQLCipher: ``kdfIterations`` from
    /// ``minimumKDFIterations`` (1 with ``allowsLegacyKDFIterations``) to
    /// ``maximumKDFIterations``, ``pageSize`` a power of two in ``pageSizes``, ``compatibility``
    /// 1…4. Create, open, rekey and encrypt run it before any file is touched.
    ///
    /// - Throws: ``DatabaseManagerError/invalidOption(name:reason:)`` saying the allowed range.
    public func validateValues() throws {
        if let kdfIterations { try Self.checkKDFIterations(kdfIterations, allowsLegacy: allowsLegacyKDFIterations) }
        if let pageSize, !Self.pageSizes.contains(pageSize) || pageSize & (pageSize - 1) != 0 {
            throw DatabaseManagerError.invalidOption(
                name: "pageSize", reason: "must be a power of two from 512 to 65536, got \(pageSize)")
        }
        if let compatibility, !(1...4).contains(compatibility) {
            throw DatabaseManagerError.invalidOption(name: "compatibility", reason: "must be 1 to 4, got \(compatibility)")
        }
    }

    private static func checkKDFIterations(_ value: Int, allowsLegacy: Bool) throws {
        let reason: String
        if value < 1 {
            reason = "must be at least 1, got \(value)"
        } else if value > maximumKDFIterations {
            reason =
                "\(value) is above the ceiling of \(maximumKDFIterations) (every open would run PBKDF2 that many "
                + "times, and SQLCipher reads 2^31 or more as a wrapped 32-bit number); use at most \(maximumKDFIterations)"
        } else if value < minimumKDFIterations, !allowsLegacy {
            reason =
                "\(value) is below the floor of \(minimumKDFIterations) iterations, too cheap against password "
                + "guessing; use \(minimumKDFIterations) or more (or leave it unset for SQLCipher's default). To open an "
                + "older file written with fewer (SQLCipher 1 and 2 used 4000), opt in with allowsLegacyKDFIterations "
                + "(cipherdb: --legacy-kdf)"
        } else {
            return
        }
        throw DatabaseManagerError.invalidOption(name: "kdfIterations", reason: reason)
    }
}
