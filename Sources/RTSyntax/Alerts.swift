// GitHub's alerts (section 9): a block quote whose first line is only `[!NOTE]` (or TIP, IMPORTANT, WARNING,
// CAUTION; any case), with more after it, is a titled callout. Read from the quote's parsed blocks, so a marker
// that CommonMark makes something else (a setext heading's text, part of a longer line) or a marker alone
// leaves an ordinary quote, as on GitHub.

extension BlockParser {
    /// The kinds; each has the built-in styles `alert-KIND` (the quote) and `alert-KIND-title` (its title).
    static let alertKinds: Set<String> = ["note", "tip", "important", "warning", "caution"]

    /// For a quote's `blocks` whose first paragraph starts on the quote's first line (`firstLine`) with a marker
    /// line: the alert, given the quote's range. Its title paragraph ("Note") stands where the marker was, the
    /// rest of that paragraph stays a paragraph, and the quote takes the kind's style.
    static func alert(_ blocks: [Block], firstLine: Int?) -> ((SourceRange) -> Block)? {
        guard let first = blocks.first, case .paragraph(let inlines) = first.kind, first.attributes.isEmpty,
              first.range.start.line == firstLine, let marker = inlines.first, case .text(let written) = marker.kind,
              written.utf8.count <= 12, written.hasPrefix("[!"), written.hasSuffix("]") else { return nil }
        let kind = String(written.dropFirst(2).dropLast()).lowercased()
        guard alertKinds.contains(kind) else { return nil }
        let title = Block(.paragraph([Inline(.text(kind.prefix(1).uppercased() + kind.dropFirst()), range: marker.range)]),
                          attributes: Attributes(styles: [StyleName("alert-\(kind)-title", range: marker.range)]),
                          range: marker.range)
        var rest = [title]
        if inlines.count > 1 {
            // The marker's line must end there; the paragraph goes on after the break.
            switch inlines[1].kind {
            case .softBreak, .hardBreak: break
            default: return nil
            }
            let after = Array(inlines.dropFirst(2))
            if let start = after.first?.range.start {
                rest.append(Block(.paragraph(after), range: SourceRange(start: start, end: first.range.end)))
            }
        }
        rest += blocks.dropFirst()
        guard rest.count > 1 else { return nil }  // a marker alone is text
        let style = Attributes(styles: [StyleName("alert-\(kind)", range: marker.range)])
        return { Block(.blockQuote(rest), attributes: style, range: $0) }
    }
}
