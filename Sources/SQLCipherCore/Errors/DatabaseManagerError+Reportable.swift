// MARK: - Which errors the delegate hears

extension DatabaseManagerError {
    /// `true` for failures the delegate hears about through `didFail`: not the
    /// user's password, not a misuse of the manager.
    package var isReportable: Bool {
        switch self {
        case .invalidPassword, .incorrectPasswordOrSettings, .incorrectKeyOrSettings, .invalidKeyLength, .alreadyOpen, .notOpen,
            .notConfigured, .noCachedKey, .transactionInProgress, .keyChangeInterrupted, .reentrantCall:
            return false
        default:
            return true
        }
    }
}
