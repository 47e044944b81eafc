// What pagination produces: pages of placed lines, boxes, images, links and destinations,
// in page coordinates (points, origin top-left, y down), ready to draw.

import TypesetIR

/// A line of a paragraph layout placed on a page. Holds the layout alive until the page is dropped.
public struct PlacedLine {
    public var paragraph: ParagraphLayout
    public var lineIndex: Int
    /// Left edge of the Pango layout (where the line's origin sits; add `box.x` - left for the logical box).
    public var originX: Double
    public var baseline: Double

    /// `originX` is where `paragraph`'s layout starts (column edge + its `left`). A line of a paragraph laid out
    /// in pieces is placed as the line of its piece, which Pango draws.
    public init(paragraph: ParagraphLayout, lineIndex: Int, originX: Double, baseline: Double) {
        let (piece, local) = paragraph.piece(ofLine: lineIndex)
        self.paragraph = piece
        self.lineIndex = local
        self.originX = originX + piece.left - paragraph.left
        self.baseline = baseline
    }

    /// Drawn but not content (a table's header repeated on a new page): a tagged PDF's artifact.
    public var isArtifact = false
    /// The structure it belongs to when its paragraph is shared (a `@toc` page number); else the paragraph's.
    public var structure: StructurePath? = nil

    /// Read on every question about the line (drawing, tagging, links): straight from the layout's lines, without
    /// the array `lines` hands out.
    public var box: LineBox { paragraph.line(lineIndex) }
    /// Left edge of the line's logical box on the page.
    public var x: Double { originX + box.x - paragraph.left }
    /// Top of the line box on the page.
    public var top: Double { baseline - box.baselineOffset }
}

/// A filled rectangle: paragraph backgrounds, left borders, rules.
public struct PlacedRect {
    public enum Kind: Sendable { case background, border, rule, columnRule }
    public var kind: Kind
    public var x: Double, y: Double, width: Double, height: Double
    public var color: Color
}

public struct PlacedImage {
    public var path: String
    public var image: ImageSurface
    /// The box the image is fitted into.
    public var x: Double, y: Double, width: Double, height: Double
    public var fit: ImageFit
    /// Its Figure element; nil: decorative (an artifact).
    public var structure: StructurePath? = nil
    /// Drawn again, not content (in a repeated table header).
    public var isArtifact = false
}

/// A clickable area (one per line piece of a link).
public struct LinkArea: Sendable {
    public var target: LinkTarget
    public var x: Double, y: Double, width: Double, height: Double

    public init(target: LinkTarget, x: Double, y: Double, width: Double, height: Double) {
        (self.target, self.x, self.y, self.width, self.height) = (target, x, y, width, height)
    }
}

/// A named destination (`#id` or heading id) at a point of a page.
public struct NamedDestination: Sendable {
    public var name: String
    public var x: Double, y: Double
}

/// A heading's bookmark, at its first line.
public struct PlacedOutlineEntry: Sendable {
    public var level: Int
    public var title: String
    public var id: String
    public var y: Double
}

public struct Page {
    /// 1-based.
    public var number: Int
    public var width: Double
    public var height: Double
    /// Drawn first, under the text.
    public var rects: [PlacedRect] = []
    public var lines: [PlacedLine] = []
    public var images: [PlacedImage] = []
    public var links: [LinkArea] = []
    public var destinations: [NamedDestination] = []
    public var outline: [PlacedOutlineEntry] = []
    /// The `{{section}}` of this page: the level-1 heading it opens with, else the last one before it.
    public var section: String?
    /// Header and footer lines (filled once the page is complete).
    public var runningLines: [PlacedLine] = []
    /// Marks that are not text (the `↪` of wrapped code): drawn as outlines, so they are not copied with it.
    public var markLines: [PlacedLine] = []

    public init(number: Int, width: Double, height: Double) {
        self.number = number
        self.width = width
        self.height = height
    }

    public var isEmpty: Bool { lines.isEmpty && rects.isEmpty && images.isEmpty }
}
