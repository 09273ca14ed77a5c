// MARK: - Argon2Parameters

/// The cost of one password slot's Argon2id (`crypto_pwhash` with `crypto_pwhash_alg_argon2id13`,
/// one lane), stored in the slot beside its salt.
public struct Argon2Parameters: Sendable, Hashable, CustomStringConvertible {
    /// Passes over the memory (Argon2's `t`, libsodium's `opslimit`).
    public var opsLimit: Int
    /// Memory in KiB (Argon2's `m`; libsodium's `memlimit` is this × 1024 bytes).
    public var memoryKiB: Int

    /// Parameters as given; ``KeySlotOptions`` decides whether they may be used.
    public init(opsLimit: Int, memoryKiB: Int) {
        self.opsLimit = opsLimit
        self.memoryKiB = memoryKiB
    }

    /// The security floor: 2 passes over 19 MiB (19,456 KiB), OWASP's 2023 minimum for
    /// Argon2id. Slots below it are refused at creation and at unlock, unless
    /// ``KeySlotOptions/allowsWeakKeyDerivation`` is set (tests only).
    public static let minimum = Argon2Parameters(opsLimit: 2, memoryKiB: 19_456)

    /// The ceiling: 64 passes over 1 GiB. A slot file asking for more is refused rather than
    /// letting an edited file make every unlock run for minutes or exhaust memory.
    public static let maximum = Argon2Parameters(opsLimit: 64, memoryKiB: 1_048_576)

    /// `true` when both values are at least ``minimum``'s.
    public var meetsFloor: Bool { opsLimit >= Self.minimum.opsLimit && memoryKiB >= Self.minimum.memoryKiB }

    /// `true` when libsodium accepts the values and neither is above ``maximum``.
    package var isInRange: Bool {
        let floor = Sodium.argon2idMinimum
        return opsLimit >= floor.opsLimit && memoryKiB >= floor.memoryKiB
            && opsLimit <= Self.maximum.opsLimit && memoryKiB <= Self.maximum.memoryKiB
    }

    /// `t=<passes>, m=<KiB> KiB`.
    public var description: String { "Argon2id t=\(opsLimit), m=\(memoryKiB) KiB" }
}
