import CLibSecret
import Foundation
import SQLCipherCore
import SQLCipherKeys

// MARK: - SecretServiceConnection

/// The libsecret calls, in one place: the `SecretService` proxy on the session bus, and search / store / clear of the items of the key schema. Every `GError`
/// becomes a ``KeyStoreError`` here.
///
/// Key bytes cross this layer only inside libsecret's `SecretValue`, which keeps them in its
/// non-pageable, wiped-on-free secure memory (`egg_secure_alloc`), and in ``DatabaseKey``.
final class SecretServiceConnection: @unchecked Sendable {
    // @unchecked: `service` is set once in init and only read after; GDBus proxies may be used
    // from any thread, and every call below also holds `lock`.
    private let service: OpaquePointer
    private let lock = NSLock()
    let storeName: String

    init(storeName: String) throws(KeyStoreError) {
        self.storeName = storeName
        var error: UnsafeMutablePointer<GError>?
        guard let opened = scm_service_open(&error) else {
            throw Self.failure(error, store: storeName, unavailable: true)
        }
        service = opened
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(service)) }

    // MARK: Calls

    /// The matching items (`SearchItems`); with `unlock`, locked ones are asked to unlock
    /// (a headless session cannot show the prompt, so they stay locked) and secrets are loaded.
    func withItems<R>(
        service name: String, identifier: String, unlock: Bool, _ body: ([OpaquePointer]) throws -> R
    ) throws -> R {
        lock.lock()
        defer { lock.unlock() }
        let attributes = scm_key_attributes(name, identifier)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        let flags =
            unlock
            ? SecretSearchFlags(SECRET_SEARCH_ALL.rawValue | SECRET_SEARCH_UNLOCK.rawValue | SECRET_SEARCH_LOAD_SECRETS.rawValue)
            : SECRET_SEARCH_ALL
        let list = secret_service_search_sync(service, scm_key_schema(), attributes, flags, nil, &error)
        if let error { throw Self.failure(error, store: storeName, unavailable: true) }
        defer { scm_items_free(list) }
        var items: [OpaquePointer] = []
        var node = list
        while let current = node {
            if let data = current.pointee.data { items.append(OpaquePointer(data)) }
            node = current.pointee.next
        }
        return try body(items)
    }

    /// Copies an unlocked item's secret into a ``DatabaseKey`` (the `SecretValue` is released,
    /// and wiped by libsecret, before this returns).
    func key(of item: OpaquePointer, location: String) throws -> DatabaseKey {
        guard secret_item_get_locked(item) == 0 else {
            throw KeyStoreError.locked(store: storeName, reason: "the collection holding '\(location)' is locked")
        }
        guard let value = secret_item_get_secret(item) else {
            throw KeyStoreError.locked(store: storeName, reason: "the keyring gave no secret for '\(location)'")
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var length = 0
        guard let bytes = secret_value_get(value, &length), length == DatabaseKey.byteCount else {
            throw KeyStoreError.malformedKey(location: location, reason: "the stored secret is \(length) bytes, not 32")
        }
        return try DatabaseKey(bytes: UnsafeRawBufferPointer(start: bytes, count: length))
    }

    /// Stores a new item in the default collection (`CreateItem`), the key copied into a
    /// `SecretValue` (libsecret's secure memory).
    func store(_ key: DatabaseKey, service name: String, identifier: String, label: String) throws {
        lock.lock()
        defer { lock.unlock() }
        let attributes = scm_key_attributes(name, identifier)
        defer { g_hash_table_unref(attributes) }
        let value = key.withUnsafeBytes { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                secret_value_new($0, bytes.count, "application/octet-stream")
            }
        }
        defer { secret_value_unref(UnsafeMutableRawPointer(value)) }
        var error: UnsafeMutablePointer<GError>?
        let stored = secret_service_store_sync(service, scm_key_schema(), attributes, "default", label, value, nil, &error)
        if stored == 0 { throw Self.failure(error, store: storeName, unavailable: false) }
    }

    /// Deletes the matching items (`Delete`); none is not an error.
    func clear(service name: String, identifier: String) throws {
        lock.lock()
        defer { lock.unlock() }
        let attributes = scm_key_attributes(name, identifier)
        defer { g_hash_table_unref(attributes) }
        var error: UnsafeMutablePointer<GError>?
        _ = secret_service_clear_sync(service, scm_key_schema(), attributes, nil, &error)
        if let error { throw Self.failure(error, store: storeName, unavailable: false) }
    }

    // MARK: Errors

    /// A `GError` (freed here) as a ``KeyStoreError``: locked, service unreachable, or failed.
    static func failure(_ error: UnsafeMutablePointer<GError>?, store: String, unavailable: Bool) -> KeyStoreError {
        guard let error else { return .failed(location: store, reason: "libsecret reported no reason") }
        defer { g_error_free(error) }
        let message = String(cString: error.pointee.message)
        let domain = error.pointee.domain
        if domain == scm_secret_error_domain(), error.pointee.code == Int32(SECRET_ERROR_IS_LOCKED.rawValue) {
            return .locked(store: store, reason: message)
        }
        if unavailable || domain == scm_dbus_error_domain() || domain == scm_io_error_domain() {
            return .serviceUnavailable(store: store, reason: message)
        }
        return .failed(location: store, reason: message)
    }
}
