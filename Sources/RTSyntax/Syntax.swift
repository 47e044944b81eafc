// The RT syntax tree: immutable value types, every node with its exact source range.
// Built by `RTParser`; read by TypesetIR's lowering. Nothing here knows about fonts, pages or Pango.

/// A parsed `.rt` file (with `@include`d files already pasted in; their nodes keep their own file names).
public struct RTDocument: Sendable {
    public var file: String
    public var frontMatter: FrontMatter?
    public var blocks: [Block]

    public init(file: String, frontMatter: FrontMatter? = nil, blocks: [Block] = []) {
        self.file = file
        self.frontMatter = frontMatter
        self.blocks = blocks
    }
}

// MARK: - Front matter

/// The YAML mapping between the first `---` line and the next. Kept as a located tree so that
/// lowering can warn at the exact key or value it rejects.
public struct FrontMatter: Sendable {
    public var entries: [YAMLPair]
    public var range: SourceRange

    public init(entries: [YAMLPair], range: SourceRange) {
        self.entries = entries
        self.range = range
    }

    public subscript(key: String) -> YAMLValue? { entries.first { $0.key == key }?.value }
}

public struct YAMLPair: Sendable {
    public var key: String
    public var keyLocation: SourceLocation
    public var value: YAMLValue

    public init(key: String, keyLocation: SourceLocation, value: YAMLValue) {
        self.key = key
        self.keyLocation = keyLocation
        self.value = value
    }
}

public struct YAMLValue: Sendable {
    public indirect enum Kind: Sendable {
        case scalar(String)
        case sequence([YAMLValue])
        case mapping([YAMLPair])
        case null
    }

    public var kind: Kind
    public var location: SourceLocation

    public init(_ kind: Kind, at location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    public var scalar: String? { if case .scalar(let s) = kind { return s } else { return nil } }
}

// MARK: - Attributes  `{.style #id key=value key="quoted value"}`

public struct StyleName: Hashable, Sendable {
    public var name: String
    public var range: SourceRange
    public init(_ name: String, range: SourceRange) {
        self.name = name
        self.range = range
    }
}

public struct AttributePair: Hashable, Sendable {
    public var key: String
    public var value: String
    public var keyRange: SourceRange
    public var valueRange: SourceRange

    public init(key: String, value: String, keyRange: SourceRange, valueRange: SourceRange) {
        self.key = key
        self.value = value
        self.keyRange = keyRange
        self.valueRange = valueRange
    }
}

/// An attribute block, in source order. Later pairs with the same key win.
public struct Attributes: Hashable, Sendable {
    public var styles: [StyleName]
    public var id: String?
    public var pairs: [AttributePair]

    public init(styles: [StyleName] = [], id: String? = nil, pairs: [AttributePair] = []) {
        self.styles = styles
        self.id = id
        self.pairs = pairs
    }

    public static let empty = Attributes()
    public var isEmpty: Bool { styles.isEmpty && id == nil && pairs.isEmpty }

    public subscript(key: String) -> AttributePair? { pairs.last { $0.key == key } }

    /// `self` then `other`: other's pairs win, styles accumulate, other's id wins.
    public func merging(_ other: Attributes) -> Attributes {
        Attributes(styles: styles + other.styles, id: other.id ?? id, pairs: pairs + other.pairs)
    }

    /// `self = self.merging(other)` without copying what is already here.
    mutating func append(_ other: Attributes) {
        styles.append(contentsOf: other.styles)
        if let id = other.id { self.id = id }
        pairs.append(contentsOf: other.pairs)
    }
}

// MARK: - Blocks

public struct Block: Sendable {
    public var kind: BlockKind
    /// Attributes from a preceding `{...}` line, a heading's trailing `{...}`, or a div's opening line.
    public var attributes: Attributes
    public var range: SourceRange

    public init(_ kind: BlockKind, attributes: Attributes = .empty, range: SourceRange) {
        self.kind = kind
        self.attributes = attributes
        self.range = range
    }
}

public indirect enum BlockKind: Sendable {
    case paragraph([Inline])
    /// `id` is the explicit `#id` or the slug of the text, made unique within the document (`-2`, `-3`).
    case heading(level: Int, content: [Inline], id: String)
    case list(ListBlock)
    case blockQuote([Block])
    case codeBlock(language: String?, text: String)
    case rule
    case table(Table)
    /// A paragraph holding only an image (section 4, "Image block").
    case imageBlock(ImageReference)
    /// `::: styles {attrs}` ... `:::`; the styles and attributes are in the block's `attributes`.
    case div([Block])
    case directive(Directive)
    /// `[^label]: text` (further paragraphs indented four spaces); `label` is case-folded like a link label.
    case footnoteDefinition(label: String, blocks: [Block])
}

public enum ListMarkerStyle: Hashable, Sendable {
    case bullet(Character)          // '-', '*' or '+' as written
    case decimal
    case lowerAlpha, upperAlpha
    case lowerRoman, upperRoman
}

public struct ListBlock: Sendable {
    public var style: ListMarkerStyle
    /// First number (1-based; `c.` starts at 3, `iv.` at 4). Unused for bullets.
    public var start: Int
    /// `.` or `)` for ordered lists.
    public var delimiter: Character
    public var items: [ListItem]
    /// No blank line between items (Markdown "tight" list).
    public var isTight: Bool

    public init(style: ListMarkerStyle, start: Int = 1, delimiter: Character = ".", items: [ListItem], isTight: Bool) {
        self.style = style
        self.start = start
        self.delimiter = delimiter
        self.items = items
        self.isTight = isTight
    }
}

/// A GitHub task list item's box: `- [ ]` open, `- [x]` done.
public enum TaskState: Sendable, Equatable {
    case open, done
}

public struct ListItem: Sendable {
    public var blocks: [Block]
    public var range: SourceRange
    /// Set for a task list item; its box replaces the bullet (section 9).
    public var task: TaskState?
    public init(blocks: [Block], range: SourceRange, task: TaskState? = nil) {
        self.blocks = blocks
        self.range = range
        self.task = task
    }
}

public enum ColumnAlignment: Hashable, Sendable {
    case none, left, center, right, decimal
}

public struct TableCell: Sendable {
    public var content: [Inline]
    public var range: SourceRange
    public init(content: [Inline], range: SourceRange) {
        self.content = content
        self.range = range
    }
}

public struct Table: Sendable {
    public var alignments: [ColumnAlignment]
    public var header: [TableCell]
    /// Body rows as written: a row may have fewer cells than there are columns (the rest are empty).
    public var rows: [[TableCell]]
    public init(alignments: [ColumnAlignment], header: [TableCell], rows: [[TableCell]]) {
        self.alignments = alignments
        self.header = header
        self.rows = rows
    }
}

public enum Directive: Sendable {
    case pageBreak
    case columnBreak
    /// `@toc [depth=N] [title="..."]`, options kept as written.
    case toc(options: [AttributePair])
    /// `@exclude SHAPE [pages=...] [margin=...]`, kept as written for the page stage to interpret.
    case exclude(shape: String, options: [AttributePair])
    /// `@include` never reaches the tree (the parser pastes the file); unknown names do, with a warning.
    case unknown(name: String, arguments: String)
}

// MARK: - Inlines

/// One inline node. Its public face is `kind`, `range` and `literalOffsets`; how it is held is private
/// (InlineStorage.swift): 40 bytes and no box of its own for the nodes a long paragraph is made of (issue 8).
public struct Inline: Sendable {
    var stored: StoredInline
    var startFile: UInt32
    var startLine: Int32
    var startColumn: Int32
    var endLine: Int32
    var endColumn: Int32

    public init(_ kind: InlineKind, range: SourceRange) {
        (stored, startFile, startLine, startColumn, endLine, endColumn) = (.softBreak, 0, 0, 0, 0, 0)
        store(kind, range: range, literalOffsets: [])
    }
}

public struct ImageReference: Sendable {
    public var alt: String
    /// As written; relative paths are relative to `range.start.file`.
    public var path: String
    public var attributes: Attributes
    public var range: SourceRange
    /// Set for `@chart`: the chart drawn in place of a picture file (`path` is empty).
    public var chart: ChartSource? = nil

    public init(alt: String, path: String, attributes: Attributes, range: SourceRange) {
        self.alt = alt
        self.path = path
        self.attributes = attributes
        self.range = range
    }
}

// Not `indirect` as a whole: every case would then be a heap box, two for `*a*` (issue 8: a paragraph of
// millions of nodes). Payloads are at most 24 bytes; the few large ones are boxed case by case.
public enum InlineKind: Sendable {
    /// Literal text, escapes already resolved (`\ ` is U+00A0).
    case text(String)
    /// A newline inside a paragraph: renders as a space.
    case softBreak
    /// A line ending in `\`.
    case hardBreak
    /// A literal TAB or `\t`.
    case tab
    case strong([Inline])
    case emphasis([Inline])
    case underline([Inline])
    case strikethrough([Inline])
    case superscript([Inline])
    case `subscript`([Inline])
    case highlight([Inline])
    case code(String)
    /// `[text](dest)` or `<https://x>`; an internal link's destination starts with `#`.
    case link(destination: String, content: [Inline])
    indirect case image(ImageReference)
    /// `[text]{attrs}`
    indirect case span(content: [Inline], attributes: Attributes)
    /// `{{name}}`
    case variable(name: String)
    /// An inline HTML tag while the parser pairs tags (HTMLInlines.swift); never in a finished tree.
    indirect case rawHTML(HTMLTag)
    /// `[^label]`, label case-folded like a link label (Footnotes.swift).
    case footnoteReference(label: String)
    /// `^[text]`: a note written in place.
    case inlineFootnote([Inline])
}

/// Plain text of inlines (for slugs, bookmarks, alt text).
public func plainText(_ inlines: [Inline]) -> String {
    var out = ""
    for inline in inlines {
        switch inline.kind {
        case .text(let s), .code(let s): out += s
        case .softBreak, .hardBreak: out += " "
        case .tab: out += "\t"
        case .strong(let c), .emphasis(let c), .underline(let c), .strikethrough(let c),
             .superscript(let c), .subscript(let c), .highlight(let c):
            out += plainText(c)
        case .link(_, let c), .span(let c, _): out += plainText(c)
        case .image(let image): out += image.alt
        case .variable(let name): out += "{{\(name)}}"
        case .rawHTML, .footnoteReference, .inlineFootnote: break
        }
    }
    return out
}
