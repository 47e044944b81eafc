// Text flowing around shapes (RT section 4): `@exclude SHAPE`, divs with `shape=` (text set inside a shape)
// and floats (`float=left|right` on image blocks and divs). Lowering resolves lengths to points; the layout
// stage turns the shapes into free horizontal intervals per line.

import RTSyntax

/// A shape in points. For `@exclude` the origin is the page's content box top-left; for a shaped div the
/// coordinates are fractions (0...1) of the div's box, scaled by the layout once the box is known.
public enum FlowShape: Hashable, Sendable {
    case rect(x: Double, y: Double, width: Double, height: Double)
    case circle(cx: Double, cy: Double, r: Double)
    case ellipse(cx: Double, cy: Double, rx: Double, ry: Double)
    /// Vertices as (x, y) pairs.
    case polygon([Double])
}

/// Which pages an exclusion applies to, relative to where it is met.
public enum PageSpan: Hashable, Sendable {
    case this
    case all
    case range(Int, Int)
}

public struct Exclusion: Hashable, Sendable {
    public var shape: FlowShape
    public var pages: PageSpan
    /// Grows the shape on every side.
    public var margin: Double
    /// Where the `@exclude` was written, for layout's diagnostics (not part of equality).
    public var location: SourceLocation?
    public init(shape: FlowShape, pages: PageSpan = .this, margin: Double = 0, location: SourceLocation? = nil) {
        self.shape = shape
        self.pages = pages
        self.margin = margin
        self.location = location
    }

    public static func == (a: Exclusion, b: Exclusion) -> Bool {
        a.shape == b.shape && a.pages == b.pages && a.margin == b.margin
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(shape)
        hasher.combine(pages)
        hasher.combine(margin)
    }
}

/// A `shape=` div: its content flows inside `shape` (fractions of a box `width` x `height` points).
public struct ShapedContainer: Hashable, Sendable {
    public var shape: FlowShape
    /// nil: the column width.
    public var width: Double?
    /// nil: the width.
    public var height: Double?
    /// Set (`x=`, `y=`, from the content box's top-left): the shape sits there, out of the flow, and ignores
    /// the page's exclusions (it is usually what an `@exclude` of the same shape makes room for).
    public var position: (x: Double, y: Double)? {
        get { x.flatMap { x in y.map { (x, $0) } } }
        set { x = newValue?.x; y = newValue?.y }
    }
    public var x: Double?
    public var y: Double?
    /// A positioned shape: the page's text flows around it, its shape grown by this (`margin`, 6pt by
    /// default); nil: `wrap=none`, the text runs under it.
    public var wrapMargin: Double? = 6
    /// A positioned `box=true` div without `height`: the box is as tall as its content, and the page's
    /// text goes around it once that is known.
    public var fitsContent = false
    public init(shape: FlowShape, width: Double?, height: Double?) {
        self.shape = shape
        self.width = width
        self.height = height
    }
}

public enum FloatSide: String, Hashable, Sendable { case left, right }

/// A float: an image, or paragraphs set at `width`, placed at the side of the column; text wraps around it.
public struct FloatBox: Hashable, Sendable {
    public var side: FloatSide
    /// nil: the image's width, or a third of the column for text.
    public var width: Double?
    public var margin: Double
    public var image: ImageAttachment?
    public var paragraphs: [AttributedParagraph]
    /// `box=true` on a float div: border, background and padding drawn around its text, within `width`.
    public var box: BoxStyle? = nil
    public init(side: FloatSide, width: Double?, margin: Double, image: ImageAttachment?, paragraphs: [AttributedParagraph]) {
        self.side = side
        self.width = width
        self.margin = margin
        self.image = image
        self.paragraphs = paragraphs
    }
}

extension FlowShape {
    /// Parses `rect(x, y, w, h)`, `circle(cx, cy, r)`, `ellipse(cx, cy, rx, ry)`, `polygon(x1 y1, x2 y2, ...)`.
    /// `%` is of `width` for x values and radii, of `height` for y values. nil and a reason when malformed.
    static func parse(_ text: String, width: Double, height: Double, fontSize: Double) -> (FlowShape?, String?) {
        let s = text.trimmingASCIIWhitespace()
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else {
            return (nil, "expected rect(...), circle(...), ellipse(...) or polygon(...)")
        }
        let name = String(s[..<open]).trimmingASCIIWhitespace().lowercased()
        let inner = String(s[s.index(after: open)..<s.index(before: s.endIndex)])
        let xContext = LengthContext(fontSize: fontSize, percentBase: width)
        let yContext = LengthContext(fontSize: fontSize, percentBase: height)
        func lengths(_ parts: [String], _ contexts: [LengthContext]) -> [Double]? {
            guard parts.count == contexts.count else { return nil }
            var out: [Double] = []
            for (part, context) in zip(parts, contexts) {
                guard let v = Length.points(part, in: context) else { return nil }
                out.append(v)
            }
            return out
        }
        let commaParts = inner.split(separator: ",").map { String($0).trimmingASCIIWhitespace() }
        switch name {
        case "rect":
            guard let v = lengths(commaParts, [xContext, yContext, xContext, yContext]), v[2] > 0, v[3] > 0 else {
                return (nil, "rect needs x, y, width, height (positive size)")
            }
            return (.rect(x: v[0], y: v[1], width: v[2], height: v[3]), nil)
        case "circle":
            guard let v = lengths(commaParts, [xContext, yContext, xContext]), v[2] > 0 else {
                return (nil, "circle needs cx, cy, r (positive radius)")
            }
            return (.circle(cx: v[0], cy: v[1], r: v[2]), nil)
        case "ellipse":
            guard let v = lengths(commaParts, [xContext, yContext, xContext, yContext]), v[2] > 0, v[3] > 0 else {
                return (nil, "ellipse needs cx, cy, rx, ry (positive radii)")
            }
            return (.ellipse(cx: v[0], cy: v[1], rx: v[2], ry: v[3]), nil)
        case "polygon":
            var points: [Double] = []
            for part in commaParts {
                guard let v = lengths(part.whitespaceSeparated(), [xContext, yContext]) else {
                    return (nil, "polygon needs points 'x y' separated by commas")
                }
                points += v
            }
            guard points.count >= 6 else { return (nil, "a polygon needs at least three points") }
            return (.polygon(points), nil)
        default:
            return (nil, "unknown shape '\(name)': expected rect, circle, ellipse or polygon")
        }
    }
}

extension DocumentLowerer {
    mutating func lowerExclusion(shape: String, options: [AttributePair], at location: SourceLocation,
                                 context: StyleState) {
        let fontSize = context.character.fontSize
        let (parsed, problem) = FlowShape.parse(shape, width: contentWidth, height: contentHeight, fontSize: fontSize)
        guard let parsed else {
            // An unknown shape name was reported by the parser, at the name.
            let name = shape.prefix { $0.isLetter }.lowercased()
            guard ["rect", "circle", "ellipse", "polygon"].contains(name) else { return }
            diagnostics.append(.warning("bad @exclude shape '\(shape)': \(problem ?? "malformed"); ignored", at: location))
            return
        }
        var exclusion = Exclusion(shape: parsed, location: location)
        for pair in options {
            let value = pair.value.trimmingASCIIWhitespace().lowercased()
            switch pair.key {
            case "pages":
                if value == "this" { exclusion.pages = .this }
                else if value == "all" { exclusion.pages = .all }
                else if let span = Self.pageRange(value) { exclusion.pages = span }
                else { diagnostics.append(.warning("bad value '\(pair.value)' for 'pages': expected all, this, N or N-M; ignored", at: pair.keyRange.start)) }
            case "margin":
                if let m = Length.points(value, in: LengthContext(fontSize: fontSize, percentBase: contentWidth)), m >= 0 {
                    exclusion.margin = m
                } else {
                    diagnostics.append(.warning("bad value '\(pair.value)' for 'margin': expected a length; ignored", at: pair.keyRange.start))
                }
            default:
                diagnostics.append(.warning("unknown @exclude option '\(pair.key)', ignored", at: pair.keyRange.start))
            }
        }
        output.append(.exclusion(exclusion))
    }

    static func pageRange(_ value: String) -> PageSpan? {
        let parts = value.split(separator: "-", omittingEmptySubsequences: false).map { Int(String($0).trimmingASCIIWhitespace()) }
        if parts.count == 1, let n = parts[0], n >= 1 { return .range(n, n) }
        if parts.count == 2, let a = parts[0], let b = parts[1], a >= 1, b >= a { return .range(a, b) }
        return nil
    }

    /// A `shape=` div: the shape in fractions of its box. `circle` and `ellipse` fill the box.
    mutating func divShape(_ attributes: Attributes, state: StyleState) -> ShapedContainer? {
        guard let pair = attributes["shape"] else { return nil }
        let value = pair.value.trimmingASCIIWhitespace()
        let shape: FlowShape
        switch value.lowercased() {
        case "circle": shape = .circle(cx: 0.5, cy: 0.5, r: 0.5)
        case "ellipse": shape = .ellipse(cx: 0.5, cy: 0.5, rx: 0.5, ry: 0.5)
        default:
            let (parsed, problem) = FlowShape.parse(value, width: 1, height: 1, fontSize: 1)
            guard case .polygon? = parsed, let parsed else {
                diagnostics.append(.warning("bad value '\(value)' for 'shape': \(problem ?? "expected circle, ellipse or polygon(...)"); ignored",
                                            at: pair.keyRange.start))
                return nil
            }
            shape = parsed
        }
        return placedContainer(shape, attributes, state: state)
    }

    /// A `box=true` div with `x=` and `y=`: a rectangle taken out of the flow like a positioned shape (nil:
    /// not positioned, the box stays in the flow).
    mutating func positionedBox(_ attributes: Attributes, state: StyleState) -> ShapedContainer? {
        guard attributes["x"] != nil, attributes["y"] != nil,
              var container = placedContainer(.rect(x: 0, y: 0, width: 1, height: 1), attributes, state: state),
              container.position != nil else { return nil }
        container.fitsContent = container.height == nil
        return container
    }

    /// A shape in fractions of its box, with the box's size and, when `x=` and `y=` are given, its place.
    private mutating func placedContainer(_ shape: FlowShape, _ attributes: Attributes,
                                          state: StyleState) -> ShapedContainer? {
        // A positioned shape's `%` sizes are of the content box, like its x and y; in the flow, of the column.
        let positioned = attributes["x"] != nil && attributes["y"] != nil
        func length(_ key: String) -> Double? {
            guard let p = attributes[key] else { return nil }
            let base = positioned ? (key == "width" ? contentWidth : contentHeight) : state.columnWidth
            let context = LengthContext(fontSize: state.character.fontSize, percentBase: base)
            if let v = Length.points(p.value, in: context), v > 0 { return v }
            diagnostics.append(.warning("bad value '\(p.value)' for '\(key)': expected a positive length; ignored", at: p.keyRange.start))
            return nil
        }
        var container = ShapedContainer(shape: shape, width: length("width"), height: length("height"))
        let fontSize = state.character.fontSize
        if let x = attributes["x"], let y = attributes["y"] {
            if let px = Length.points(x.value, in: LengthContext(fontSize: fontSize, percentBase: contentWidth)),
               let py = Length.points(y.value, in: LengthContext(fontSize: fontSize, percentBase: contentHeight)) {
                container.position = (px, py)
                container.wrapMargin = positionedWrap(attributes, fontSize: fontSize)
            } else {
                diagnostics.append(.warning("bad value for 'x' or 'y': expected lengths; the shape stays in the flow", at: x.keyRange.start))
            }
        }
        return container
    }

    /// How the page's text goes around a positioned shape: `margin=LEN` (default 6pt), nil for `wrap=none`.
    mutating func positionedWrap(_ attributes: Attributes, fontSize: Double) -> Double? {
        if let wrap = attributes["wrap"] {
            switch wrap.value.trimmingASCIIWhitespace().lowercased() {
            case "none": return nil
            case "around", "auto": break
            default:
                diagnostics.append(.warning("bad value '\(wrap.value)' for 'wrap' on a positioned shape: expected none or around; ignored",
                                            at: wrap.keyRange.start))
            }
        }
        guard let pair = attributes["margin"] else { return 6 }
        if let m = Length.points(pair.value, in: LengthContext(fontSize: fontSize, percentBase: contentWidth)), m >= 0 { return m }
        diagnostics.append(.warning("bad value '\(pair.value)' for 'margin': expected a length; 6pt is used", at: pair.keyRange.start))
        return 6
    }

    /// `float=left|right [width=LEN] [margin=LEN]`; nil when absent or malformed (reported).
    mutating func floatSide(_ attributes: Attributes) -> FloatSide? {
        guard let pair = attributes["float"] else { return nil }
        guard let side = FloatSide(rawValue: pair.value.trimmingASCIIWhitespace().lowercased()) else {
            diagnostics.append(.warning("bad value '\(pair.value)' for 'float': expected left or right; ignored", at: pair.keyRange.start))
            return nil
        }
        return side
    }

    func floatLength(_ attributes: Attributes, _ key: String, state: StyleState) -> Double? {
        attributes[key].flatMap { Length.points($0.value, in: state.paragraphLengthContext) }.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// An image block with `float=`: the image becomes a float box (nil: not a float).
    mutating func lowerFloatImage(_ image: ImageReference, state: StyleState) -> Bool {
        guard let side = floatSide(image.attributes) else { return false }
        var builder = ParagraphBuilder()
        appendImage(image, state.character, state: state, into: &builder)
        guard let attachment = builder.attachments.first else { return true }
        builder.anchors.forEach { queueAnchor($0) }
        let margin = floatLength(image.attributes, "margin", state: state) ?? 6
        output.append(.float(FloatBox(side: side, width: attachment.image.width, margin: margin,
                                      image: attachment.image, paragraphs: [])))
        return true
    }

    /// A div with `float=`: its content is lowered into a float box at `width` (default a third of the column).
    mutating func lowerFloatDiv(_ children: [Block], side: FloatSide, attributes: Attributes, state: StyleState,
                                context: StyleState, box: BoxStyle? = nil) {
        let width = floatLength(attributes, "width", state: state) ?? state.columnWidth / 3
        let margin = floatLength(attributes, "margin", state: state) ?? 6
        var inner = state.enteringContainer()
        // A boxed float's text is set inside its padding.
        inner.columnWidth = max(width - (box.map { $0.padding.left + $0.padding.right } ?? 0), 1)
        let saved = output
        output = []
        lowerBlocks(children, in: inner)
        let paragraphs = output.compactMap { block -> AttributedParagraph? in
            if case .paragraph(let p) = block { return p } else { return nil }
        }
        output = saved
        var float = FloatBox(side: side, width: width, margin: margin, image: nil, paragraphs: paragraphs)
        float.box = box
        output.append(.float(float))
    }
}
