import SQLCipherCore
import SQLCipherEngine

// MARK: - The export engine's failures, in the manager's words

extension DatabaseManagerError {
    /// The error a manager call throws for the export engine's `failure`: the same failure, with
    /// the path and details the engine found. A copy that did not open is a failed verification
    /// that says why, unless an interrupt stopped it (then it is that interrupt).
    init(_ failure: EngineFailure) {
        switch failure {
        case .busy(let path, let underlying): self = .busy(path: path, underlying: underlying)
        case .openElsewhere(let path, let processID, let processName):
            self = .openElsewhere(path: path, processID: processID, processName: processName)
        case .fileNotFound(let path): self = .fileNotFound(path: path)
        case .fileAlreadyExists(let path): self = .fileAlreadyExists(path: path)
        case .parentDirectoryMissing(let path): self = .parentDirectoryMissing(path: path)
        case .permissionDenied(let path): self = .permissionDenied(path: path, underlying: nil)
        case .insufficientDiskSpace(let path, let needed, let available):
            self = .insufficientDiskSpace(path: path, needed: needed, available: available)
        case .operationInProgress(let path): self = .operationInProgress(path: path)
        case .encryptionNotActive(let path): self = .encryptionNotActive(path: path)
        case .verificationFailed(let path, let reason): self = .verificationFailed(path: path, reason: reason)
        case .copyRefused(let path, let underlying):
            let refusal = DatabaseManagerError(diagnosing: underlying, path: path)
            if case .sqlite(let error) = refusal.kind, error.code == .interrupt {
                self = refusal
            } else {
                self = .verificationFailed(path: path, reason: refusal.description)
            }
        case .recoveryFailed(let path, let reason): self = .recoveryFailed(path: path, reason: reason)
        }
    }
}
