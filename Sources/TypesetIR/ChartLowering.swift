// `@chart` (RT section 4): the parser checked the data; here the chart's options become a ChartSpec on an image
// attachment, so a chart is placed, captioned and numbered exactly like a picture. Layout draws it.

import RTSyntax

public enum ChartKind: String, Hashable, Sendable { case bar, hbar, line }

/// What to draw: the table, the kind, the look. Sizes are the attachment's.
public struct ChartSpec: Hashable, Sendable {
    public var kind: ChartKind
    public var table: ChartTable
    public var stacked: Bool
    public var title: String?
    /// One per series, cycling.
    public var colors: [Color]
    /// The document's body font: family, size and colour of the chart's text.
    public var font: CharacterAttributes

    public init(kind: ChartKind, table: ChartTable, stacked: Bool = false, title: String? = nil,
                colors: [Color] = ChartSpec.okabeIto, font: CharacterAttributes = CharacterAttributes()) {
        self.kind = kind
        self.table = table
        self.stacked = stacked
        self.title = title
        self.colors = colors
        self.font = font
    }

    /// Okabe & Ito's colour-blind-safe palette, black last (the axes are black).
    public static let okabeIto: [Color] = [
        rgb(0x0072B2), rgb(0xE69F00), rgb(0x009E73), rgb(0xD55E00), rgb(0x56B4E9), rgb(0xCC79A7), rgb(0xF0E442), rgb(0x000000),
    ]

    static func rgb(_ hex: Int) -> Color {
        let red = Double(hex >> 16) / 255, green = Double((hex >> 8) & 0xFF) / 255, blue = Double(hex & 0xFF) / 255
        return Color(red: red, green: green, blue: blue)
    }
}

extension DocumentLowerer {
    /// Appends the chart's attachment (column width x 40% unless `width`/`height` say otherwise).
    mutating func appendChart(_ image: ImageReference, _ source: ChartSource, _ attributes: CharacterAttributes,
                              state: StyleState, into builder: inout ParagraphBuilder) {
        guard let table = source.table, let kind = ChartKind(rawValue: source.type) else { return }
        var spec = ChartSpec(kind: kind, table: table)
        var font = CharacterAttributes()
        font.fontFamily = attributes.fontFamily
        font.fontSize = attributes.fontSize
        font.color = attributes.color
        font.language = attributes.language
        spec.font = font
        for pair in source.options {
            switch pair.key {
            case "title": spec.title = pair.value.isEmpty ? nil : pair.value
            case "stack":
                switch pair.value.lowercased() {
                case "true", "yes": spec.stacked = true
                case "false", "no": spec.stacked = false
                default: diagnostics.append(.warning("bad value '\(pair.value)' for 'stack': expected true or false; ignored", at: pair.valueRange.start))
                }
            case "colors":
                let parsed = Self.colorList(pair.value)
                if parsed.isEmpty || parsed.contains(where: { $0 == nil }) {
                    diagnostics.append(.warning("bad value '\(pair.value)' for 'colors': expected colours separated by commas, like \"#009E73, #D55E00\"; the default palette is used",
                                                at: pair.valueRange.start))
                } else {
                    spec.colors = parsed.compactMap { $0 }
                }
            default: continue
            }
        }
        if spec.stacked && kind == .line {
            diagnostics.append(.warning("stack=true has no effect on a line chart", at: image.range.start))
            spec.stacked = false
        }
        if spec.stacked, table.seriesValues.joined().contains(where: { $0 < 0 }) {
            diagnostics.append(.error("@chart stack=true needs values of 0 or more: '\(table.seriesNames.joined(separator: ","))' has a negative one",
                                      at: image.range.start))
            return
        }
        let indents = state.paragraphStyle()
        let column = max(state.columnWidth - indents.headIndent - indents.tailIndent, 1)
        var attachment = ImageAttachment(path: "@chart " + "\(image.range.start)", location: image.range.start)
        for pair in image.attributes.pairs where pair.key == "width" || pair.key == "height" {
            guard let points = positive(paragraphLength(pair.value.trimmingASCIIWhitespace(), state)) else {
                diagnostics.append(.warning("bad value '\(pair.value)' for '\(pair.key)': expected a positive length\(Length.rangeNote(pair.value)); ignored",
                                            at: pair.keyRange.start))
                continue
            }
            if pair.key == "width" { attachment.width = min(points, column) } else { attachment.height = points }
        }
        let width = attachment.width ?? column
        attachment.width = width
        attachment.height = attachment.height ?? (width * 0.4).rounded()
        attachment.fit = .fill
        attachment.chart = spec
        // Its Figure's /Alt lists the values (RT section 4); PDF/UA wants a caption or alt written for it.
        let alt = image.attributes["alt"]?.value
        if checksUA && (alt ?? "").isEmpty && (image.attributes["caption"]?.value ?? "").isEmpty {
            diagnostics.append(.error("a chart needs a caption or alt text for PDF/UA", at: image.range.start))
        }
        tagImage(&attachment, alt: alt.flatMap { $0.isEmpty ? nil : $0 } ?? table.description(title: spec.title),
                 decorative: false)
        if let id = image.attributes.id {
            definedAnchors.insert(id)
            builder.anchors.append(id)
        }
        builder.appendAttachment(attachment, attributes)
    }

    /// Colours separated by commas outside parentheses (`rgb(0, 0, 0)` is one).
    static func colorList(_ text: String) -> [Color?] {
        var parts: [String] = [], current = "", depth = 0
        for c in text {
            if c == "(" { depth += 1 } else if c == ")" { depth -= 1 }
            if c == "," && depth == 0 { parts.append(current); current = "" } else { current.append(c) }
        }
        parts.append(current)
        return parts.map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }.map { Color.parse($0) }
    }
}
