// The line breaker's parameters, overridable from the environment for measuring trade-offs without a rebuild
// (Benchmarks/hyphen_tradeoff.py), as TYPESET_MEASURE and TYPESET_UNTAGGED are for other comparisons:
// `TYPESET_BREAKER="hyphen-penalty=1500 tolerance=1500"`. Not a document setting; read once per process.

import Foundation

enum BreakerTuning {
    /// The keys and the ranges they are clamped to (a shrink of 1 would let spaces vanish).
    static let keys: [String: ClosedRange<Double>] = [
        "hyphen-penalty": 0...TotalFitBreaker.forcedPenalty, "line-penalty": 0...10_000,
        "pretolerance": -1...1e8, "tolerance": 0...1e8, "emergency-stretch": 0...100,
        "space-stretch": 0...2, "space-shrink": 0...0.9, "ragged-stretch": 0.1...20,
    ]

    static let overrides: [String: Double] = {
        let parsed = parse(getenv("TYPESET_BREAKER").map { String(cString: $0) } ?? "")
        if !parsed.unknown.isEmpty {
            FileHandle.standardError.write(Data("typeset: TYPESET_BREAKER: ignored '\(parsed.unknown.joined(separator: " "))'\n".utf8))
        }
        return parsed.values
    }()

    /// `key=value` pairs separated by spaces or commas; anything else comes back in `unknown`.
    static func parse(_ text: String) -> (values: [String: Double], unknown: [String]) {
        var values: [String: Double] = [:], unknown: [String] = []
        for pair in text.split(whereSeparator: { $0 == " " || $0 == "," }) {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let range = keys[parts[0]], let v = Double(parts[1]), v.isFinite else {
                unknown.append(String(pair))
                continue
            }
            values[parts[0]] = min(max(v, range.lowerBound), range.upperBound)
        }
        return (values, unknown)
    }

    static func value(_ key: String, _ fallback: Double) -> Double { overrides[key] ?? fallback }

    /// The breaker with any overrides applied.
    static func apply(to breaker: inout TotalFitBreaker) {
        guard !overrides.isEmpty else { return }
        breaker.pretolerance = value("pretolerance", breaker.pretolerance)
        breaker.tolerance = value("tolerance", breaker.tolerance)
        breaker.linePenalty = value("line-penalty", breaker.linePenalty)
        breaker.emergencyStretch = value("emergency-stretch", breaker.emergencyStretch)
    }
}
