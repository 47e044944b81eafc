// Cross-reference labels, found in a pass over the syntax tree before lowering, so that `[](#id)` can name
// a figure, table or section that comes later. Lowering numbers the same blocks in the same order.

import RTSyntax

/// The text `[](#id)` sets for each id: `Figure 3`, `Table 2`, `Section 2.1`, a heading's or span's text.
struct ReferenceIndex {
    private(set) var labels: [String: String] = [:]
    /// Ids that have no label of their own (a paragraph's or div's `#id` before any heading).
    private(set) var unlabelled: Set<String> = []

    private var headings: HeadingCounter
    /// Counted as lowering counts them (DocumentLowerer.githubSlugs): the same heading, the same anchor.
    private var githubSlugs = GitHubSlugs()
    private var figures = 0
    private var tables = 0
    private let words: ReferenceLabels
    /// The label of the heading in force: what a block `#id` under it is called.
    private var section: String?

    /// The document's language when smart punctuation is on (nil: off): a heading's label reads as the heading
    /// is set, `Don’t “panic” – now`, not as typed.
    private let smartLanguage: String?

    init(numbering: HeadingNumbering?, words: ReferenceLabels, smartLanguage: String? = nil) {
        headings = HeadingCounter(numbering)
        self.words = words
        self.smartLanguage = smartLanguage
    }

    static func build(_ blocks: [Block], numbering: HeadingNumbering?, words: ReferenceLabels,
                      smartLanguage: String? = nil) -> ReferenceIndex {
        var index = ReferenceIndex(numbering: numbering, words: words, smartLanguage: smartLanguage)
        index.scan(blocks)
        return index
    }

    func label(_ id: String) -> String? { labels[id] }

    private mutating func define(_ id: String?, _ label: String?) {
        guard let id, labels[id] == nil, !unlabelled.contains(id) else { return }
        if let label, !label.isEmpty { labels[id] = label } else { unlabelled.insert(id) }
    }

    private mutating func scan(_ blocks: [Block]) {
        let captions = TableCaptions(blocks)
        for (i, block) in blocks.enumerated() {
            switch block.kind {
            case .heading(let level, let content, let id):
                let shown = smartLanguage.map { SmartPunctuation.apply(content, language: block.attributes["lang"]?.value ?? $0) }
                let text = outlineTitle(plainText(shown ?? content))
                let label = headings.next(level: level).map { "\(words.section) \($0)" } ?? text
                define(id, label)
                define(block.attributes.id, label)
                define(githubSlugs.next(plainText(content)), label)
                section = label
                scanInlines(content)
            case .imageBlock(let image):
                if FigureRules.isFigure(image, blockAttributes: block.attributes) {
                    noteFigure(ids: [image.attributes.id, block.attributes.id])
                } else {
                    define(image.attributes.id, image.attributes["alt"]?.value ?? image.alt)
                    define(block.attributes.id, section)
                }
            case .table(let table):
                // Cell by cell: a flat copy of a 212,000-row table's cells was its largest allocation (issue 8).
                defer {
                    for cell in table.header { scanInlines(cell.content) }
                    for row in table.rows { for cell in row { scanInlines(cell.content) } }
                }
                let caption = captions.caption(ofTable: i).flatMap { TableCaption(blocks[$0]) }
                if caption != nil || FigureRules.isNumberedTable(block.attributes) {
                    tables += 1
                    let label = "\(words.table) \(tables)"
                    define(caption?.id, label)
                    define(block.attributes.id, label)
                } else {
                    define(block.attributes.id, section)
                }
            case .paragraph(let content):
                guard !captions.isCaption(i) else { continue }
                define(block.attributes.id, section)
                scanInlines(content)
            case .list(let list):
                define(block.attributes.id, section)
                for item in list.items { scan(item.blocks) }
            case .blockQuote(let inner), .div(let inner):
                define(block.attributes.id, section)
                scan(inner)
            case .codeBlock, .rule, .directive:
                define(block.attributes.id, section)
            case .footnoteDefinition:
                continue   // notes are set elsewhere; their ids are looked up as anchors only
            }
        }
    }

    /// Counts a figure and names its ids `Figure N`. Any block lowered as a figure (a chart) calls this here,
    /// in document order, as lowering calls `emitCaption(.figure, ...)` for it.
    mutating func noteFigure(ids: [String?]) {
        figures += 1
        let label = "\(words.figure) \(figures)"
        for id in ids { define(id, label) }
    }

    /// Spans are called by their text, inline images by their alt text.
    private mutating func scanInlines(_ inlines: [Inline]) {
        for inline in inlines {
            switch inline.kind {
            case .span(let content, let attributes):
                if let id = attributes.id { define(id, outlineTitle(plainText(content))) }
                scanInlines(content)
            case .image(let image):
                if let id = image.attributes.id { define(id, image.attributes["alt"]?.value ?? image.alt) }
            case .strong(let c), .emphasis(let c), .underline(let c), .strikethrough(let c), .superscript(let c),
                 .subscript(let c), .highlight(let c), .link(_, let c):
                scanInlines(c)
            default:
                break
            }
        }
    }
}

/// Which image blocks are figures and which tables are numbered: one rule for the index and for lowering.
enum FigureRules {
    static func isFigure(_ image: ImageReference, blockAttributes: Attributes) -> Bool {
        if image.isRemote { return false }
        if image.attributes["float"] != nil || blockAttributes["float"] != nil { return false }
        if image.attributes["caption"] != nil { return true }
        return [image.attributes.id, blockAttributes.id].contains { $0?.hasPrefix("fig-") == true }
    }

    static func isNumberedTable(_ attributes: Attributes) -> Bool { attributes.id?.hasPrefix("tbl-") == true }
}

/// `Table: caption {#tbl-id}` paragraphs next to pipe tables in one list of sibling blocks. A table takes the
/// caption right before it if there is one, else the one right after it; each caption serves one table.
struct TableCaptions {
    private var byTable: [Int: Int] = [:]
    private var captionIndices: Set<Int> = []

    init(_ blocks: [Block]) {
        for (t, block) in blocks.enumerated() {
            guard case .table = block.kind else { continue }
            for c in [t - 1, t + 1] where c >= 0 && c < blocks.count && !captionIndices.contains(c) {
                if TableCaption.isCaption(blocks[c]) {
                    byTable[t] = c
                    captionIndices.insert(c)
                    break
                }
            }
        }
    }

    func caption(ofTable index: Int) -> Int? { byTable[index] }
    func isCaption(_ index: Int) -> Bool { captionIndices.contains(index) }
}

/// A `Table: caption {#id}` paragraph taken apart: the caption's inlines and its id.
struct TableCaption {
    var content: [Inline]
    var id: String?
    var location: SourceLocation

    static let prefix = "Table:"

    static func isCaption(_ block: Block) -> Bool {
        guard case .paragraph(let inlines) = block.kind, let first = inlines.first,
              case .text(let text) = first.kind else { return false }
        return text.hasPrefix(prefix)
    }

    init?(_ block: Block) {
        guard Self.isCaption(block), case .paragraph(var inlines) = block.kind,
              case .text(let head) = inlines[0].kind else { return nil }
        location = block.range.start
        id = block.attributes.id
        var rest = head.dropFirst(Self.prefix.count)
        while rest.first == " " { rest = rest.dropFirst() }
        inlines[0].kind = .text(String(rest))
        // A trailing `{#id}` names the table (pandoc); the parser leaves it as text.
        if let lastIndex = inlines.indices.last, case .text(let tail) = inlines[lastIndex].kind,
           let (kept, found) = Self.trailingID(tail) {
            inlines[lastIndex].kind = .text(kept)
            id = found
        }
        content = inlines
    }

    /// `caption text {#tbl-x}` -> ("caption text", "tbl-x").
    static func trailingID(_ text: String) -> (String, String)? {
        var t = Substring(text)
        while t.last == " " { t = t.dropLast() }
        guard t.hasSuffix("}"), let open = t.lastIndex(of: "{") else { return nil }
        let inside = t[t.index(after: open)..<t.index(before: t.endIndex)]
        guard inside.first == "#" else { return nil }
        let id = inside.dropFirst()
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || "-_:.".contains($0) }) else { return nil }
        var kept = t[..<open]
        while kept.last == " " { kept = kept.dropLast() }
        return (String(kept), String(id))
    }
}

/// GitHub's anchors of a document's headings in order: the first "Setup" is `setup`, the next `setup-1`, then
/// `setup-2` (github.com's numbering, which README tables of contents link to); RT's own ids count from `-2`.
struct GitHubSlugs {
    /// Per slug handed out, how many times its base was counted on from it.
    private var occurrences: [String: Int] = [:]

    mutating func next(_ headingText: String) -> String {
        let base = DocumentLowerer.githubSlug(headingText)
        guard !base.isEmpty else { return base }
        var slug = base
        // As github-slugger numbers: a heading written "Setup 1" that took `setup-1` is counted past.
        while occurrences[slug] != nil {
            occurrences[base, default: 0] += 1
            slug = "\(base)-\(occurrences[base]!)"
        }
        occurrences[slug] = 0
        return slug
    }
}
