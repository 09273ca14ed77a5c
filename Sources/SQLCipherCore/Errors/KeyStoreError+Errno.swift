// MARK: - errno → key-store error

extension KeyStoreError {
    /// A failed call of a key file's (`operation` on `path`, its ``Errno``) as the error a user
    /// can act on: refused access is ``permissionDenied(path:reason:)``, anything else
    /// ``failed(location:reason:)``; both say the call and the system's message.
    package init(_ operation: String, _ path: String, _ error: Errno) {
        let reason = "\(operation): \(error)"
        switch error {
        case .permissionDenied, .notPermitted, .readOnlyFileSystem: self = .permissionDenied(path: path, reason: reason)
        default: self = .failed(location: path, reason: reason)
        }
    }

    /// `error` as a key-store error: itself when it is one, else ``failed(location:reason:)`` in
    /// `store` (a ``KeyStore``'s description) with the error's text, so that a store's own error
    /// type reaches the manager's errors typed.
    package init(_ error: any Error, store: String) {
        self = error as? KeyStoreError ?? .failed(location: store, reason: "\(error)")
    }
}
