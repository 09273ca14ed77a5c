internal import CCrypto

// MARK: - SHA256Digest

/// SHA-256 over pieces given one after another (libcrypto's EVP interface), for fingerprints
/// of files; not for key material.
package final class SHA256Digest {
    private let context: OpaquePointer

    /// A new digest, or `nil` when libcrypto cannot allocate one (`EVP_MD_CTX_new`).
    package init?() {
        guard let context = EVP_MD_CTX_new() else { return nil }
        self.context = context
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds bytes (`EVP_DigestUpdate`).
    package func update(_ bytes: UnsafeRawBufferPointer) { EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }

    /// The digest of everything added, in lowercase hexadecimal (`EVP_DigestFinal_ex`); call once.
    package func hexDigest() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        let hex = Array("0123456789abcdef".utf8)
        return String(decoding: digest.prefix(Int(length)).flatMap { [hex[Int($0 >> 4)], hex[Int($0 & 0x0F)]] }, as: UTF8.self)
    }
}
