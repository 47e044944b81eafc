// RT attributes (section 6) -> IR fields. One table: adding an attribute is one entry.

import RTSyntax

enum AttributeScope: Sendable { case character, paragraph }

struct AttributeHandler: Sendable {
    let scope: AttributeScope
    /// Applies a value. Returns what was expected when the value is bad (the state is then left unchanged).
    let apply: @Sendable (inout StyleState, String) -> String?
}

enum AttributeTable {
    static let handlers: [String: AttributeHandler] = [
        // Character attributes.
        "font": char("a font family name") { v, _ in v.isEmpty ? nil : v } set: { $0.character.fontFamily = $1 },
        "size": char("a positive length up to \(Int(Length.maxFontSize))pt") { v, s in fontSize(Length.points(v, in: s.fontLengthContext)) } set: { $0.character.fontSize = $1 },
        "weight": char("100-900, bold or normal", parseWeight) { $0.character.weight = $1 },
        "style": char("italic, oblique or normal", enumValue(FontStyle.self)) { $0.character.style = $1 },
        "color": char("a color", colorValue) { $0.character.color = $1 },
        "background": char("a color or none", optionalColorValue) { $0.character.background = $1 },
        "underline": char("single, double, thick, wavy or none", enumValue(UnderlineStyle.self)) { $0.character.underline = $1 },
        "underline-color": char("a color or none", optionalColorValue) { $0.character.underlineColor = $1 },
        "strike": char("single, double or none", enumValue(StrikeStyle.self)) { $0.character.strike = $1 },
        "strike-color": char("a color or none", optionalColorValue) { $0.character.strikeColor = $1 },
        "stroke": char("a length", fontLength) { $0.character.strokeWidth = $1 },
        "stroke-color": char("a color or none", optionalColorValue) { $0.character.strokeColor = $1 },
        "shadow": char("\"DX DY BLUR COLOR\" or none", parseShadow) { $0.character.shadow = $1 },
        "kern": char("a length", fontLength) { $0.character.letterSpacing = $1 },
        "letter-spacing": char("a length", fontLength) { $0.character.letterSpacing = $1 },
        "baseline": char("a length", fontLength) { $0.character.baselineShift = $1 },
        "features": char("OpenType features such as \"smcp, onum\"", parseFeatures) { $0.character.fontFeatures = $1 },
        "smallcaps": char("true or false", boolValue) { $0.character.smallCaps = $1 },
        "ligatures": char("true or false", boolValue) { $0.character.ligatures = $1 },
        "oblique": char("an angle in degrees", numberValue) { $0.character.obliqueAngle = $1 },
        "expansion": char("a number such as 0.3 or 30%", parseExpansion) { $0.character.expansion = $1 },
        "link": char(LinkPolicy.expected, parseLink) { $0.character.link = $1 },
        // `lang` is a character attribute, but on a block it also sets hyphenation language and decimal point.
        "lang": char("a language tag such as en or de-CH", parseLanguage) {
            $0.character.language = $1
            $0.paragraph.language = $1
            $0.paragraph.decimalSeparator = decimalSeparator(forLanguage: $1)
        },

        // Paragraph attributes.
        "align": para("left, right, center, justify or start", parseAlignment) { $0.paragraph.alignment = $1 },
        "indent": para("a length", paragraphLength) { $0.indent = $1 },
        "margin-left": para("a length", paragraphLength) { $0.marginLeft = $1 },
        "margin-right": para("a length", paragraphLength) { $0.marginRight = $1 },
        "line-height": para("a multiple (1.2) or a length (14pt)", parseLineHeight) { $0.paragraph.lineHeight = $1 },
        "line-spacing": para("a length", paragraphLength) { $0.paragraph.lineSpacing = $1 },
        "min-line-height": para("a length or none", optionalLength) { $0.paragraph.minLineHeight = $1 },
        "max-line-height": para("a length or none", optionalLength) { $0.paragraph.maxLineHeight = $1 },
        "space-before": para("a length", paragraphLength) { $0.paragraph.spaceBefore = $1 },
        "space-after": para("a length", paragraphLength) { $0.paragraph.spaceAfter = $1 },
        "tabs": para("\"POSITION [left|right|center|decimal], ...\"", parseTabs) { $0.paragraph.tabStops = $1 },
        "tab-interval": para("a positive length", { v, s in positive(paragraphLength(v, s)) }) { $0.paragraph.tabInterval = $1 },
        "hyphenate": para("true or false", boolValue) { $0.paragraph.hyphenate = $1 },
        "expansion-limit": para("a number from 0 to 0.05 or a percentage up to 5%", parseExpansionLimit) { $0.paragraph.expansionLimit = $1 },
        // Extensions (issue 13): optical margins on or off, and greedy breaking of one paragraph (for comparisons).
        "protrusion": para("true or false", boolValue) { $0.paragraph.protrusion = $1 },
        "line-breaking": para("total-fit or greedy", parseLineBreaking) { $0.paragraph.greedyBreaking = $1 },
        "wrap": para("word, char or none", enumValue(WrapMode.self)) { $0.paragraph.wrap = $1 },
        "max-lines": para("a positive whole number or none", parseMaxLines) { $0.paragraph.maxLines = $1 },
        "truncate": para("head, middle or tail", enumValue(Truncation.self)) { $0.paragraph.truncation = $1 },
        "keep-with-next": para("true or false", boolValue) { $0.paragraph.keepWithNext = $1 },
        "keep-together": para("true or false", boolValue) { $0.paragraph.keepTogether = $1 },
        "widows": para("a positive whole number", positiveInt) { $0.paragraph.widows = $1 },
        "orphans": para("a positive whole number", positiveInt) { $0.paragraph.orphans = $1 },
        "break-before": para("page, column or none", enumValue(BreakBefore.self)) { $0.paragraph.breakBefore = $1 },
        // Extension: list bullets per nesting level, e.g. `bullet="–"` or `bullet="square, dash"` (see ListLowering).
        "bullet": para("bullet glyphs per level: single characters or disc, circle, square, dash, none", parseBullets) { $0.bullets = $1 },
        // Extension (not in the contract's list): the bar the built-in `quote` style draws, `WIDTH COLOR` or none.
        "border-left": para("\"WIDTH COLOR\" or none", parseBorder) { $0.paragraph.leftBorder = $1 },
    ]

    /// Applies `pairs` in order, except that `size` goes first so other `em` lengths use the new size (as CSS).
    /// In `.character` scope (spans) paragraph attributes are reported and ignored.
    static func apply(_ pairs: [AttributePair], to state: inout StyleState, scope: AttributeScope,
                      diagnostics: inout AttributeDiagnostics) {
        for pair in pairs where pair.key == "size" {
            apply(pair, to: &state, scope: scope, diagnostics: &diagnostics)
        }
        for pair in pairs where pair.key != "size" {
            apply(pair, to: &state, scope: scope, diagnostics: &diagnostics)
        }
    }

    static func apply(_ pair: AttributePair, to state: inout StyleState, scope: AttributeScope,
                      diagnostics: inout AttributeDiagnostics) {
        guard let handler = handlers[pair.key] else {
            diagnostics.warning("unknown attribute '\(pair.key)', ignored", at: pair.keyRange.start)
            return
        }
        if scope == .character && handler.scope == .paragraph {
            diagnostics.warning("'\(pair.key)' is a paragraph attribute and has no effect on a span", at: pair.keyRange.start)
            return
        }
        if let expected = handler.apply(&state, pair.value.trimmingASCIIWhitespace()) {
            diagnostics.warning("bad value '\(pair.value)' for '\(pair.key)': expected \(expected)\(Length.rangeNote(pair.value)); ignored",
                                at: pair.keyRange.start)
        }
    }

    static func isKnown(_ key: String) -> Bool { handlers[key] != nil }

    // MARK: Handler builders

    private static func char<T>(_ expected: String, _ parse: @escaping @Sendable (String, StyleState) -> T?,
                                set: @escaping @Sendable (inout StyleState, T) -> Void) -> AttributeHandler {
        handler(.character, expected, parse, set)
    }

    private static func para<T>(_ expected: String, _ parse: @escaping @Sendable (String, StyleState) -> T?,
                                set: @escaping @Sendable (inout StyleState, T) -> Void) -> AttributeHandler {
        handler(.paragraph, expected, parse, set)
    }

    private static func handler<T>(_ scope: AttributeScope, _ expected: String,
                                   _ parse: @escaping @Sendable (String, StyleState) -> T?,
                                   _ set: @escaping @Sendable (inout StyleState, T) -> Void) -> AttributeHandler {
        AttributeHandler(scope: scope) { state, value in
            guard let parsed = parse(value, state) else { return expected }
            set(&state, parsed)
            return nil
        }
    }
}

// MARK: - Value parsers (shared with front matter and images)

func positive(_ v: Double?) -> Double? { v.flatMap { $0 > 0 ? $0 : nil } }

/// A font size: positive and at most `Length.maxFontSize`.
func fontSize(_ v: Double?) -> Double? { positive(v).flatMap { $0 <= Length.maxFontSize ? $0 : nil } }

func fontLength(_ v: String, _ s: StyleState) -> Double? { Length.points(v, in: s.fontLengthContext) }
func paragraphLength(_ v: String, _ s: StyleState) -> Double? { Length.points(v, in: s.paragraphLengthContext) }

func optionalLength(_ v: String, _ s: StyleState) -> Double?? {
    if v.lowercased() == "none" { return .some(nil) }
    return paragraphLength(v, s).map { .some($0) }
}

func boolValue(_ v: String, _ s: StyleState) -> Bool? { parseBool(v) }

func parseBool(_ v: String) -> Bool? {
    switch v.lowercased() {
    case "true", "yes", "on": return true
    case "false", "no", "off": return false
    default: return nil
    }
}

/// An oblique angle: beyond ±80 degrees the glyphs' shear runs off to infinity.
func numberValue(_ v: String, _ s: StyleState) -> Double? { Double(v).flatMap { $0.isFinite && abs($0) <= 80 ? $0 : nil } }

/// Counts (widows, orphans, max-lines) are bounded so they always fit the C ints layout passes them as.
func positiveInt(_ v: String, _ s: StyleState) -> Int? { Int(v).flatMap { $0 >= 1 && $0 <= 1_000_000 ? $0 : nil } }

func enumValue<E: RawRepresentable & SendableMetatype>(_ type: E.Type) -> @Sendable (String, StyleState) -> E? where E.RawValue == String {
    { v, _ in E(rawValue: v.lowercased()) }
}

func colorValue(_ v: String, _ s: StyleState) -> Color? { Color.parse(v) }

func optionalColorValue(_ v: String, _ s: StyleState) -> Color?? {
    if v.lowercased() == "none" { return .some(nil) }
    return Color.parse(v).map { .some($0) }
}

func parseWeight(_ v: String, _ s: StyleState) -> Int? {
    switch v.lowercased() {
    case "bold": return 700
    case "normal": return 400
    default: return Int(v).flatMap { (100...900).contains($0) ? $0 : nil }
    }
}

func parseAlignment(_ v: String, _ s: StyleState) -> TextAlignment? {
    let lower = v.lowercased()
    return lower == "centre" ? .center : TextAlignment(rawValue: lower)
}

/// `DX DY BLUR COLOR` (the color may contain spaces: `rgb(0, 0, 0)`); a missing color is translucent black.
func parseShadow(_ v: String, _ s: StyleState) -> Shadow?? {
    if v.lowercased() == "none" { return .some(nil) }
    let parts = v.whitespaceSeparated()
    guard parts.count >= 3,
          let dx = fontLength(parts[0], s), let dy = fontLength(parts[1], s), let blur = fontLength(parts[2], s),
          blur >= 0 else { return nil }
    var color = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
    if parts.count > 3 {
        guard let c = Color.parse(parts[3...].joined(separator: " ")) else { return nil }
        color = c
    }
    return .some(Shadow(dx: dx, dy: dy, blur: blur, color: color))
}

/// `smcp, onum` -> `smcp=1, onum=1` (HarfBuzz feature syntax, which Pango takes); `-liga`, `ss01=0` pass through.
func parseFeatures(_ v: String, _ s: StyleState) -> String?? {
    if v.lowercased() == "none" || v.isEmpty { return .some(nil) }
    var out: [String] = []
    for raw in v.split(separator: ",") {
        let feature = String(raw).trimmingASCIIWhitespace()
        var tag = Substring(feature)
        if tag.hasPrefix("-") || tag.hasPrefix("+") { tag = tag.dropFirst() }
        if let eq = tag.firstIndex(of: "=") {
            guard Int(tag[tag.index(after: eq)...].trimmingCharacters()) != nil else { return nil }
            tag = tag[..<eq]
        }
        let tagText = String(tag).trimmingASCIIWhitespace()
        guard (1...4).contains(tagText.utf8.count),
              tagText.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) })
        else { return nil }
        let isBare = !feature.contains("=") && !feature.hasPrefix("-") && !feature.hasPrefix("+")
        out.append(isBare ? feature + "=1" : feature)
    }
    return .some(out.joined(separator: ", "))
}

/// `0.3` or `30%` wider; `-0.2` narrower. Scale must stay positive.
func parseExpansion(_ v: String, _ s: StyleState) -> Double? {
    let value: Double?
    if v.hasSuffix("%") { value = Double(v.dropLast()).map { $0 / 100 } } else { value = Double(v) }
    return value.flatMap { $0 > -1 && $0 <= 10 ? $0 : nil }
}

/// `2%` or `0.02`: at most 5% (more visibly distorts the glyphs).
func parseExpansionLimit(_ v: String, _ s: StyleState) -> Double? {
    let value: Double?
    if v.hasSuffix("%") { value = Double(v.dropLast()).map { $0 / 100 } } else { value = Double(v) }
    return value.flatMap { $0 >= 0 && $0 <= 0.05 ? $0 : nil }
}

func parseLineBreaking(_ v: String, _ s: StyleState) -> Bool? {
    switch v.lowercased() {
    case "greedy": return true
    case "total-fit": return false
    default: return nil
    }
}

/// A target whose scheme section 11 drops is a bad value: the warning names what is allowed.
func parseLink(_ v: String, _ s: StyleState) -> LinkTarget?? {
    if v.lowercased() == "none" { return .some(nil) }
    guard let target = linkTarget(v) else { return nil }
    if case .drop = LinkPolicy.check(target) { return nil }
    return .some(target)
}

/// `#id` is a named destination; anything else non-empty is a URL. A percent-encoded id is decoded, as a browser
/// does: a README's table of contents links `#%D8%B1%D8%A7...` to the heading whose id is `را...`.
func linkTarget(_ destination: String) -> LinkTarget? {
    if destination.hasPrefix("#") {
        var id = String(destination.dropFirst())
        if id.contains("%"), let decoded = percentDecoded(id), !decoded.isEmpty { id = decoded }
        return id.isEmpty ? nil : .destination(id)
    }
    return destination.isEmpty ? nil : .url(destination)
}

/// `%XX` escapes decoded as UTF-8 bytes; nil when an escape is malformed or the bytes are not UTF-8.
func percentDecoded(_ s: String) -> String? {
    var bytes: [UInt8] = []
    var utf8 = Array(s.utf8)[...]
    func hex(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x37
        case 0x61...0x66: return b - 0x57
        default: return nil
        }
    }
    while let b = utf8.popFirst() {
        guard b == 0x25 else { bytes.append(b); continue }
        guard utf8.count >= 2, let hi = hex(utf8[utf8.startIndex]), let lo = hex(utf8[utf8.startIndex + 1]) else { return nil }
        bytes.append(hi << 4 | lo)
        utf8 = utf8.dropFirst(2)
    }
    return String(validating: bytes, as: UTF8.self)
}

func parseLanguage(_ v: String, _ s: StyleState) -> String? { isLanguageTag(v) ? v : nil }

/// Loose BCP 47 shape check: `en`, `de-CH`, `zh-Hant-TW`, `sr-Latn`.
func isLanguageTag(_ v: String) -> Bool {
    let parts = v.split(separator: "-", omittingEmptySubsequences: false)
    guard let first = parts.first, (2...3).contains(first.utf8.count),
          first.utf8.allSatisfy({ $0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A }) else { return false }
    return parts.dropFirst().allSatisfy { part in
        (1...8).contains(part.utf8.count)
            && part.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) }
    }
}

/// Languages that write decimal numbers with a comma (`3,14`); all others use `.`.
private let commaDecimalLanguages: Set<String> = [
    "de", "fr", "es", "it", "nl", "pt", "ru", "pl", "cs", "sk", "sv", "da", "nb", "nn", "no", "fi", "is",
    "tr", "el", "uk", "be", "bg", "sr", "hr", "bs", "sl", "ro", "hu", "et", "lv", "lt", "ca", "gl", "eu",
    "id", "vi", "az", "kk", "ka", "hy", "mk", "sq", "af",
]

func decimalSeparator(forLanguage tag: String) -> String {
    let primary = tag.split(separator: "-").first.map { $0.lowercased() } ?? ""
    return commaDecimalLanguages.contains(primary) ? "," : "."
}

/// A bare number is a multiple (`1.2`), as in CSS; `%` is a multiple too; any other length is exact.
func parseLineHeight(_ v: String, _ s: StyleState) -> LineHeight? {
    // At most 20 times the font size, so a line's height stays a length layout can hold.
    if let multiple = Double(v) { return multiple > 0 && multiple <= 20 ? .multiple(multiple) : nil }
    if v.hasSuffix("%"), let percent = Double(v.dropLast().trimmingCharacters()) {
        return percent > 0 && percent <= 2000 ? .multiple(percent / 100) : nil
    }
    guard let points = paragraphLength(v, s), points > 0 else { return nil }
    return .exactly(points)
}

/// `• ◦`, `square, dash`: one entry per nesting level, comma- or space-separated; each a name or one character.
func parseBullets(_ v: String, _ s: StyleState) -> [String]? {
    let names = ["disc": "\u{2022}", "circle": "\u{25E6}", "square": "\u{25AA}", "dash": "\u{2013}", "none": ""]
    let parts = v.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    var glyphs: [String] = []
    for part in parts {
        if let named = names[part.lowercased()] { glyphs.append(named) }
        else if part.count == 1 { glyphs.append(part) }
        else { return nil }
    }
    return glyphs.isEmpty ? nil : glyphs
}

/// `4cm, 9cm decimal, 16cm right`, positions from the column's left edge; `none` clears them.
func parseTabs(_ v: String, _ s: StyleState) -> [TabStop]? {
    if v.lowercased() == "none" { return [] }
    var stops: [TabStop] = []
    for item in v.split(separator: ",") {
        let parts = String(item).whitespaceSeparated()
        guard (1...2).contains(parts.count), let position = paragraphLength(parts[0], s), position >= 0 else { return nil }
        var alignment = TabAlignment.left
        if parts.count == 2 {
            let word = parts[1].lowercased()
            guard let a = TabAlignment(rawValue: word == "centre" ? "center" : word) else { return nil }
            alignment = a
        }
        stops.append(TabStop(position: position, alignment: alignment))
    }
    return stops.sorted { $0.position < $1.position }
}

func parseMaxLines(_ v: String, _ s: StyleState) -> Int?? {
    if v.lowercased() == "none" || v == "0" { return .some(nil) }
    return positiveInt(v, s).map { .some($0) }
}

/// `WIDTH COLOR` (`0.5pt gray`, `1pt rgb(0, 0, 0)`) or `none`.
func parseBorder(_ v: String, _ s: StyleState) -> Border?? {
    if v.lowercased() == "none" { return .some(nil) }
    return parseBorderValue(v, context: s.paragraphLengthContext).map { .some($0) }
}

func parseBorderValue(_ v: String, context: LengthContext) -> Border? {
    let parts = v.whitespaceSeparated()
    guard parts.count >= 2, let width = Length.points(parts[0], in: context), width > 0,
          let color = Color.parse(parts[1...].joined(separator: " ")) else { return nil }
    return Border(width: width, color: color)
}

extension StringProtocol {
    func trimmingCharacters() -> String { String(self).trimmingASCIIWhitespace() }
}
