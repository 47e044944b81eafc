// How an `Inline` is held (issue 8: memory). A paragraph of `*a* ` x 2,000,000 is four million nodes; as a
// public struct of kind, range and literal offsets each was 56 bytes, and `*a*` also had an array of its one
// child (88 more), 617 MB at the 8 MB input bound. Here a node is 40 bytes: its kind in place (17 bytes: no
// payload is over 16), its range as one file number and four 32-bit numbers, and the shapes a long paragraph is
// made of need no box at all. A styled container or a link whose one child is text as written keeps that text
// in place of the child, because the child's range follows from its own (see `centredText`, `leadingText`).
// Whatever does not fit these forms (images, spans, text with literal offsets, a range across two files) is
// kept whole in a box. Every form gives back exactly the kind, range and offsets it was made from.

/// The forms an inline is kept in (`Inline.stored`).
enum StoredInline: Sendable {
    case text(String)
    case code(String)
    case variable(String)
    case footnoteReference(String)
    case softBreak, hardBreak, tab
    case strong([Inline]), emphasis([Inline]), underline([Inline]), strikethrough([Inline]),
         superscript([Inline]), `subscript`([Inline]), highlight([Inline]), inlineFootnote([Inline])
    /// A styled container whose one child is text as written, with as many columns of delimiter before it as
    /// after (`*a*`, `**word**`, `~~x~~`): the child's range is the container's less the delimiters.
    case strongText(String), emphasisText(String), underlineText(String), strikethroughText(String),
         superscriptText(String), subscriptText(String), highlightText(String)
    /// A link whose one child is text as written from the column after its start (`[a](/x)`, `[a]`, `<a:b>`).
    case linkText(LinkText)
    /// Anything else, whole.
    case boxed(InlineBox)
}

final class LinkText: Sendable {
    let destination: String
    let text: String
    init(destination: String, text: String) {
        self.destination = destination
        self.text = text
    }
}

final class InlineBox: Sendable {
    let kind: InlineKind
    let range: SourceRange
    let literalOffsets: [Int]
    init(kind: InlineKind, range: SourceRange, literalOffsets: [Int]) {
        self.kind = kind
        self.range = range
        self.literalOffsets = literalOffsets
    }
}

extension Inline {
    public var kind: InlineKind {
        get {
            switch stored {
            case .text(let s): return .text(s)
            case .code(let s): return .code(s)
            case .variable(let s): return .variable(name: s)
            case .footnoteReference(let s): return .footnoteReference(label: s)
            case .softBreak: return .softBreak
            case .hardBreak: return .hardBreak
            case .tab: return .tab
            case .strong(let c): return .strong(c)
            case .emphasis(let c): return .emphasis(c)
            case .underline(let c): return .underline(c)
            case .strikethrough(let c): return .strikethrough(c)
            case .superscript(let c): return .superscript(c)
            case .subscript(let c): return .subscript(c)
            case .highlight(let c): return .highlight(c)
            case .inlineFootnote(let c): return .inlineFootnote(c)
            case .strongText(let s): return .strong([centredChild(s)])
            case .emphasisText(let s): return .emphasis([centredChild(s)])
            case .underlineText(let s): return .underline([centredChild(s)])
            case .strikethroughText(let s): return .strikethrough([centredChild(s)])
            case .superscriptText(let s): return .superscript([centredChild(s)])
            case .subscriptText(let s): return .subscript([centredChild(s)])
            case .highlightText(let s): return .highlight([centredChild(s)])
            case .linkText(let link):
                let child = child(link.text, from: startColumn + 1, to: startColumn + 1 + Int32(clamping: scalarCount(link.text)))
                return .link(destination: link.destination, content: [child])
            case .boxed(let box): return box.kind
            }
        }
        set { store(newValue, range: range, literalOffsets: literalOffsets) }
    }

    public var range: SourceRange {
        get {
            if case .boxed(let box) = stored { return box.range }
            return SourceRange(start: SourceLocation(fileNumber: startFile, line: Int(startLine), column: Int(startColumn)),
                               end: SourceLocation(fileNumber: startFile, line: Int(endLine), column: Int(endColumn)))
        }
        set { store(kind, range: newValue, literalOffsets: literalOffsets) }
    }

    /// UTF-8 offsets into a `.text` of the characters `" ' - .` written as a backslash escape or an entity
    /// reference: smart punctuation leaves them as typed (`\--` is two hyphens).
    public var literalOffsets: [Int] {
        get {
            if case .boxed(let box) = stored { return box.literalOffsets }
            return []
        }
        set { store(kind, range: range, literalOffsets: newValue) }
    }

    /// Whether this is a `.text` (without making the kind: a styled one would make its child's array).
    var isText: Bool {
        switch stored {
        case .text: return true
        case .boxed(let box): if case .text = box.kind { return true } else { return false }
        default: return false
        }
    }

    /// Keeps `kind`, `range` and `literalOffsets` in the smallest form that gives all three back.
    mutating func store(_ kind: InlineKind, range: SourceRange, literalOffsets: [Int]) {
        startFile = range.start.fileNumber
        startLine = Int32(clamping: range.start.line)
        startColumn = Int32(clamping: range.start.column)
        endLine = Int32(clamping: range.end.line)
        endColumn = Int32(clamping: range.end.column)
        guard range.end.fileNumber == startFile, literalOffsets.isEmpty else {
            stored = .boxed(InlineBox(kind: kind, range: range, literalOffsets: literalOffsets))
            return
        }
        switch kind {
        case .text(let s): stored = .text(s)
        case .code(let s): stored = .code(s)
        case .variable(let s): stored = .variable(s)
        case .footnoteReference(let s): stored = .footnoteReference(s)
        case .softBreak: stored = .softBreak
        case .hardBreak: stored = .hardBreak
        case .tab: stored = .tab
        case .strong(let c): stored = centredText(c).map(StoredInline.strongText) ?? .strong(c)
        case .emphasis(let c): stored = centredText(c).map(StoredInline.emphasisText) ?? .emphasis(c)
        case .underline(let c): stored = centredText(c).map(StoredInline.underlineText) ?? .underline(c)
        case .strikethrough(let c): stored = centredText(c).map(StoredInline.strikethroughText) ?? .strikethrough(c)
        case .superscript(let c): stored = centredText(c).map(StoredInline.superscriptText) ?? .superscript(c)
        case .subscript(let c): stored = centredText(c).map(StoredInline.subscriptText) ?? .subscript(c)
        case .highlight(let c): stored = centredText(c).map(StoredInline.highlightText) ?? .highlight(c)
        case .inlineFootnote(let c): stored = .inlineFootnote(c)
        case .link(let destination, let c):
            if let text = leadingText(c) {
                stored = .linkText(LinkText(destination: destination, text: text))
            } else {
                stored = .boxed(InlineBox(kind: kind, range: range, literalOffsets: []))
            }
        case .image, .span, .rawHTML: stored = .boxed(InlineBox(kind: kind, range: range, literalOffsets: []))
        }
    }

    /// Uses `other`'s link box when both are links to the same place with the same text (a reference link
    /// repeated down a paragraph holds one box).
    mutating func shareLinkText(with other: LinkText?) -> LinkText? {
        guard case .linkText(let mine) = stored else { return other }
        if let other, other !== mine, other.destination == mine.destination, other.text == mine.text {
            stored = .linkText(other)
            return other
        }
        return mine
    }

    /// The text of `children` when it is one text child on this node's line with as many columns before it as
    /// after it, exactly its own length apart.
    private func centredText(_ children: [Inline]) -> String? {
        guard children.count == 1, startLine == endLine, case .text(let text) = children[0].stored,
              children[0].startFile == startFile, children[0].startLine == startLine, children[0].endLine == startLine
        else { return nil }
        let before = children[0].startColumn - startColumn
        let after = endColumn - children[0].endColumn
        guard before >= 0, before == after,
              Int(children[0].endColumn - children[0].startColumn) == scalarCount(text) else { return nil }
        return text
    }

    /// The text of `children` when it is one text child starting the column after this node on its line.
    private func leadingText(_ children: [Inline]) -> String? {
        guard children.count == 1, case .text(let text) = children[0].stored, children[0].startFile == startFile,
              children[0].startLine == startLine, children[0].endLine == startLine,
              children[0].startColumn == startColumn + 1,
              Int(children[0].endColumn - children[0].startColumn) == scalarCount(text) else { return nil }
        return text
    }

    private func centredChild(_ text: String) -> Inline {
        let margin = (endColumn - startColumn - Int32(clamping: scalarCount(text))) / 2
        return child(text, from: startColumn + margin, to: endColumn - margin)
    }

    /// The text child a compact form stands for, made straight in its stored form (a `kind` read makes it).
    private func child(_ text: String, from: Int32, to: Int32) -> Inline {
        Inline(text: text, file: startFile, line: startLine, from: from, to: to)
    }

    private init(text: String, file: UInt32, line: Int32, from: Int32, to: Int32) {
        (stored, startFile, startLine, startColumn, endLine, endColumn) = (.text(text), file, line, from, line, to)
    }

    private func scalarCount(_ text: String) -> Int { text.unicodeScalars.count }
}
