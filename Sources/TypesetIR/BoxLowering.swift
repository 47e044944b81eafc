// `box=true` divs (RT section 4): a border, background and padding around the div's content. The content
// is indented by the border and padding here, so layout only draws the box around what it places.

import RTSyntax

extension DocumentLowerer {
    /// Keys that belong to the box: removed from the div's attributes when `box` is present, so that
    /// `background` paints the box instead of every character.
    static let boxKeys: Set<String> = ["box", "border", "padding", "background"]

    /// The div's box, or nil (no `box`, `box=false`, or a bad value: reported).
    mutating func divBox(_ attributes: Attributes, state: StyleState) -> BoxStyle? {
        guard let pair = attributes["box"] else { return nil }
        switch pair.value.trimmingASCIIWhitespace().lowercased() {
        case "true", "yes", "": break
        case "false", "no": return nil
        default:
            diagnostics.append(.warning("bad value '\(pair.value)' for 'box': expected true or false; ignored", at: pair.keyRange.start))
            return nil
        }
        var box = BoxStyle()
        let context = state.paragraphLengthContext
        if let border = attributes["border"] {
            let value = border.value.trimmingASCIIWhitespace()
            if value.lowercased() == "none" {
                box.border = nil
            } else if let b = parseBorderValue(value, context: context) {
                box.border = b
            } else if let w = Length.points(value, in: context), w >= 0 {
                box.border = w > 0 ? Border(width: w, color: box.border!.color) : nil  // a width alone keeps the gray
            } else {
                diagnostics.append(.warning("bad value '\(border.value)' for 'border': expected \"WIDTH COLOR\" or none; ignored",
                                            at: border.keyRange.start))
            }
        }
        if let background = attributes["background"] {
            let value = background.value.trimmingASCIIWhitespace()
            if value.lowercased() != "none" {
                if let c = Color.parse(value) { box.background = c } else {
                    diagnostics.append(.warning("bad value '\(background.value)' for 'background': expected a color; ignored",
                                                at: background.keyRange.start))
                }
            }
        }
        if let padding = attributes["padding"] {
            if let p = Self.padding(padding.value, context: context) { box.padding = p } else {
                diagnostics.append(.warning("bad value '\(padding.value)' for 'padding': expected 1 to 4 lengths; ignored",
                                            at: padding.keyRange.start))
            }
        }
        return box
    }

    /// CSS order: `all`, `vertical horizontal`, `top horizontal bottom`, `top right bottom left`.
    static func padding(_ value: String, context: LengthContext) -> EdgeInsets? {
        let parts = value.replacingCommas().whitespaceSeparated()
        var v: [Double] = []
        for part in parts {
            guard let x = Length.points(part, in: context), x >= 0 else { return nil }
            v.append(x)
        }
        switch v.count {
        case 1: return EdgeInsets(all: v[0])
        case 2: return EdgeInsets(top: v[0], right: v[1], bottom: v[0], left: v[1])
        case 3: return EdgeInsets(top: v[0], right: v[1], bottom: v[2], left: v[1])
        case 4: return EdgeInsets(top: v[0], right: v[1], bottom: v[2], left: v[3])
        default: return nil
        }
    }

    /// Lowers a box div's children inside `.boxStart`/`.boxEnd`. The div's space before and after go to
    /// the box; inside it the first and last paragraphs sit right against the padding.
    mutating func lowerBox(_ box: BoxStyle, children: [Block], state: StyleState, context: StyleState,
                           lowerChildren: (inout DocumentLowerer, StyleState) -> Void) {
        var box = box
        let outer = state.enteringContainer()
        box.headIndent = outer.containerLeft
        box.tailIndent = outer.containerRight
        box.spaceBefore = state.paragraph.spaceBefore
        box.spaceAfter = state.paragraph.spaceAfter
        var inner = state
        let border = box.border?.width ?? 0
        inner.marginLeft += border + box.padding.left
        inner.marginRight += border + box.padding.right
        output.append(.boxStart(box))
        let first = output.count
        lowerChildren(&self, inner)
        if let i = output[first...].firstIndex(where: \.isParagraph), case .paragraph(var p) = output[i] {
            p.style.spaceBefore = 0
            output[i] = .paragraph(p)
        }
        if let i = output[first...].lastIndex(where: \.isParagraph), case .paragraph(var p) = output[i] {
            p.style.spaceAfter = 0
            output[i] = .paragraph(p)
        }
        output.append(.boxEnd)
    }
}

private extension String {
    func replacingCommas() -> String { String(map { $0 == "," ? " " : $0 }) }
}
