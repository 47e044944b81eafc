// Regions of the content box: column sets (`columns=N` divs) and `@toc` entries, and how RT lowers them.

import RTSyntax

/// How the content box is divided across: `count` columns `gap` apart, with an optional rule between them.
public struct ColumnSet: Hashable, Sendable {
    public var count: Int
    public var gap: Double
    public var rule: Border?
    public init(count: Int, gap: Double, rule: Border? = nil) {
        self.count = count
        self.gap = gap
        self.rule = rule
    }

    public init(_ page: PageGeometry) { self.init(count: page.columns, gap: page.columnGap, rule: page.columnRule) }

    public func columnWidth(in contentWidth: Double) -> Double {
        let n = Double(max(count, 1))
        return (contentWidth - gap * (n - 1)) / n
    }
}

/// One line of a table of contents. The paragraph holds the title (linked to `target`) and keeps `numberWidth`
/// free at its right (tail indent), so the page number, known only after pagination, never changes its lines.
public struct TocEntry: Hashable, Sendable {
    public var paragraph: AttributedParagraph
    public var target: String
    public var level: Int
    /// Room reserved for the page number and the gap before it, points.
    public var numberWidth: Double
    public init(paragraph: AttributedParagraph, target: String, level: Int, numberWidth: Double) {
        self.paragraph = paragraph
        self.target = target
        self.level = level
        self.numberWidth = numberWidth
    }
}

/// Where a `@toc` goes in the output and how it looks; filled in by `finish()` once every heading is known.
struct TocRequest {
    var index: Int
    var depth: Int
    var state: StyleState
    /// The TOC element, reserved where `@toc` stands (reading order).
    var structure: [StructureNode] = []
}

extension DocumentLowerer {
    // MARK: @toc

    mutating func lowerToc(_ options: [AttributePair], context: StyleState) {
        var depth = 3
        for pair in options {
            switch pair.key {
            case "depth":
                if let n = Int(pair.value), (1...6).contains(n) { depth = n } else {
                    diagnostics.append(.warning("bad @toc depth '\(pair.value)': expected 1 to 6; using 3", at: pair.keyRange.start))
                }
            case "title":
                // Set like a level-1 heading, but neither a bookmark nor an entry of its own.
                var state = context
                sheet.apply("h1", to: &state)
                var builder = ParagraphBuilder()
                builder.append(pair.value, state.character)
                emitParagraph(builder, style: state.paragraphStyle(), base: state.character, location: pair.keyRange.start)
            default: break  // reported by the parser
            }
        }
        var state = context
        sheet.apply("toc", to: &state)
        tocRequests.append(TocRequest(index: output.count, depth: depth, state: state, structure: tocStructure()))
    }

    /// Builds each `@toc`'s entries from the headings in the output and inserts them where it stood.
    mutating func insertTocs() {
        guard !tocRequests.isEmpty else { return }
        let headings: [OutlineEntry] = output.compactMap {
            if case .paragraph(let p) = $0 { return p.outline } else { return nil }
        }
        for request in tocRequests.reversed() {
            let entries = headings.filter { $0.level <= request.depth && !$0.title.isEmpty }
                .enumerated().map { tocEntry($0.element, state: request.state, first: $0.offset == 0) }
                .map { entry in
                    var entry = entry
                    tagTocEntry(&entry, toc: request.structure)
                    return entry
                }
            output.insert(contentsOf: entries.map(LayoutBlock.tocEntry), at: request.index)
        }
        tocRequests.removeAll()
    }

    private func tocEntry(_ heading: OutlineEntry, state: StyleState, first: Bool) -> TocEntry {
        var character = state.character
        character.link = .destination(heading.id)
        if heading.level == 1 { character.weight = max(character.weight, 700) }
        let size = character.fontSize
        var style = state.paragraphStyle()
        // A right-to-left title mirrors its level indent and the page number's room inside the contents' edges.
        style.mirrorEdges = MirrorEdges(left: style.headIndent, right: style.tailIndent)
        // Levels indent by 1.5em; wrapped title lines hang under the title's text, after its number.
        let indent = style.headIndent + Double(heading.level - 1) * 1.5 * size
        style.firstLineHeadIndent = indent
        style.headIndent = indent
        if let number = heading.number.map({ $0 + " " }) ?? Self.leadingNumber(heading.title) {
            style.headIndent += options.measurer?.width(of: number, attributes: character)
                ?? Double(number.count) * 0.5 * size
        }
        let numberWidth = 3.5 * size  // four digits and a gap
        style.tailIndent += numberWidth
        style.alignment = .left
        style.spaceBefore = heading.level == 1 && !first ? 0.5 * size : 0
        style.spaceAfter = 0
        style.keepWithNext = false
        style.breakBefore = .none
        style.maxLines = nil
        let text = heading.title
        let paragraph = AttributedParagraph(text: text, runs: [AttributeRun(range: 0..<text.utf8.count, attributes: character)],
                                            style: style)
        return TocEntry(paragraph: paragraph, target: heading.id, level: heading.level, numberWidth: numberWidth)
    }

    /// A title's leading number with the space after it (`3. `, `2.1 `, `IV. `, `B) `), nil when it has none.
    static func leadingNumber(_ title: String) -> String? {
        guard let space = title.firstIndex(of: " "), space > title.startIndex else { return nil }
        let token = title[..<space]
        var rest = title[space...]
        while rest.first == " " { rest = rest.dropFirst() }
        guard !rest.isEmpty else { return nil }
        let isNumber: Bool
        if token.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == ")") }) {
            // A bare figure is a number (`2 Methods`), a year is not (`2024 in review`).
            isNumber = token.first?.isNumber == true && (token.count <= 2 || token.contains { $0 == "." || $0 == ")" })
        } else if let last = token.last, last == "." || last == ")" {
            let body = token.dropLast()
            isNumber = !body.isEmpty && (body.count == 1 && body.allSatisfy { $0.isASCII && $0.isLetter }
                                         || body.allSatisfy { "IVXLCDM".contains($0) })
        } else {
            isNumber = false
        }
        return isNumber ? String(title[..<rest.startIndex]) : nil
    }

    // MARK: columns=N divs

    static let columnDivKeys: Set<String> = ["columns", "column-gap", "column-rule"]

    /// The column set a div asks for, or nil when it sets none (problems are reported, defaults kept).
    mutating func divColumnSet(_ attributes: Attributes, state: StyleState) -> ColumnSet? {
        let pairs = attributes.pairs.filter { Self.columnDivKeys.contains($0.key) }
        guard !pairs.isEmpty else { return nil }
        var set = columnSets.last ?? ColumnSet(count: 1, gap: 12)
        let context = LengthContext(fontSize: state.character.fontSize, percentBase: contentWidth)
        for pair in pairs {
            switch pair.key {
            case "columns":
                if let n = Int(pair.value), (1...16).contains(n) { set.count = n } else {
                    diagnostics.append(.warning("bad columns '\(pair.value)': expected a whole number from 1 to 16", at: pair.keyRange.start))
                }
            case "column-gap":
                if let gap = Length.points(pair.value, in: context), gap >= 0 { set.gap = gap } else {
                    diagnostics.append(.warning("bad column-gap '\(pair.value)': expected a length", at: pair.keyRange.start))
                }
            default:
                if pair.value.lowercased() == "none" { set.rule = nil }
                else if let rule = parseBorderValue(pair.value, context: context) { set.rule = rule } else {
                    diagnostics.append(.warning("bad column-rule '\(pair.value)': expected none or WIDTH COLOR (0.5pt gray)", at: pair.keyRange.start))
                }
            }
        }
        if set.columnWidth(in: contentWidth) <= 0 {
            diagnostics.append(.warning("columns and column-gap leave no room for text; ignored", at: pairs[0].keyRange.start))
            return nil
        }
        return set
    }

    /// Lowers a div's children inside its column set: a `.columnSet` before them and the enclosing one after.
    mutating func inColumns(_ set: ColumnSet?, state: inout StyleState, _ body: (inout DocumentLowerer, StyleState) -> Void) {
        guard let set, let outer = columnSets.last, set != outer else { return body(&self, state) }
        state.columnWidth = set.columnWidth(in: contentWidth)
        columnSets.append(set)
        output.append(.columnSet(set))
        body(&self, state)
        columnSets.removeLast()
        output.append(.columnSet(outer))
    }
}
