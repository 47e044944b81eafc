// Figures, table captions and cross-references in the IR: what layout needs to keep a figure together (and
// move it to the next column), and where page numbers go that only pagination knows.

/// Marks a caption paragraph. A figure is the `contentBlocks` blocks before its caption plus the caption;
/// layout keeps them together and may move the group to the top of the next column. A table caption
/// (`contentBlocks == 0`) precedes its table and is kept with the table's first rows.
public struct CaptionInfo: Hashable, Sendable {
    public enum Kind: String, Hashable, Sendable { case figure, table }
    public var kind: Kind
    public var number: Int
    /// The label as set: `Figure 3`, `Tabelle 2`.
    public var label: String
    public var contentBlocks: Int
    public init(kind: Kind, number: Int, label: String, contentBlocks: Int) {
        self.kind = kind
        self.number = number
        self.label = label
        self.contentBlocks = contentBlocks
    }
}

/// `[](#id){ref=page}`: `range` (UTF-8 bytes of the paragraph text) holds a placeholder that layout replaces
/// with the page number of `target` once a counting pass has found it.
public struct PageReference: Hashable, Sendable {
    public var range: Range<Int>
    public var target: String
    public init(range: Range<Int>, target: String) {
        self.range = range
        self.target = target
    }
}

extension AttributedParagraph {
    /// The paragraph with each page reference's text replaced by `pages[target]` (or left as it is when the
    /// page is unknown); runs, attachments and later references shift with the text.
    public func resolvingPageReferences(_ pages: [String: Int]) -> AttributedParagraph {
        var out = self
        for k in out.pageReferences.indices.reversed() {
            let reference = out.pageReferences[k]
            guard let page = pages[reference.target] else { continue }
            out.replace(reference.range, with: String(page))
        }
        return out
    }

    /// Replaces the UTF-8 byte range `range` (inside one run) with `replacement`, keeping offsets consistent.
    mutating func replace(_ range: Range<Int>, with replacement: String) {
        var bytes = Array(text.utf8)
        guard range.lowerBound >= 0, range.upperBound <= bytes.count else { return }
        let inserted = Array(replacement.utf8)
        bytes.replaceSubrange(range, with: inserted)
        text = String(decoding: bytes, as: UTF8.self)
        let delta = inserted.count - range.count
        func shifted(_ offset: Int) -> Int { offset >= range.upperBound ? offset + delta : offset }
        for i in runs.indices {
            let r = runs[i].range
            // The run that holds the placeholder grows or shrinks; the runs after it move.
            let upper = r.upperBound >= range.upperBound ? r.upperBound + delta : r.upperBound
            runs[i].range = shifted(r.lowerBound)..<max(upper, shifted(r.lowerBound))
        }
        for i in attachments.indices { attachments[i].offset = shifted(attachments[i].offset) }
        for i in pageReferences.indices {
            let r = pageReferences[i].range
            if r == range {
                pageReferences[i].range = r.lowerBound..<(r.lowerBound + inserted.count)
            } else {
                pageReferences[i].range = shifted(r.lowerBound)..<shifted(r.upperBound)
            }
        }
    }
}
