// MARK: - Open and key derivation (the linked SQLCipher's defaults)

extension Plan {
    /// `--only open`: an unlock against raw C's, one PBKDF2 at the linked library's default
    /// (SQLCipher 3: PBKDF2-HMAC-SHA1 × 64,000; 4: PBKDF2-HMAC-SHA512 × 256,000) against raw C's
    /// open, and `reopen()` (the derived key, no PBKDF2) against an open.
    var open: Section {
        let rows = sizes.first ?? 0
        let label = Self.label(rows)
        return Section(
            key: "open", title: "Open and key derivation at the linked SQLCipher's defaults",
            labels: ["measured", "reference"],
            comparisons: [
                Comparison(
                    name: "open + unlock (KDF) + close, \(label) rows: `open(password:)` + `close()` vs raw C",
                    jobs: [Job(.open, .swift, rows: rows), Job(.open, .c, rows: rows)], target: 1.02),
                Comparison(
                    name: "one PBKDF2 derivation at the linked defaults (raw C, libcrypto) vs raw C's open + unlock + close",
                    jobs: [Job(.kdf, .c, rows: rows), Job(.open, .c, rows: rows)], target: nil),
                Comparison(
                    name: "`reopen()` (the derived key, no PBKDF2) vs `open(password:)` + `close()`",
                    jobs: [Job(.extraConnection, .swift, rows: rows), Job(.open, .swift, rows: rows)], target: nil),
            ])
    }
}
