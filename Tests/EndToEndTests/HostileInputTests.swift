// Pathological inputs end quickly with a message and the right exit code, never a crash or a hang.

import Foundation
import XCTest

final class HostileInputTests: XCTestCase {
    /// Runs `typeset IN -o OUT` and checks the exit code and a message. Time is not judged here (a loaded
    /// machine would make any budget flaky): unit tests check growth by ratio, `make bench` prints times.
    private func check(_ name: String, _ contents: Data, status: Int32, message: String?, extra: [String: Data] = [:],
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try Harness.scratch(name)
        try contents.write(to: URL(fileURLWithPath: dir + "/in.rt"))
        for (n, d) in extra { try d.write(to: URL(fileURLWithPath: dir + "/" + n)) }
        let result = try Harness.typeset(["in.rt", "-o", "out.pdf"], cwd: dir)
        XCTAssertEqual(result.status, status, "\(name): \(result.stderr.prefix(500))", file: file, line: line)
        if let message { XCTAssertTrue(result.stderr.contains(message), "\(name): \(result.stderr.prefix(500))", file: file, line: line) }
    }

    private func text(_ s: String) -> Data { Data(s.utf8) }

    func testPathologicalDocuments() throws {
        try check("paragraph", text(String(repeating: "word ", count: 200_000)), status: 0, message: nil)
        try check("nested-lists", text((0 ..< 10_000).map { String(repeating: "  ", count: $0) + "- x\n" }.joined()),
                  status: 1, message: "the limit is 8 MB")
        try check("nested-spans", text(String(repeating: "[", count: 10_000) + "x" + String(repeating: "]{color=red}", count: 10_000)),
                  status: 0, message: "nested more than")
        try check("pages", text(String(repeating: "x\n\n@pagebreak\n\n", count: 100_000)), status: 1, message: "the limit is 10000")
        // 20,000 code spans in one paragraph: Pango 1.50 is quadratic in styled runs, but a long paragraph is
        // laid out in pieces of a few lines (ParagraphPieces.swift), so every span stays styled.
        try check("many-spans", text(String(repeating: "`a ", count: 40_000) + "\n"), status: 0, message: nil)
        try check("geometry", text("---\npage: 0mm x -5mm\nmargin: -3cm\ncolumns: 1000\n---\nhi\n"), status: 0, message: "using A4")
        try check("fake-png", text("![x](fake.png)\n"), status: 1, message: "not a PNG", extra: ["fake.png": text("hello")])
        try check("include-cycle", text("@include in.rt\n"), status: 1, message: "include cycle")
        try check("binary", Data([0x7F, 0x45, 0x4C, 0x46, 0, 0, 1, 2, 0xFF]), status: 1, message: "binary file")
        try check("unclosed-section", text("a\n\n{{#a}}\nb\n"), status: 1, message: "in.rt:3:1: error: unclosed section")
    }

    func testHugeImageIsRefusedFromItsHeader() throws {
        // A PNG header claiming 20,000 x 20,000 pixels: refused before anything decodes it.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]
        png += [0, 0, 0x4E, 0x20, 0, 0, 0x4E, 0x20, 8, 2, 0, 0, 0]
        try check("huge-image", text("![x](huge.png)\n"), status: 1, message: "in.rt:1:1: error: image 'huge.png' is 20000 x 20000 pixels", extra: ["huge.png": Data(png)])
    }

    func testMutatedDocumentsThroughThePipeline() throws {
        // A few mutated documents through the whole binary (parser-level fuzzing is in RTSyntaxTests).
        let seeds = ["# T\n\n- a\n  - b\n\n| a | b |\n|--|-.-|\n| 1 | 2.5 |\n\n::: note\nx **y**\n:::\n",
                     "---\ntitle: x\ncolumns: 3\n---\n{{#xs}}\n> {{.}}\n{{/xs}}\n"]
        // Seeded, so a failure reproduces: `TYPESET_FUZZ_SEED=N` replays a run (the seed is printed).
        let seed = ProcessInfo.processInfo.environment["TYPESET_FUZZ_SEED"].flatMap { UInt64($0) } ?? 20_261_123
        print("HostileInputTests: mutations from TYPESET_FUZZ_SEED=\(seed)")
        var rng = MutationRandom(state: seed)
        let marks = Array("*_[{`>-|:{{\n".utf8)
        for k in 0 ..< 6 {
            var bytes = Array(seeds[k % 2].utf8)
            for _ in 0 ..< 4 {
                let p = Int.random(in: 0 ... bytes.count, using: &rng)
                bytes.insert(marks[Int.random(in: 0 ..< marks.count, using: &rng)], at: p)
            }
            let dir = try Harness.scratch("mut\(k)")
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/in.rt"))
            let result = try Harness.typeset(["in.rt", "-D", "xs=1", "--allow-undefined"], cwd: dir)
            XCTAssertTrue(result.status == 0 || result.status == 1,
                          "seed \(seed), document \(k): \(String(decoding: bytes, as: UTF8.self)): \(result.stderr)")
        }
    }
}

/// A small seeded generator (SplitMix64): the same mutations on every machine for one seed.
struct MutationRandom: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
