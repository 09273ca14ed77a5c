// MARK: - DatabaseObservation
import SQLCipherQuery

/// The values of an observed query, as an `AsyncSequence`: made by
/// ``DatabaseManager/observe(_:)`` and its variants. See <doc:Observation>.
///
/// Each iteration (each `for try await` loop) runs its own observation: the current value
/// first, then a fresh value after each commit that touched the tables the query reads. Values
/// are delivered from the manager's threads and coalesced — a burst of commits (less than 1 ms
/// apart) runs the query once, after the last one, and never ends on an older value;
/// ``removingDuplicates()`` also drops a value equal to the one before it.
public struct DatabaseObservation<Value: Sendable>: AsyncSequence, Sendable {
    /// The observed value.
    public typealias Element = Value
    /// What `fetch` throws, or a ``DatabaseManagerError``.
    public typealias Failure = any Error

    let manager: DatabaseManager
    let fetch: @Sendable (Database) throws -> Value
    var isDuplicate: (@Sendable (Value, Value) -> Bool)?

    init(manager: DatabaseManager, fetch: @escaping @Sendable (Database) throws -> Value) {
        self.manager = manager
        self.fetch = fetch
    }

    /// Starts the observation: the first value is read at once.
    public func makeAsyncIterator() -> Iterator {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Value.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1))
        let observer = ValueObserver(
            manager: manager, fetch: fetch, isDuplicate: isDuplicate, continuation: continuation,
            quiet: manager.configuration.observationQuietPeriod)
        continuation.onTermination = { _ in observer.finish(nil) }
        manager.startObserving(observer)
        return Iterator(base: stream.makeAsyncIterator())
    }

    /// Reads the values of a ``DatabaseObservation`` one at a time.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncThrowingStream<Value, any Error>.Iterator

        /// The next value, waiting for a commit that changes it; `nil` once the database closed.
        public mutating func next() async throws -> Value? { try await base.next() }

        /// The next value, delivered to `actor` (the caller's isolation).
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> Value? {
            try await base.next(isolation: actor)
        }
    }
}

extension DatabaseObservation where Value: Equatable {
    /// The same observation, without a value equal to the value just before it (a commit that
    /// touched the query's tables without changing its result).
    public func removingDuplicates() -> DatabaseObservation<Value> {
        var copy = self
        copy.isDuplicate = { $0 == $1 }
        return copy
    }
}
