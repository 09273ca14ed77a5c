// The one seeded generator of the tests, the mutation campaign and the fuzz target: a target of
// its own so that the fuzz program needs neither Swift Testing nor the test helpers.

/// SplitMix64: the same seed gives the same sequence, so a run is replayed with `SCM_TEST_SEED`.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose sequence depends on `seed` only.
    public init(seed: UInt64) { state = seed }

    /// The next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
