import SQLCipherCore

// MARK: - Which errors the delegate hears

extension DatabaseManagerError {
    /// `true` for failures the delegate hears about through `didFail`: not the
    /// user's password, not a misuse of the manager.
    var isReportable: Bool {
        switch kind {
        case .invalidPassword, .incorrectPasswordOrSettings, .incorrectKeyOrSettings, .invalidKeyLength, .alreadyOpen, .notOpen,
            .notConfigured, .noCachedKey, .transactionInProgress, .keyChangeInterrupted, .reentrantCall:
            return false
        case .keySlots(let error):
            // The slot file's problems, like the database file's; not a misuse of the slots.
            switch error.kind {
            case .slotFileMissing, .slotFileDamaged, .slotFileTampered, .slotFileMismatch, .slotFileOutdated, .slotFileNotAFile:
                return true
            case .slotLimitReached, .notKeySlotDatabase, .keySlotDatabase, .backupNeedsItsOwnKey, .lastSlot, .slotNotFound,
                .weakKeyDerivation, .invalidKeyDerivation, .invalidRecoveryKey:
                return false
            }
        default:
            return true
        }
    }
}
