import Foundation

/// Polls `condition` every `interval` seconds until it holds; throws `failure()` once
/// `timeout` seconds have passed or `isRunning()` turns false first.
func poll(
    timeout: Double, interval: Double = 0.01, isRunning: () -> Bool,
    until condition: () -> Bool, failure: () -> RunnerError
) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        guard Date() < deadline, isRunning() else { throw failure() }
        usleep(useconds_t(interval * 1_000_000))
    }
}
