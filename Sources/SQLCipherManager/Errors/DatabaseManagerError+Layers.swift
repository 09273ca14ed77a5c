import SQLCipherCore
import SQLCipherEngine
import SQLCipherKeys

// MARK: - The lower layers' errors, in the manager's words

extension DatabaseManagerError {
    /// The error a manager call throws for an error of a layer below it (the key layer's, the
    /// export engine's, a salt file's), or `nil` for any other: the manager maps them where it catches, in
    /// ``DatabaseManager/locked(_:_:)`` and ``init(diagnosing:path:)``. A ``DatabaseManagerError``
    /// stays as it is; a ``KeySlotError`` is kept in ``keySlots(_:)``.
    init?(layerError error: any Error) {
        switch error {
        case let error as DatabaseManagerError: self = error
        case let error as KeySlotError: self = .keySlots(error)
        case let failure as KeySlotFailure: self = DatabaseManagerError(failure)
        case let error as DatabaseKeyError: self = DatabaseManagerError(error)
        case let failure as EngineFailure: self = DatabaseManagerError(failure)
        case let failure as HeaderSaltFile.Unusable: self = DatabaseManagerError(failure)
        default: return nil
        }
    }

    /// The same failure as the key's own error says.
    init(_ error: DatabaseKeyError) {
        switch error.kind {
        case .invalidKeyLength(let count): self = .invalidKeyLength(count)
        case .randomSourceFailed(let reason): self = .randomSourceFailed(reason: reason)
        }
    }

    /// The slot store's or the slot options' refusal.
    init(_ failure: KeySlotFailure) {
        switch failure {
        case .operationInProgress(let path): self = .operationInProgress(path: path)
        case .invalidOption(let name, let reason): self = .invalidOption(name: name, reason: reason)
        }
    }

    /// A salt file of a plaintext header that cannot be used.
    init(_ failure: HeaderSaltFile.Unusable) {
        self = .headerSaltUnusable(path: failure.database, saltFile: failure.saltFile, problem: failure.problem)
    }
}
