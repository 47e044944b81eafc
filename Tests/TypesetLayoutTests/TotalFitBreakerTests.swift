import Foundation
import TypesetLayout
import GrowthCheck
import XCTest

/// The breaker on synthetic boxes and glue (widths in points).
final class TotalFitBreakerTests: XCTestCase {
    /// Words of the given widths separated by 5pt spaces (stretch 2.5, shrink 5/3), then the paragraph end.
    private func paragraph(_ words: [Double]) -> [BreakItem] {
        var items: [BreakItem] = []
        for (i, w) in words.enumerated() {
            if i > 0 { items.append(.glue(5, stretch: 2.5, shrink: 5.0 / 3)) }
            items.append(.box(w))
        }
        items.append(.glue(0, stretch: TotalFitBreaker.fillStretch, shrink: 0))
        items.append(.penalty(0, -TotalFitBreaker.forcedPenalty))
        return items
    }

    /// Words on the last line of `breaks`.
    private func lastLineWords(_ items: [BreakItem], _ breaks: [ChosenBreak]) -> Int {
        let start = breaks.count > 1 ? breaks[breaks.count - 2].item + 1 : 0
        return items[start...].filter { $0.kind == .box }.count
    }

    /// A paragraph of three lines or more does not end in one short word (a runt) when a slightly looser
    /// line above can take it down; a two-line paragraph may.
    func testNoRuntOnTheLastLineOfALongerParagraph() {
        // 10pt words: seven fill a 100pt line exactly, so 22 words set 7, 7, 7 and a lone 8pt word.
        let items = paragraph(Array(repeating: 10, count: 21) + [8])
        let breaks = TotalFitBreaker().breakLines(items) { _ in 100 }
        XCTAssertEqual(breaks.last?.item, items.count - 1)
        XCTAssertGreaterThanOrEqual(lastLineWords(items, breaks), 2, "\(breaks)")
        var allowing = TotalFitBreaker()
        allowing.runtDemerits = 0
        XCTAssertEqual(lastLineWords(items, allowing.breakLines(items) { _ in 100 }), 1, "the case has a runt")
        // A word a third of the measure or wider may stand alone; so may a short one in a two-line paragraph.
        let wide = paragraph(Array(repeating: 10, count: 21) + [35])
        XCTAssertEqual(lastLineWords(wide, TotalFitBreaker().breakLines(wide) { _ in 100 }), 1)
        let short = paragraph(Array(repeating: 10, count: 7) + [8])
        XCTAssertEqual(lastLineWords(short, TotalFitBreaker().breakLines(short) { _ in 100 }), 1)
    }

    /// Font expansion adds the boxes' width times the limit to a line's stretch: a line too loose for the first
    /// pass (ratio over 1) becomes decent.
    func testExpansionAddsTheGlyphsStretch() {
        // Two 40pt words and a 5pt space in a 90pt line: 5pt short, the space stretches 2.5 (ratio 2).
        let items = paragraph([40, 40])
        var breaker = TotalFitBreaker()
        breaker.pretolerance = -1
        let plain = breaker.breakLines(items) { _ in 90 }
        XCTAssertEqual(plain.count, 1)
        // The only line is the last: no expansion there (its fill glue takes the rest).
        XCTAssertEqual(plain[0].ratio, 0, accuracy: 1e-6)
        // Two lines: the first is justified.
        let without = breaker.breakLines(paragraph([40, 40, 40, 40])) { _ in 90 }
        breaker.expansion = 0.02
        let with = breaker.breakLines(paragraph([40, 40, 40, 40])) { _ in 90 }
        // Each full line "40 40" is 85pt natural: 5pt short; stretch 2.5 alone (ratio 2), 2.5 + 1.6 with expansion.
        XCTAssertEqual(without[0].ratio, 2, accuracy: 1e-9)
        XCTAssertEqual(with[0].ratio, 5 / 4.1, accuracy: 1e-9)
    }

    /// A line whose last character protrudes has that much more room: it need not shrink.
    func testProtrusionGivesTheLineMoreRoom() {
        var items = paragraph([40, 40, 40, 40])
        let breaker = TotalFitBreaker()
        let plain = breaker.breakLines(items) { _ in 84 }
        XCTAssertLessThan(plain[0].ratio, 0, "85pt in 84pt shrinks")
        items[3].protrudeRight = 1  // the glue after the second word: its last character hangs out 1pt
        let hanging = breaker.breakLines(items) { _ in 84 }
        XCTAssertEqual(hanging[0].item, 3)
        XCTAssertEqual(hanging[0].ratio, 0, accuracy: 1e-9)
    }

    func testExactFitBreaksAtTheSpacesThatFillEachLine() {
        // Two 10pt words and a space are exactly 25pt.
        let items = paragraph([10, 10, 10, 10, 10])
        let breaks = TotalFitBreaker().breakLines(items) { _ in 25 }
        XCTAssertEqual(breaks.map(\.item), [3, 7, items.count - 1])
        XCTAssertEqual(breaks[0].ratio, 0, accuracy: 1e-9)
    }

    func testLinesStayWithinTheirStretchWhenTheyCan() {
        let items = paragraph([20, 20, 20, 30, 10, 25, 15, 20, 20, 30])
        let breaks = TotalFitBreaker().breakLines(items) { _ in 72 }
        XCTAssertEqual(breaks.last?.item, items.count - 1)
        XCTAssertTrue(breaks.dropLast().allSatisfy { $0.ratio >= -1 && $0.ratio <= 2 }, "\(breaks)")
    }

    func testEveryLineGetsItsOwnWidth() {
        // Line 0 is 25pt (two words), line 1 40pt (three words and two spaces), later lines 25pt.
        let items = paragraph(Array(repeating: 10, count: 7))
        let widths = [25.0, 40, 25]
        let breaks = TotalFitBreaker().breakLines(items, uniformFrom: 2) { widths[$0] }
        XCTAssertEqual(breaks.map(\.item), [3, 9, items.count - 1])
        XCTAssertTrue(breaks.dropLast().allSatisfy { abs($0.ratio) < 1e-9 }, "\(breaks)")
    }

    func testHyphenBreaksAreTakenWhenTheyHelpAndCostWhenNot() {
        // "10 [10-10]" with a hyphen point inside the second word: a 22pt line fits "10 10-" (with a 2pt hyphen)
        // only by breaking at the hyphen.
        var items: [BreakItem] = [.box(10), .glue(5, stretch: 2.5, shrink: 5.0 / 3), .box(5),
                                  .penalty(2, 50, flagged: true), .box(10)]
        items += [.glue(0, stretch: TotalFitBreaker.fillStretch, shrink: 0), .penalty(0, -TotalFitBreaker.forcedPenalty)]
        let breaks = TotalFitBreaker().breakLines(items) { _ in 22 }
        XCTAssertEqual(breaks.map(\.item), [3, 6])
    }

    func testOverlongUnbreakableWordDoesNotHang() {
        let items = paragraph([10, 500, 10, 10])
        let breaks = TotalFitBreaker().breakLines(items) { _ in 30 }
        XCTAssertEqual(breaks.last?.item, items.count - 1)
        XCTAssertGreaterThanOrEqual(breaks.count, 2)
        // No items at all but the end: one (empty) line.
        let empty = TotalFitBreaker().breakLines(paragraph([])) { _ in 30 }
        XCTAssertEqual(empty.count, 1)
    }

    func testLongParagraphBreaksInLinearTime() {
        var rng = SystemRandomNumberGenerator()
        let words = (0..<20_000).map { _ in Double(Int.random(in: 8...60, using: &rng)) }
        let items = [5_000: paragraph(Array(words.prefix(5_000))), 20_000: paragraph(words)]
        Growth.assertLinear("total-fit breaking", size: 5_000) { n in
            _ = TotalFitBreaker().breakLines(items[n] ?? []) { _ in 230 }
        }
        let breaks = TotalFitBreaker().breakLines(items[20_000] ?? []) { _ in 230 }
        XCTAssertGreaterThan(breaks.count, 1000)
    }

    /// Words of 4 to 11 "letters" (5pt each) with a hyphen point (2pt hyphen) after every second letter.
    private func hyphenatable(words: Int) -> [BreakItem] {
        var seed: UInt64 = 42
        var items: [BreakItem] = []
        for i in 0..<words {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            let letters = 4 + Int(seed >> 60) % 8
            if i > 0 { items.append(.glue(5, stretch: 2.5, shrink: 2)) }
            for k in stride(from: 0, to: letters, by: 2) {
                if k > 0 && letters - k >= 2 { items.append(.penalty(2, 50, flagged: true)) }
                items.append(.box(Double(min(2, letters - k)) * 5))
            }
        }
        return items + [.glue(0, stretch: TotalFitBreaker.fillStretch, shrink: 0),
                        .penalty(0, -TotalFitBreaker.forcedPenalty)]
    }

    private func longestHyphenRun(_ breaks: [ChosenBreak], _ items: [BreakItem]) -> Int {
        var run = 0, longest = 0
        for b in breaks {
            run = items[b.item].flagged ? run + 1 : 0
            longest = max(longest, run)
        }
        return longest
    }

    func testAtMostTwoConsecutiveHyphenatedLines() {
        let items = hyphenatable(words: 400)
        var unlimited = TotalFitBreaker()
        unlimited.maxConsecutiveHyphens = 0
        unlimited.doubleHyphenDemerits = 0
        XCTAssertGreaterThan(longestHyphenRun(unlimited.breakLines(items) { _ in 97 }, items), 2,
                             "the case must be one that hyphenates in runs without the limit")
        let breaks = TotalFitBreaker().breakLines(items) { _ in 97 }
        XCTAssertEqual(breaks.last?.item, items.count - 1)
        XCTAssertLessThanOrEqual(longestHyphenRun(breaks, items), 2)
    }

    func testFirstPassAvoidsHyphenationWhenLinesAreGoodWithout() {
        // Every line "20 20 20" fits 70pt exactly; hyphenating would only add penalties.
        var items: [BreakItem] = []
        for i in 0..<12 {
            if i > 0 { items.append(.glue(5, stretch: 2.5, shrink: 5.0 / 3)) }
            items += [.box(10), .penalty(2, -9_000, flagged: true), .box(10)]  // a tempting (negative) hyphen penalty
        }
        items += [.glue(0, stretch: TotalFitBreaker.fillStretch, shrink: 0), .penalty(0, -TotalFitBreaker.forcedPenalty)]
        let breaks = TotalFitBreaker().breakLines(items) { _ in 70 }
        XCTAssertFalse(breaks.contains { items[$0.item].flagged }, "\(breaks)")
        var noFirstPass = TotalFitBreaker()
        noFirstPass.pretolerance = -1
        noFirstPass.tolerance = .infinity
        XCTAssertTrue(noFirstPass.breakLines(items) { _ in 70 }.contains { items[$0.item].flagged },
                      "without the first pass the negative penalty wins (so the test can fail)")
    }

    /// Words of 24pt (two 12pt halves with a hyphenation point between them, 2pt hyphen), 5pt spaces.
    private func halves(_ count: Int, penalty: Double = 260) -> [BreakItem] {
        var items: [BreakItem] = []
        for i in 0..<count {
            if i > 0 { items.append(.glue(5, stretch: 1.75, shrink: 2.25)) }
            items += [.box(12), .penalty(2, penalty, flagged: true), .box(12)]
        }
        return items + [.glue(0, stretch: TotalFitBreaker.fillStretch, shrink: 0),
                        .penalty(0, -TotalFitBreaker.forcedPenalty)]
    }

    private func hyphenCount(_ breaks: [ChosenBreak], _ items: [BreakItem]) -> Int {
        breaks.filter { items[$0.item].flagged }.count
    }

    func testParagraphThatSetsWellWithoutHyphensGetsNone() {
        // Four words and three spaces are 111pt: a 114pt line stretches its spaces by 3pt (ratio 0.57, decent).
        let items = halves(16)
        let breaks = TotalFitBreaker().breakLines(items) { _ in 114 }
        XCTAssertEqual(hyphenCount(breaks, items), 0, "\(breaks)")
        XCTAssertEqual(breaks.count, 4)
        // Without the first pass a tempting (negative) hyphen penalty wins: the test can fail.
        var hyphenating = TotalFitBreaker()
        hyphenating.pretolerance = -1
        hyphenating.tolerance = .infinity
        let tempting = halves(16, penalty: -9_000)
        XCTAssertGreaterThan(hyphenCount(hyphenating.breakLines(tempting) { _ in 114 }, tempting), 0)
        XCTAssertEqual(hyphenCount(TotalFitBreaker().breakLines(tempting) { _ in 114 }, tempting), 0)
    }

    func testParagraphThatNeedsHyphensGetsThem() {
        // A 127pt line: four words (111pt) would stretch 16pt over 5.25 (ratio 3, badness 2700), five do not
        // fit; "four words and a half-" (111 + 5 + 12 + 2 = 130pt) shrinks 3pt of 9 and sets well.
        let items = halves(18)
        let breaks = TotalFitBreaker().breakLines(items) { _ in 127 }
        XCTAssertGreaterThan(hyphenCount(breaks, items), 0, "\(breaks)")
        XCTAssertTrue(breaks.dropLast().allSatisfy { $0.ratio <= 1 }, "\(breaks)")
        XCTAssertLessThanOrEqual(longestHyphenRun(breaks, items), 2)
    }

    /// A break between letters (only ever inside a stretch wider than the line) loses to a hyphen even when
    /// the hyphen leaves a very loose line.
    func testLetterBreakCostsMoreThanAnyHyphenation() {
        // "40 20-30|40": at the letter break the first line fits 95pt exactly; at the hyphen it is 67pt of 95.
        let items: [BreakItem] = [.box(40), .glue(5, stretch: 2.5, shrink: 2), .box(20), .penalty(2, 260, flagged: true),
                                  .box(30), .letterBreak(), .box(40),
                                  .glue(0, stretch: TotalFitBreaker.fillStretch, shrink: 0),
                                  .penalty(0, -TotalFitBreaker.forcedPenalty)]
        XCTAssertEqual(TotalFitBreaker().breakLines(items) { _ in 95 }.map(\.item), [3, 8])
        var cheap = TotalFitBreaker()
        cheap.letterBreakDemerits = 0
        XCTAssertEqual(cheap.breakLines(items) { _ in 95 }.map(\.item), [5, 8], "the case can fail")
        // A word of 120pt with no hyphenation point breaks between letters rather than overflow.
        let plain: [BreakItem] = [.box(40), .glue(5, stretch: 2.5, shrink: 2), .box(60), .letterBreak(), .box(60),
                                  .glue(0, stretch: TotalFitBreaker.fillStretch, shrink: 0),
                                  .penalty(0, -TotalFitBreaker.forcedPenalty)]
        XCTAssertEqual(TotalFitBreaker().breakLines(plain) { _ in 95 }.map(\.item), [1, 3, 6])
    }
}
