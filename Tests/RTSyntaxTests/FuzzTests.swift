// Bounded-time fuzzing of the parser (with expansion on): random mutations of seed documents must never
// trap, hang or blow up. Seeds: Tests/Fixtures/fuzz/*.rt (inputs that once found bugs are kept there).
// `make test` runs a fixed number of mutations from a fixed seed (TYPESET_FUZZ_RUNS, default 100), so it
// is the same work on any machine; `make fuzz` sets TYPESET_FUZZ_SECONDS to run for minutes and then also
// reports any input that takes over 2 s. TYPESET_FUZZ_SEED replays a run.

import Foundation
import GrowthCheck
import XCTest
@testable import RTSyntax

final class FuzzTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

    static var seeds: [[UInt8]] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []
        return files.sorted().compactMap { FileManager.default.contents(atPath: fixtures.appendingPathComponent($0).path) }
            .map { [UInt8]($0) }
    }

    /// Pieces of RT syntax the mutator splices in, so mutations reach deep into the grammar.
    static let tokens: [String] = [
        "{{", "}}", "{{#xs}}", "{{/xs}}", "{{^xs}}", "{{.}}", "{{a.b}}", "{{content}}", "{%", "%}", "\n", "\n\n",
        "---\n", "```", "::: note\n", ":::\n", "- ", "1. ", "> ", "# ", "| a | b |\n|---|-.-|\n", "[x]{", "](#",
        "{.s #i k=v}", "\\", "*", "_", "~~", "==", "^", "`", "@include x.rt\n", "@pagebreak\n", "![a](p.png)", "\t", "é", "\r\n",
    ]

    func testMutatedDocumentsParseWithoutTrapping() {
        let env = ProcessInfo.processInfo.environment
        let budget = Double(env["TYPESET_FUZZ_SECONDS"] ?? "")
        let maxRuns = Int(env["TYPESET_FUZZ_RUNS"] ?? "") ?? 100
        // A fixed seed in `make test`, so CI is repeatable; `make fuzz` passes a new seed each run.
        var rng = SplitMix(seed: UInt64(env["TYPESET_FUZZ_SEED"] ?? "") ?? 20_261_121)
        let seedValue = rng.state
        let seeds = Self.seeds
        XCTAssertFalse(seeds.isEmpty, "no seeds in \(Self.fixtures.path)")
        let data = DataValue.map([DataEntry(key: "xs", value: .list([.text("1"), .map([DataEntry(key: "a", value: .text("*"))])])),
                                  DataEntry(key: "a", value: .map([DataEntry(key: "b", value: .text("[x]"))]))])
        let options = ParseOptions(readFile: { _ in Array("included {{a.b}}\n".utf8) },
                                   expansion: ExpansionOptions(data: data, allowUndefined: false))
        let deadline = budget.map { Date().addingTimeInterval($0) }
        var runs = 0
        while deadline.map({ Date() < $0 }) ?? (runs < maxRuns) {
            var doc = seeds[Int(rng.next() % UInt64(seeds.count))]
            for _ in 0 ..< 1 + Int(rng.next() % 8) { mutate(&doc, &rng) }
            let start = Date()
            _ = RTParser.parse(doc, file: "fuzz.rt", options: options)
            let seconds = Date().timeIntervalSince(start)
            // Only `make fuzz` (a time budget given) judges speed: `make test` must not depend on the machine.
            if deadline != nil && seconds > 2 {
                let path = NSTemporaryDirectory() + "/typeset-fuzz-slow-\(runs).rt"
                _ = FileManager.default.createFile(atPath: path, contents: Data(doc))
                XCTFail("parse took \(seconds)s (seed \(seedValue)); input saved to \(path)")
                return
            }
            runs += 1
        }
        XCTAssertGreaterThan(runs, 10)
    }

    private func mutate(_ doc: inout [UInt8], _ rng: inout SplitMix) {
        let position = doc.isEmpty ? 0 : Int(rng.next() % UInt64(doc.count + 1))
        switch rng.next() % 5 {
        case 0: doc.insert(contentsOf: Array(Self.tokens[Int(rng.next() % UInt64(Self.tokens.count))].utf8), at: position)
        case 1: if position < doc.count { doc.remove(at: position) }
        case 2: if position < doc.count { doc[position] = UInt8(truncatingIfNeeded: rng.next()) }
        case 3:
            // Repeat a slice: builds deep nesting and long runs.
            let length = min(doc.count - position, 1 + Int(rng.next() % 16))
            if length > 0 {
                let slice = Array(doc[position ..< position + length])
                for _ in 0 ..< Int(rng.next() % 200) { doc.insert(contentsOf: slice, at: position) }
            }
        default:
            let other = Self.seeds.randomElement() ?? []
            if !other.isEmpty { doc.insert(contentsOf: other[0 ..< Int(rng.next() % UInt64(other.count))], at: position) }
        }
    }
}

/// Small, seedable generator so a failing run can be replayed.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E3779B97F4A7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58476D1CE4E5B9
        z = (z ^ (z >> 27)) &* 0x94D049BB133111EB
        return z ^ (z >> 31)
    }
}

/// Inputs the fuzzer found, kept so they stay fixed.
final class FuzzFindingsTests: XCTestCase {
    /// 67 nested `{{#xs}}` sections over a two-item list: 2^67 steps unless expansion is bounded.
    func testNestedSectionsOverAListAreBounded() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/found/nested-sections.rt")
        let bytes = [UInt8](try Data(contentsOf: url))
        let data = DataValue.map([DataEntry(key: "xs", value: .list([.text("1"), .map([DataEntry(key: "a", value: .text("*"))])]))])
        let options = ParseOptions(expansion: ExpansionOptions(data: data, allowUndefined: true))
        let result = RTParser.parse(bytes, file: "nested-sections.rt", options: options)
        XCTAssertLessThanOrEqual(result.expansionSteps, VariableExpander.maxIdleSteps + InputLimits.maxBytes + 1,
                                 "expansion is not bounded")
        XCTAssertTrue(result.diagnostics.contains { $0.severity == .error && $0.message.contains("nested sections") },
                      "\(result.diagnostics.prefix(3))")
    }
}

final class ExpansionBoundTests: XCTestCase {
    /// A generated report with a million plain references builds: the bound is on output, not references.
    /// Run at a quarter of a million (a debug build is slow at this); the steps that write nothing, counted,
    /// show four times as many stay far inside the bound even when every value is empty.
    func testAMillionPlainVariablesExpand() {
        let references = 250_000
        for value in ["y", ""] {
            let text = String(repeating: "{{x}} ", count: references) + "\n"
            let options = ExpansionOptions(data: .map([DataEntry(key: "x", value: .text(value))]))
            var diagnostics: [Diagnostic] = []
            let result = Expansion.run(Source(file: "million.rt", bytes: Array(text.utf8)), firstLine: 0, frontMatter: nil,
                                       options: options, diagnostics: &diagnostics)
            XCTAssertEqual(diagnostics, [], "value '\(value)'")
            XCTAssertGreaterThanOrEqual(result.steps, 2 * references)
            XCTAssertEqual(result.source.bytes.filter { $0 == UInt8(ascii: "y") }.count, value.isEmpty ? 0 : references)
            let idle = result.steps - result.source.bytes.count
            XCTAssertLessThan(4 * idle, VariableExpander.maxIdleSteps / 2, "a million references would come near the bound")
        }
    }
}

final class GrowthCheckTests: XCTestCase {
    /// The ratio check itself: quadratic work is caught, linear work passes.
    func testQuadraticWorkIsCaughtAndLinearWorkPasses() {
        func quadratic(_ n: Int) {
            var sum = 0
            for i in 0 ..< n { for j in 0 ..< n { sum &+= i ^ j } }
            XCTAssertNotEqual(sum, -1)
        }
        func linear(_ n: Int) {
            var sum = 0
            for i in 0 ..< 400 * n { sum &+= i ^ (i >> 3) }
            XCTAssertNotEqual(sum, -1)
        }
        // A burst of load during the small run can hide one measurement; three chances.
        XCTAssertTrue((0 ..< 3).contains { _ in Growth.ratios(size: 3_000, attempts: 1, quadratic) != nil })
        XCTAssertNil(Growth.ratios(size: 30_000, linear))
    }
}
