// MARK: - Deprecated spellings (removed in the next release)

extension DatabaseConfiguration {
    /// Deprecated: pass ``busyTimeout`` as a `Duration` (`busyTimeout: .seconds(5)`,
    /// `.milliseconds(100)`) to ``init(cipher:busyTimeout:foreignKeys:passwordPolicy:checksIntegrityOnOpen:adoptsPlaintextDatabase:)``.
    /// This form takes seconds as a `Double`: NaN and negative are zero, infinite or more than
    /// `Int32.max` seconds are `Int32.max` seconds.
    @available(*, deprecated, message: "pass busyTimeout as a Duration, e.g. .seconds(5)")
    public init(
        cipher: CipherOptions = CipherOptions(),
        busyTimeout seconds: Double,
        foreignKeys: Bool = true,
        passwordPolicy: PasswordPolicy = .default,
        checksIntegrityOnOpen: Bool = false,
        adoptsPlaintextDatabase: Bool = false
    ) {
        self.init(
            cipher: cipher, busyTimeout: Self.busyTimeout(seconds: seconds), foreignKeys: foreignKeys,
            passwordPolicy: passwordPolicy, checksIntegrityOnOpen: checksIntegrityOnOpen,
            adoptsPlaintextDatabase: adoptsPlaintextDatabase)
    }
}
