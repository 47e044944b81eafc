// Issue 8, "no try!, no unchecked conversion to C integer types anywhere": a trap is a crash without a location,
// so the sources may not contain the constructs that trap on unexpected values. Read from Sources/ itself.

import Foundation
import XCTest

final class SourceRulesTests: XCTestCase {
    /// Every line of every Swift source, with its place (comments dropped).
    private func sourceLines() throws -> [(place: String, code: String)] {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources")
        let files = try XCTUnwrap(FileManager.default.enumerator(atPath: sources.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }.sorted()
        XCTAssertGreaterThan(files.count, 50, "the sources were not found at \(sources.path)")
        var lines: [(String, String)] = []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.trimmingCharacters(in: .whitespaces)
                if code.hasPrefix("//") { continue }
                let withoutComment = code.range(of: " // ").map { String(code[..<$0.lowerBound]) } ?? code
                lines.append(("\(file):\(n + 1)", withoutComment))
            }
        }
        return lines
    }

    private func matches(_ pattern: String, _ text: String) -> Bool {
        text.range(of: pattern, options: .regularExpression) != nil
    }

    func testNoTryBang() throws {
        let found = try sourceLines().filter { $0.code.contains("try!") }.map(\.place)
        XCTAssertEqual(found, [])
    }

    /// A C function's result force-unwrapped (`pango_...(...)!`) traps when the library returns NULL.
    func testNoForceUnwrappedCResults() throws {
        let call = "\\b(pango|cairo|g|rsvg|qpdf|Fc|hb)_[A-Za-z0-9_]*\\(.*\\)!($|[^=])"
        let found = try sourceLines().filter { matches(call, $0.code) || matches("\\bmalloc\\(.*\\)!", $0.code) }
        XCTAssertEqual(found.map(\.place), [], "\(found.map(\.code))")
    }

    /// `Int32(x)` traps when x is out of range: conversions to C ints say how they are checked (`clamping:`,
    /// `truncatingIfNeeded:`, `exactly:`, `bitPattern:`), go through PangoUnits.swift, or clamp on the line.
    func testNoUncheckedConversionsToCInts() throws {
        let unchecked = "(^|[^A-Za-z0-9_.])(Int32|CInt|gint|guint)\\((?!clamping|truncatingIfNeeded|bitPattern|exactly)"
        let found = try sourceLines().filter { line in
            guard matches(unchecked, line.code) else { return false }
            let clampedHere = line.code.contains("min(") && line.code.contains("max(")
            let constant = matches("(Int32|CInt)\\([A-Z][A-Z0-9_]+\\)", line.code)
            return !clampedHere && !constant
        }
        XCTAssertEqual(found.map(\.place), [], "\(found.map(\.code))")
    }
}
