import SQLCipherManager

// MARK: - Values checked before anything runs

extension Invocation {
    /// Numbers and paths, checked once every option is read, before any password is read or
    /// file touched.
    func checkValues() throws(Failure) {
        try checkNumbers()
        let paths = zip(spec.arguments, arguments).filter { ["DB", "PLAIN"].contains($0.0) }.map(\.1) + [value(.to)].compactMap { $0 }
        if paths.contains(where: \.isEmpty) {
            throw Failure.usage("A database path is empty (\"\"): give the path of a file.")
        }
    }

    /// A numeric option's value as typed: decimal digits only (no sign, blank, `0x` or
    /// exponent) and no more than fits in an `Int`, so nothing wraps on the way to SQLCipher's
    /// 32-bit `int`. The range is checked once every option is read (``checkValues()``).
    static func checkDigits(_ option: Option, _ value: String) throws(Failure) {
        guard value.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }), let number = Int(value)
        else {
            throw Failure.usage("\(option.rawValue) needs a positive whole number in decimal digits, not '\(value)'.")
        }
        guard number >= 1 else { throw Failure.usage("\(option.rawValue) needs a positive whole number, not '\(value)'.") }
    }

    /// Every number against the library's ranges (``CipherOptions/validateValues()``) before any
    /// password is read or file touched: `--kdf-iter`/`--page-size` (the database as it is) and
    /// `--set-kdf-iter`/`--set-page-size` (what `settings` rewrites it with); `--legacy-kdf`
    /// lowers the iteration floor for both.
    private func checkNumbers() throws(Failure) {
        for (kdf, page) in [(Option.kdfIter, Option.pageSize), (.setKdfIter, .setPageSize)] {
            let options = CipherOptions(
                kdfIterations: number(kdf), pageSize: number(page), allowsLegacyKDFIterations: has(.legacyKDF))
            do {
                try options.validateValues()
            } catch let error as DatabaseManagerError {
                guard case .invalidOption(let name, let reason) = error.kind else { throw Failure.usage("\(error)") }
                let option = name == "pageSize" ? page : kdf
                throw Failure.usage("\(option.rawValue) \(value(option) ?? ""): \(reason).")
            } catch {
                throw Failure.usage("\(error)")
            }
        }
    }
}
