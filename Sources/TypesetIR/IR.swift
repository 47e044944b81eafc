// The attributed-string IR: what a document *is* once markup and styles are resolved.
// Modelled on NSAttributedString / NSParagraphStyle / NSTextAttachment: text, runs of character
// attributes over UTF-8 byte ranges, one paragraph style per paragraph, attachments at U+FFFC.
// All lengths are in PostScript points. Value types only; no Pango or Cairo here.

import RTSyntax

public struct Color: Hashable, Sendable {
    public var red: Double, green: Double, blue: Double, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public static let black = Color(red: 0, green: 0, blue: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
}

public enum FontStyle: String, Hashable, Sendable { case normal, italic, oblique }
public enum UnderlineStyle: String, Hashable, Sendable { case none, single, double, thick, wavy }
public enum StrikeStyle: String, Hashable, Sendable { case none, single, double }

public struct Shadow: Hashable, Sendable {
    public var dx: Double, dy: Double, blur: Double
    public var color: Color
    public init(dx: Double, dy: Double, blur: Double, color: Color) {
        self.dx = dx; self.dy = dy; self.blur = blur; self.color = color
    }
}

public enum LinkTarget: Hashable, Sendable {
    case url(String)
    /// A heading id or `#id` anywhere in the document (a PDF named destination).
    case destination(String)
}

/// Everything that can vary from character to character.
public struct CharacterAttributes: Hashable, Sendable {
    public var fontFamily: String = "DejaVu Serif"
    public var fontSize: Double = 10
    /// 100...900; 400 normal, 700 bold.
    public var weight: Int = 400
    public var style: FontStyle = .normal
    public var color: Color = .black
    public var background: Color? = nil
    public var underline: UnderlineStyle = .none
    public var underlineColor: Color? = nil
    public var strike: StrikeStyle = .none
    public var strikeColor: Color? = nil
    /// NSStrokeWidth semantics, in points: > 0 outline only; < 0 fill with `color` and outline with `strokeColor`.
    public var strokeWidth: Double = 0
    public var strokeColor: Color? = nil
    public var shadow: Shadow? = nil
    /// Extra space after each character, points.
    public var letterSpacing: Double = 0
    /// Raise (positive) or lower the baseline, points.
    public var baselineShift: Double = 0
    /// OpenType feature string as Pango takes it, e.g. `"smcp=1, onum=1"`.
    public var fontFeatures: String? = nil
    public var smallCaps: Bool = false
    public var ligatures: Bool = true
    /// Slant in degrees for synthetic oblique (0 = none).
    public var obliqueAngle: Double = 0
    /// Horizontal scale minus one: 0.3 is 30% wider, -0.2 condensed.
    public var expansion: Double = 0
    public var link: LinkTarget? = nil
    /// BCP 47 tag; nil inherits the document language.
    public var language: String? = nil
    /// Inline code (`` `x` ``, `<code>`): its own `Code` element in the tagged PDF (section 10).
    public var isCode = false

    public init() {}
}

/// Attributes over `range`, a range of UTF-8 byte offsets into the paragraph's text. The attributes are held
/// as one shared copy per distinct set (SharedAttributes.swift); a run still behaves as a plain value.
/// The range is kept in 32 bits a bound (16 bytes a run, not 24: a paragraph whose font changes on every word
/// has a run a word; issue 8): a paragraph's text is at most the 8 MB input bound.
public struct AttributeRun: Hashable, Sendable {
    var lower: Int32
    var upper: Int32
    public var range: Range<Int> {
        get { Int(lower) ..< Int(upper) }
        set { (lower, upper) = (Int32(clamping: newValue.lowerBound), Int32(clamping: newValue.upperBound)) }
    }
    @usableFromInline var shared: Shared<CharacterAttributes>
    public var attributes: CharacterAttributes {
        @inlinable get { shared.value }
        set { shared = .of(newValue) }
    }
    public init(range: Range<Int>, attributes: CharacterAttributes) {
        (lower, upper) = (Int32(clamping: range.lowerBound), Int32(clamping: range.upperBound))
        shared = .of(attributes)
    }

    /// The run's link, read without copying its attributes.
    public var link: LinkTarget? { shared.value.link }

    /// Whether both runs hold the same shared attributes (then they are equal; equal ones may not share).
    public func sharesAttributes(with other: AttributeRun) -> Bool { shared === other.shared }

    /// An identity for the run's shared attributes (memo keys; equal attributes may have several).
    public var attributesIdentity: ObjectIdentifier { ObjectIdentifier(shared) }
}

public enum TextAlignment: String, Hashable, Sendable { case left, right, center, justify, start }
public enum TabAlignment: String, Hashable, Sendable { case left, right, center, decimal }

public struct TabStop: Hashable, Sendable {
    /// From the column's left edge, points.
    public var position: Double
    public var alignment: TabAlignment
    public init(position: Double, alignment: TabAlignment = .left) {
        self.position = position
        self.alignment = alignment
    }
}

public enum LineHeight: Hashable, Sendable {
    /// A multiple of the font size (1.2 = 120%).
    case multiple(Double)
    /// A fixed baseline-to-baseline distance in points.
    case exactly(Double)
}

public enum WrapMode: String, Hashable, Sendable { case word, char, none }
public enum Truncation: String, Hashable, Sendable { case head, middle, tail }
public enum BreakBefore: String, Hashable, Sendable { case none, page, column }

public struct Border: Hashable, Sendable {
    public var width: Double
    public var color: Color
    /// Where the text of the container that draws the bar starts (a quote's), from the column's left edge: the
    /// bar stands just before it beside every paragraph inside, lists indented further included. Nil: before the
    /// paragraph's own indent.
    public var edge: Double? = nil
    /// The container that draws the bar (0: none): the bars of consecutive paragraphs of one quote are joined
    /// across the space between them; two quotes in a row keep a gap between their bars.
    public var group: Int = 0
    public init(width: Double, color: Color) {
        self.width = width
        self.color = color
    }
}

/// A paragraph's base direction (Unicode bidi's paragraph level).
public enum BaseDirection: Hashable, Sendable {
    case auto, leftToRight, rightToLeft
}

/// The edges inside which a right-to-left paragraph's indents are mirrored (`ParagraphStyle.mirrorEdges`), from the
/// column's left and right edges.
public struct MirrorEdges: Hashable, Sendable {
    public var left: Double
    public var right: Double
    public init(left: Double, right: Double) {
        self.left = left
        self.right = right
    }
}

/// Everything that applies to a paragraph as a whole. Indents follow NSParagraphStyle:
/// measured from the column's left (head) or right (tail) edge, not relative to each other.
public struct ParagraphStyle: Hashable, Sendable {
    public var alignment: TextAlignment = .left
    /// Left indent of the first line (RT `margin-left` + `indent`).
    public var firstLineHeadIndent: Double = 0
    /// Left indent of the other lines (RT `margin-left`).
    public var headIndent: Double = 0
    /// Right indent (RT `margin-right`), a positive distance from the right edge.
    public var tailIndent: Double = 0
    public var lineHeight: LineHeight = .multiple(1.2)
    /// Extra space between lines, points.
    public var lineSpacing: Double = 0
    public var minLineHeight: Double? = nil
    public var maxLineHeight: Double? = nil
    public var spaceBefore: Double = 0
    public var spaceAfter: Double = 0
    public var tabStops: [TabStop] = []
    /// Default distance between tab stops after the explicit ones.
    public var tabInterval: Double = 36
    /// The decimal separator decimal tab stops align on (from `lang`).
    public var decimalSeparator: String = "."
    public var hyphenate: Bool = false
    public var wrap: WrapMode = .word
    public var maxLines: Int? = nil
    public var truncation: Truncation = .tail
    public var keepWithNext: Bool = false
    public var keepTogether: Bool = false
    public var widows: Int = 2
    public var orphans: Int = 2
    public var breakBefore: BreakBefore = .none
    /// Filled behind the paragraph's full width (code blocks).
    public var background: Color? = nil
    /// How far the background box reaches beyond the text area (left of the head indent, right of the
    /// tail indent, above the first line and below the last): code blocks inset their text this much.
    public var backgroundPadding: Double = 0
    /// A bar at the left of the paragraph (block quotes), drawn in the head indent.
    public var leftBorder: Border? = nil
    /// The bars of the quotes around the one `leftBorder` belongs to, outermost first (a quote in a quote).
    public var outerBorders: [Border] = []
    /// Every bar drawn beside the paragraph, outermost first.
    public var bars: [Border] { leftBorder.map { outerBorders + [$0] } ?? outerBorders }
    /// Language of the paragraph (BCP 47).
    public var language: String = "en"
    /// Most the total-fit breaker may widen or narrow a justified line's glyphs (font expansion), as a
    /// fraction: 0.02 is pdfTeX's 2%; 0 turns it off (headings and code blocks).
    public var expansionLimit: Double = 0.02
    /// Whether punctuation and some round letters hang into the margin at line ends (optical margins).
    public var protrusion: Bool = true
    /// Greedy (first fit, as Pango wraps) instead of total-fit breaking of this justified paragraph.
    public var greedyBreaking: Bool = false
    /// Left to right or right to left; `.auto`: from the text's first strong letter. Layout sets it on the parts
    /// of a paragraph it lays out apart (pieces of a long one, fragments beside shapes) to the whole paragraph's,
    /// which a part starting at a word in the other script would otherwise flip (its lines aligned the other way).
    public var baseDirection: BaseDirection = .auto
    /// Set on the paragraphs of a list (the edges of the container the outermost list sits in) and on contents
    /// entries (the contents' own edges). A right-to-left paragraph's indents are mirrored inside them, so a list
    /// item's marker and hanging indent are on the right, as Typst and LaTeX's bidi package set right-to-left
    /// lists, and a contents entry's page number on the left. Elsewhere indents stay where `margin-left` and
    /// `margin-right` put them, as do the quotes and boxes around a list.
    public var mirrorEdges: MirrorEdges? = nil

    public init() {}
}

public enum ImageAlignment: String, Hashable, Sendable { case baseline, middle, top, bottom }
public enum ImageFit: String, Hashable, Sendable { case contain, fill }

/// An inline object occupying one U+FFFC character of its paragraph.
public struct ImageAttachment: Hashable, Sendable {
    /// Resolved path (relative paths already joined to the naming file's folder).
    public var path: String
    /// Requested size in points; nil: from the image (96 px per inch) or the other dimension's ratio.
    public var width: Double?
    public var height: Double?
    public var alignment: ImageAlignment = .baseline
    /// Extra raise above the alignment position, points.
    public var baselineOffset: Double = 0
    public var fit: ImageFit = .contain
    /// The picture is scaled down (keeping its proportions) to be no wider than this, points: a figure's, and one
    /// given no size (ImageLowering.swift).
    public var maxWidth: Double? = nil
    /// Likewise no taller than this: an image given no size fits the page's height.
    public var maxHeight: Double? = nil
    public var location: SourceLocation
    /// Set for `@chart`: drawn from this description instead of an image file (`path` only names it).
    public var chart: ChartSpec? = nil
    /// Its Figure element (with the alt text); nil: decorative, an artifact.
    public var structure: StructurePath? = nil

    public init(path: String, width: Double? = nil, height: Double? = nil, location: SourceLocation) {
        self.path = path
        self.width = width
        self.height = height
        self.location = location
    }
}

public struct TextAttachment: Hashable, Sendable {
    /// UTF-8 offset of the U+FFFC character in the paragraph text.
    public var offset: Int
    public var image: ImageAttachment
    public init(offset: Int, image: ImageAttachment) {
        self.offset = offset
        self.image = image
    }
}

/// A heading's entry in the PDF outline (bookmarks) and its named destination.
public struct OutlineEntry: Hashable, Sendable {
    public var level: Int
    public var title: String
    public var id: String
    /// The heading's number (`2.1`) when `numbering` gives it one; the title starts with it and a space.
    public var number: String? = nil
    public init(level: Int, title: String, id: String) {
        self.level = level
        self.title = title
        self.id = id
    }
}

/// One paragraph of attributed text: the unit Pango lays out.
public struct AttributedParagraph: Hashable, Sendable {
    public var text: String
    /// Sorted, non-overlapping, covering `0..<text.utf8.count` without gaps.
    public var runs: [AttributeRun]
    /// Held as one shared copy per distinct style (SharedAttributes.swift).
    public var style: ParagraphStyle {
        @inlinable get { sharedStyle.value }
        set { sharedStyle = .of(newValue) }
    }
    @usableFromInline var sharedStyle: Shared<ParagraphStyle>
    public var attachments: [TextAttachment]
    /// Named destinations (`#id`s) placed at the paragraph's first line.
    public var anchors: [String]
    /// Set for headings: a bookmark, and the `{{section}}` value for level 1.
    public var outline: OutlineEntry?
    public var location: SourceLocation?
    /// Set on a figure's or table's caption paragraph (References.swift).
    public var caption: CaptionInfo? = nil
    /// `[](#id){ref=page}` numbers in the text, filled in from the counting pass (References.swift).
    public var pageReferences: [PageReference] = []
    /// Numbers of the footnotes marked in this paragraph, sorted: layout sets each note at the foot of the
    /// column where the line holding its mark (a `footnote-N` link) is placed.
    public var footnoteMarks: [Int] = []
    /// Where it sits in the document's logical structure (tagged PDF); nil: not tagged by lowering.
    public var structure: StructurePath? = nil

    public init(text: String, runs: [AttributeRun], style: ParagraphStyle, attachments: [TextAttachment] = [],
                anchors: [String] = [], outline: OutlineEntry? = nil, location: SourceLocation? = nil) {
        self.text = text
        self.runs = runs
        sharedStyle = .of(style)
        self.attachments = attachments
        self.anchors = anchors
        self.outline = outline
        self.location = location
    }
}

public struct HorizontalRule: Hashable, Sendable {
    public var thickness: Double = 0.5
    public var color: Color = Color(red: 0.6, green: 0.6, blue: 0.6)
    public var spaceBefore: Double = 6
    public var spaceAfter: Double = 6
    /// Share of the column width the rule spans from the start edge (the footnote rule: a third).
    public var widthFraction: Double = 1
    public init() {}
}

public enum CellAlignment: String, Hashable, Sendable { case left, center, right, decimal }

/// A pipe table. Layout measures the cells, sizes the columns from their content, wraps what does not fit,
/// and repeats the header rows where the table continues in a new column or page.
public struct TableBlock: Hashable, Sendable {
    public var columns: [CellAlignment]
    /// Rows of cells, each cell one paragraph (no indents; aligned per column), held compactly (TableCells.swift).
    /// Decimal-column cells are `TAB` + text with one decimal stop, which layout moves to where the column's
    /// separators line up.
    public var cells: TableCells
    public var rowCount: Int { cells.rowCount }
    /// Every row, each cell made whole: for tests and small tables (layout asks for one row at a time).
    public var rows: [[AttributedParagraph]] { (0 ..< cells.rowCount).map { cells.row($0) } }
    /// How many of the first rows are header rows (bold, ruled off, repeated on continuation).
    public var headerRowCount: Int
    /// Left and right indents of the table from the column edges.
    public var headIndent: Double = 0
    public var tailIndent: Double = 0
    /// Space between a cell's border and its text, horizontally and vertically.
    public var cellPadding = EdgeInsets(top: 2, right: 5, bottom: 2, left: 5)
    public var headerRule = Border(width: 0.75, color: Color(red: 0.3, green: 0.3, blue: 0.3))
    public var rowRule = Border(width: 0.25, color: Color(red: 0.75, green: 0.75, blue: 0.75))
    public var spaceBefore: Double = 0
    public var spaceAfter: Double = 0
    public var location: SourceLocation?

    public init(columns: [CellAlignment], rows: [[AttributedParagraph]], headerRowCount: Int) {
        self.init(columns: columns, cells: TableCells(columnCount: columns.count, rows: rows), headerRowCount: headerRowCount)
    }

    public init(columns: [CellAlignment], cells: TableCells, headerRowCount: Int) {
        self.columns = columns
        self.cells = cells
        self.headerRowCount = headerRowCount
    }
}

/// What the layout stage flows into columns, in reading order. `indirect`: each payload is boxed, so the
/// document's block array holds one word per block, not the largest case's size with growth slack (issue 14).
public indirect enum LayoutBlock: Hashable, Sendable {
    case paragraph(AttributedParagraph)
    case table(TableBlock)
    case rule(HorizontalRule)
    case pageBreak
    case columnBreak
    /// A `@toc` line: title, dot leaders and the target's page number (known after pagination).
    case tocEntry(TocEntry)
    /// From here on, the content box is divided into these columns (`columns=N` divs).
    case columnSet(ColumnSet)
    /// `@exclude`: text flows around the shape from here on (see Exclusions.swift).
    case exclusion(Exclusion)
    /// A `shape=` div's content follows, up to `.shapeEnd`.
    case shapeStart(ShapedContainer)
    case shapeEnd
    /// A float: placed at the side of the column where it is met.
    case float(FloatBox)
    /// A `box=true` div's content follows, up to `.boxEnd`: drawn inside a border and background.
    case boxStart(BoxStyle)
    case boxEnd
}

/// A `box=true` div: border, background and padding around its content, which is indented by the border
/// and padding already. A box broken across columns is sliced (CSS `box-decoration-break: slice`).
public struct BoxStyle: Hashable, Sendable {
    public var border: Border? = Border(width: 0.5, color: Color(red: 0.6, green: 0.6, blue: 0.6))
    public var background: Color? = nil
    public var padding = EdgeInsets(all: 6)
    /// The box's outer edges, from the column's left and right edges.
    public var headIndent: Double = 0
    public var tailIndent: Double = 0
    public var spaceBefore: Double = 0
    public var spaceAfter: Double = 0
    public init() {}
}

public struct EdgeInsets: Hashable, Sendable {
    public var top: Double, right: Double, bottom: Double, left: Double
    public init(top: Double, right: Double, bottom: Double, left: Double) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }
    public init(all: Double) { self.init(top: all, right: all, bottom: all, left: all) }
}

public struct PageGeometry: Hashable, Sendable {
    /// Page size in points, orientation already applied.
    public var width: Double = 595.2756
    public var height: Double = 841.8898
    public var margins = EdgeInsets(all: 56.6929)
    public var columns: Int = 1
    public var columnGap: Double = 12
    public var columnRule: Border? = nil
    public init() {}

    public var contentWidth: Double { width - margins.left - margins.right }
    public var contentHeight: Double { height - margins.top - margins.bottom }
    public var columnWidth: Double {
        let n = Double(max(columns, 1))
        return (contentWidth - columnGap * (n - 1)) / n
    }
}

public struct DocumentMetadata: Hashable, Sendable {
    public var title: String? = nil
    public var author: String? = nil
    public var subject: String? = nil
    public var keywords: String? = nil
    /// Seconds since 1970 (front matter `date`, else SOURCE_DATE_EPOCH, else now): the PDF's dates.
    public var creationDate: Int64? = nil
    public init() {}
}

/// A `header:`/`footer:` line: up to three parts (left, centre, right), each a run of pieces.
public struct RunningText: Hashable, Sendable {
    public enum Field: String, Hashable, Sendable { case page, pages, title, section }
    public enum Piece: Hashable, Sendable {
        case text(String, CharacterAttributes)
        case field(Field, CharacterAttributes)
    }
    public var left: [Piece] = []
    public var center: [Piece] = []
    public var right: [Piece] = []
    public var style = ParagraphStyle()
    /// Where the `header:` / `footer:` value is written, for warnings about its text.
    public var location: SourceLocation? = nil
    public init() {}
}

/// A footnote's text (contract section 4): paragraphs in style `footnote`, the first starting with the
/// number and carrying the `footnote-N` destination its marks link to.
public struct FootnoteBody: Hashable, Sendable {
    public var number: Int
    public var paragraphs: [AttributedParagraph]
    public init(number: Int, paragraphs: [AttributedParagraph]) {
        self.number = number
        self.paragraphs = paragraphs
    }
}

/// The whole document, ready for layout.
public struct TypesetDocument: Hashable, Sendable {
    public var metadata = DocumentMetadata()
    public var page = PageGeometry()
    public var blocks: [LayoutBlock] = []
    /// Footnotes by number - 1: layout sets them at the foot of the column where their marks land.
    public var footnotes: [FootnoteBody] = []
    public var header: RunningText? = nil
    public var footer: RunningText? = nil
    public var language: String = "en"
    /// Front matter `fonts`: font files or folders to load, resolved against the document's folder.
    public var fontFiles: [String] = []
    /// Where each of `fontFiles` is named in the front matter, for located warnings.
    public var fontLocations: [String: SourceLocation] = [:]
    /// Where each font family is first named (`font:` / `font=`), for a warning at the key (section 6).
    public var familyLocations: [String: SourceLocation] = [:]
    /// Front matter `template`, as written (a name from `Templates/` or a path); applied by later work.
    public var template: String? = nil
    /// Front matter `pdf-standard` and `--pdf-standard`.
    public var pdfStandards: Set<PDFStandard> = []
    /// The input's name without folder and extension: the title of last resort.
    public var sourceName: String? = nil
    public init() {}
}
