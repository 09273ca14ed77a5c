import Foundation
import SQLCipherCore

// MARK: - KeySlotOptions

/// How password slots are made and which ones are accepted: part of ``DatabaseConfiguration``.
///
/// A new password slot is calibrated: Argon2id over ``memoryKiB`` is timed with one and with
/// two passes, and the number of passes is chosen so that an unlock takes about
/// ``targetUnlockTime`` (never fewer than ``Argon2Parameters/minimum``'s). Not a pragma: key slots live in `<db>.scm-keys`.
public struct KeySlotOptions: Sendable, Hashable {
    /// The time one password check should take on this machine, in seconds (default 0.25 s:
    /// a password change, which checks the old password and derives the new one, stays under
    /// a second). From 0.01 to 10.
    public var targetUnlockTime: Double
    /// Argon2id memory for new password slots, in KiB (default 65,536 = 64 MiB).
    public var memoryKiB: Int
    /// Fixed parameters for new password slots instead of calibrating (for example to make the
    /// same cost on every device). `nil` calibrates.
    public var parameters: Argon2Parameters?
    /// Opt-in: accept Argon2id parameters below ``Argon2Parameters/minimum``, when creating and
    /// when unlocking. For tests, which need millisecond unlocks; a slot made with it is that
    /// cheap to attack.
    public var allowsWeakKeyDerivation: Bool

    /// Creates options; the defaults calibrate to 0.25 s with 64 MiB.
    public init(
        targetUnlockTime: Double = 0.25, memoryKiB: Int = 65_536, parameters: Argon2Parameters? = nil,
        allowsWeakKeyDerivation: Bool = false
    ) {
        self.targetUnlockTime = targetUnlockTime
        self.memoryKiB = memoryKiB
        self.parameters = parameters
        self.allowsWeakKeyDerivation = allowsWeakKeyDerivation
    }

    /// The accepted range of ``targetUnlockTime``, in seconds.
    public static let targetUnlockTimes = 0.01...10.0

    // MARK: - Checks

    /// Throws ``KeySlotError/weakKeyDerivation(_:minimum:)`` or ``KeySlotError/invalidKeyDerivation(_:)``
    /// for parameters this configuration does not accept.
    func check(_ parameters: Argon2Parameters) throws {
        guard parameters.isInRange else { throw KeySlotError.invalidKeyDerivation(parameters) }
        guard parameters.meetsFloor || allowsWeakKeyDerivation else {
            throw KeySlotError.weakKeyDerivation(parameters, minimum: .minimum)
        }
    }

    /// Seconds for one Argon2id of a random password at this cost.
    private static func timeArgon2id(opsLimit: Int, memoryKiB: Int) throws -> Double {
        let started = DispatchTime.now().uptimeNanoseconds
        _ = try Sodium.argon2id(
            password: Sodium.random(16), salt: Sodium.randomData(Sodium.saltLength), opsLimit: opsLimit, memoryKiB: memoryKiB)
        return Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    }

    /// The parameters for a new password slot: ``parameters``, or calibrated to ``targetUnlockTime``.
    package func parametersForNewSlot() throws -> Argon2Parameters {
        if let parameters {
            try check(parameters)
            return parameters
        }
        guard Self.targetUnlockTimes.contains(targetUnlockTime) else {
            throw KeySlotFailure.invalidOption(
                name: "targetUnlockTime", reason: "\(targetUnlockTime) s is outside \(Self.targetUnlockTimes)")
        }
        let floor = allowsWeakKeyDerivation ? Sodium.argon2idMinimum.opsLimit : Argon2Parameters.minimum.opsLimit
        try check(Argon2Parameters(opsLimit: floor, memoryKiB: memoryKiB))
        // One pass and two passes: their difference is a pass, the rest is the fixed cost of
        // allocating and touching the memory.
        let one = try Self.timeArgon2id(opsLimit: 1, memoryKiB: memoryKiB)
        let two = try Self.timeArgon2id(opsLimit: 2, memoryKiB: memoryKiB)
        let pass = max(two - one, 1e-6)
        let fixed = max(one - pass, 0)
        let passes = min(max(Int((targetUnlockTime - fixed) / pass), floor), Argon2Parameters.maximum.opsLimit)
        return Argon2Parameters(opsLimit: passes, memoryKiB: memoryKiB)
    }
}
