// MARK: - Samples

/// The runs of one job: median, minimum and maximum time, peak RSS.
struct Samples {
    var results: [JobResult] = []
    /// Why the job could not run (a child failed); no further runs are attempted.
    var failure: String?
    /// `true` when the failure is only that the library lacks the API (not counted as an error).
    var isUnavailable = false

    func needs(run: Int) -> Bool { failure == nil && results.count <= run }

    var median: Double { Self.median(results.map(\.seconds)) }
    var min: Double { results.map(\.seconds).min() ?? 0 }
    var max: Double { results.map(\.seconds).max() ?? 0 }
    /// The largest peak RSS over the runs, in MiB.
    var peakRSSMiB: Double { Double(results.map(\.peakRSSKiB).max() ?? 0) / 1024 }
    var checksums: Set<Int64> { Set(results.map(\.checksum)) }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// `median [min–max]` in milliseconds, or in millions of instructions (`--instructions`).
    func formatted(instructions: Bool) -> String {
        if failure != nil { return isUnavailable ? "n/a" : "failed" }
        let unit = instructions ? { Self.fixed($0 / 1e6, 1) } : Self.ms
        if results.isEmpty { return "—" }
        return results.count == 1 ? unit(median) : "\(unit(median)) [\(unit(min))–\(unit(max))]"
    }

    static func ms(_ seconds: Double) -> String {
        let value = seconds * 1000
        let digits = value >= 100 ? 0 : (value >= 10 ? 1 : 2)
        return fixed(value, digits)
    }

    static func fixed(_ value: Double, _ digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = "\(rounded)"
        if digits == 0, text.hasSuffix(".0") { text.removeLast(2) }
        if let dot = text.firstIndex(of: "."), digits > 0 {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}
