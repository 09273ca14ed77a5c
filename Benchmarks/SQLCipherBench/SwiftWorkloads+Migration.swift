import Foundation
import SQLCipherManager

// MARK: - Migration workloads

extension SwiftWorkloads {
    /// The crash-safe encryption of an existing plaintext database (issue 3's API).
    func encrypt() throws -> Measured {
        throw BenchError.unavailable("encryptPlaintextDatabase is not in the library yet")
    }

    /// The crash-safe rekey of an open database (issue 3's API).
    func rekey() throws -> Measured {
        throw BenchError.unavailable("rekey is not in the library yet")
    }
}
