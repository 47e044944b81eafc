// Hand-built syntax trees for lowering tests (the parser lives in another worktree).

import RTSyntax
@testable import TypesetIR
import XCTest

let testFile = "/tmp/doc.rt"

func loc(_ line: Int, _ column: Int = 1, file: String = testFile) -> SourceLocation {
    SourceLocation(file: file, line: line, column: column)
}

func at(_ line: Int, _ column: Int = 1) -> SourceRange { SourceRange(at: loc(line, column)) }

func text(_ s: String, line: Int = 1) -> Inline { Inline(.text(s), range: at(line)) }
func strong(_ c: Inline...) -> Inline { Inline(.strong(c), range: at(1)) }
func emphasis(_ c: Inline...) -> Inline { Inline(.emphasis(c), range: at(1)) }
func variable(_ name: String, line: Int = 1, column: Int = 1) -> Inline { Inline(.variable(name: name), range: at(line, column)) }
func link(_ destination: String, _ c: Inline..., line: Int = 1, column: Int = 1) -> Inline {
    Inline(.link(destination: destination, content: c), range: at(line, column))
}
func span(_ attributes: Attributes, _ c: Inline...) -> Inline { Inline(.span(content: c, attributes: attributes), range: at(1)) }

/// `key=value` written at `line:column`; the value starts after `key=`.
func pair(_ key: String, _ value: String, line: Int = 1, column: Int = 2) -> AttributePair {
    AttributePair(key: key, value: value, keyRange: at(line, column), valueRange: at(line, column + key.count + 1))
}

func attrs(_ pairs: AttributePair..., styles: [String] = [], id: String? = nil) -> Attributes {
    Attributes(styles: styles.map { StyleName($0, range: at(1)) }, id: id, pairs: pairs)
}

func paragraph(_ inlines: Inline..., attributes: Attributes = .empty, line: Int = 1) -> Block {
    Block(.paragraph(inlines), attributes: attributes, range: at(line))
}

func heading(_ level: Int, _ title: String, id: String, line: Int = 1) -> Block {
    Block(.heading(level: level, content: [text(title)], id: id), range: at(line))
}

func list(_ style: ListMarkerStyle, start: Int = 1, delimiter: Character = ".", tight: Bool = true,
          _ items: [[Block]], attributes: Attributes = .empty) -> Block {
    let list = ListBlock(style: style, start: start, delimiter: delimiter,
                         items: items.map { ListItem(blocks: $0, range: at(1)) }, isTight: tight)
    return Block(.list(list), attributes: attributes, range: at(1))
}

// MARK: Front matter

func scalar(_ s: String, line: Int = 1, column: Int = 1) -> YAMLValue { YAMLValue(.scalar(s), at: loc(line, column)) }

func yamlPair(_ key: String, _ value: YAMLValue, line: Int = 1) -> YAMLPair {
    YAMLPair(key: key, keyLocation: loc(line, 1), value: value)
}

/// Front matter from `key: value` lines; line numbers are the entries' positions (starting at line 2).
func frontMatter(_ entries: [(String, String)]) -> FrontMatter {
    let pairs = entries.enumerated().map { i, e in yamlPair(e.0, scalar(e.1, line: i + 2, column: e.0.count + 3), line: i + 2) }
    return FrontMatter(entries: pairs, range: SourceRange(start: loc(1), end: loc(entries.count + 2)))
}

// MARK: Running lowering

/// A tiny stand-in for RTParser.parseInlines: TABs and `\t` split, `{{name}}` is a variable, the rest is text.
func stubParseInlines(_ line: String, _ location: SourceLocation) -> ([Inline], [Diagnostic]) {
    var inlines: [Inline] = []
    var rest = Substring(line.replacingOccurrences(of: "\\t", with: "\t"))
    while !rest.isEmpty {
        if rest.hasPrefix("\t") {
            inlines.append(Inline(.tab, range: SourceRange(at: location)))
            rest = rest.dropFirst()
        } else if rest.hasPrefix("{{"), let close = rest.range(of: "}}") {
            let name = rest[rest.index(rest.startIndex, offsetBy: 2)..<close.lowerBound]
            inlines.append(Inline(.variable(name: String(name)), range: SourceRange(at: location)))
            rest = rest[close.upperBound...]
        } else {
            let end = rest.firstIndex(where: { $0 == "\t" || $0 == "{" }).map { $0 == rest.startIndex ? rest.index(after: $0) : $0 } ?? rest.endIndex
            inlines.append(Inline(.text(String(rest[..<end])), range: SourceRange(at: location)))
            rest = rest[end...]
        }
    }
    return (inlines, [])
}

func lower(_ blocks: [Block], frontMatter: FrontMatter? = nil, options: LoweringOptions = LoweringOptions()) -> LoweringResult {
    Lowering.lower(RTDocument(file: testFile, frontMatter: frontMatter, blocks: blocks), options: options,
                   parseInlines: stubParseInlines)
}

extension LoweringResult {
    var paragraphs: [AttributedParagraph] {
        document.blocks.compactMap { if case .paragraph(let p) = $0 { p } else { nil } }
    }
    var warnings: [Diagnostic] { diagnostics.filter { $0.severity == .warning } }
    var errors: [Diagnostic] { diagnostics.filter { $0.severity == .error } }
}

extension AttributedParagraph {
    /// The attributes at a UTF-8 offset.
    func attributes(at offset: Int) -> CharacterAttributes? { runs.first { $0.range.contains(offset) }?.attributes }

    /// Attributes of the first occurrence of `substring`.
    func attributes(of substring: String) -> CharacterAttributes? {
        guard let range = text.range(of: substring) else { return nil }
        return attributes(at: text.utf8.distance(from: text.startIndex, to: range.lowerBound))
    }
}

/// Runs sorted, non-empty, adjacent, covering the text exactly; adjacent runs differ.
func assertRunsCover(_ p: AttributedParagraph, file: StaticString = #filePath, line: UInt = #line) {
    var expected = 0
    for (i, run) in p.runs.enumerated() {
        XCTAssertEqual(run.range.lowerBound, expected, "gap or overlap before run \(i)", file: file, line: line)
        XCTAssertFalse(run.range.isEmpty && !p.text.isEmpty, "empty run \(i)", file: file, line: line)
        if i > 0 { XCTAssertNotEqual(p.runs[i - 1].attributes, run.attributes, "unmerged runs \(i - 1), \(i)", file: file, line: line) }
        expected = run.range.upperBound
    }
    XCTAssertEqual(expected, p.text.utf8.count, "runs do not reach the end of the text", file: file, line: line)
}
