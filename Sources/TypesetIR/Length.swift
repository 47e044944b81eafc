// Lengths (RT section 3) and page sizes (section 2). Everything resolves to PostScript points.

/// A length as written: a number and its unit. Resolve it with `points(in:)` once the context is known.
public struct Length: Hashable, Sendable {
    public enum Unit: String, Hashable, Sendable, CaseIterable {
        case pt, mm, cm, inch = "in", px, em, percent = "%"
    }

    public var value: Double
    public var unit: Unit

    public init(_ value: Double, _ unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses `12pt`, `2.5 mm`, `-1em`, `50%`, `.5in`; a bare number is points. nil for anything else.
    public init?(parsing text: String) {
        let s = text.trimmingASCIIWhitespace()
        guard !s.isEmpty else { return nil }
        let bytes = Array(s.utf8)
        var end = 0
        // Sign, digits, one decimal point; the unit is whatever follows.
        if end < bytes.count, bytes[end] == UInt8(ascii: "-") || bytes[end] == UInt8(ascii: "+") { end += 1 }
        var digits = 0, dots = 0
        while end < bytes.count {
            let b = bytes[end]
            if b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") { digits += 1 } else if b == UInt8(ascii: ".") { dots += 1 } else { break }
            end += 1
        }
        guard digits > 0, dots <= 1, let number = Double(String(decoding: bytes[0..<end], as: UTF8.self)),
              number.isFinite else { return nil }
        let unitText = String(decoding: bytes[end...], as: UTF8.self).trimmingASCIIWhitespace().lowercased()
        if unitText.isEmpty {
            self.init(number, .pt)
        } else if let unit = Unit(rawValue: unitText) {
            self.init(number, unit)
        } else {
            return nil
        }
    }

    /// Points, given what `em` and `%` mean where this length is used.
    public func points(in context: LengthContext) -> Double {
        switch unit {
        case .pt: return value
        case .mm: return value * 72 / 25.4
        case .cm: return value * 72 / 2.54
        case .inch: return value * 72
        case .px: return value * 72 / 96
        case .em: return value * context.fontSize
        case .percent: return value / 100 * context.percentBase
        }
    }
}

/// What relative units refer to: `em` is the font size; `%` is the column width, the font size for font
/// quantities, or the page width for page margins.
public struct LengthContext: Hashable, Sendable {
    public var fontSize: Double
    public var percentBase: Double

    public init(fontSize: Double, percentBase: Double) {
        self.fontSize = fontSize
        self.percentBase = percentBase
    }
}

extension Length {
    /// No length in a document may be longer: 14400pt (200in) is the largest page side PDF allows, and
    /// it keeps every coordinate far inside Pango's 32-bit units (1/1024 pt).
    public static let maxPoints = 14_400.0
    /// The largest font size (Word's limit too): lines of it still fit many times on the largest page.
    public static let maxFontSize = 1_638.0

    /// Parses and resolves in one step; nil for text that is not a length or lies outside ±`maxPoints`.
    public static func points(_ text: String, in context: LengthContext) -> Double? {
        guard let p = Length(parsing: text)?.points(in: context) else { return nil }
        return inRange(p) ? p : nil
    }

    /// Finite and within ±`maxPoints`: every length from a document passes here before layout sees it.
    public static func inRange(_ points: Double) -> Bool { points.isFinite && abs(points) <= maxPoints }

    /// Appended to a "bad value" warning: says why a well-formed length was refused.
    public static func rangeNote(_ text: String) -> String {
        guard let length = Length(parsing: text) else {
            // `99999...9pt` with hundreds of digits parses as infinity, which `Length(parsing:)` refuses.
            let digits = text.utf8.prefix { ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2E || $0 == 0x2D || $0 == 0x2B }
            return digits.count > 15 ? " (lengths are limited to \(Int(maxPoints))pt)" : ""
        }
        let raw = abs(length.value)
        let big = length.unit == .em || length.unit == .percent ? raw > 1000 : Length(raw, length.unit).points(in: .init(fontSize: 0, percentBase: 0)) > maxPoints
        return big ? " (lengths are limited to \(Int(maxPoints))pt)" : ""
    }
}

/// Page sizes by name or `W x H`, in points, portrait.
public enum PageSize {
    public static let named: [String: (width: Double, height: Double)] = [
        "a3": (841.8898, 1190.5512),
        "a4": (595.2756, 841.8898),
        "a5": (419.5276, 595.2756),
        "b5": (498.8976, 708.6614),
        "letter": (612, 792),
        "legal": (612, 1008),
    ]

    /// `A4` (any case), or `210mm x 99mm` / `8.5in X 11in` / `100x50` (bare numbers are points).
    /// `em` and `%` make no sense for a page and are rejected.
    public static func parse(_ text: String) -> (width: Double, height: Double)? {
        let s = text.trimmingASCIIWhitespace()
        if let size = named[s.lowercased()] { return size }
        let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2,
              let w = Length(parsing: String(parts[0])), let h = Length(parsing: String(parts[1])),
              w.unit != .em, w.unit != .percent, h.unit != .em, h.unit != .percent else { return nil }
        let context = LengthContext(fontSize: 0, percentBase: 0)
        let width = w.points(in: context), height = h.points(in: context)
        func inRange(_ p: Double) -> Bool { Length.inRange(p) }
        guard width > 0, height > 0, inRange(width), inRange(height) else { return nil }
        return (width, height)
    }
}

extension String {
    /// Trims spaces, tabs, CR and LF without going through Foundation's CharacterSet.
    func trimmingASCIIWhitespace() -> String {
        let u = utf8
        guard let first = u.firstIndex(where: { !$0.isASCIIWhitespace }) else { return "" }
        let last = u.lastIndex(where: { !$0.isASCIIWhitespace })!
        return String(self[first...last])
    }

    /// Splits on runs of ASCII whitespace.
    func whitespaceSeparated() -> [String] {
        utf8.split(whereSeparator: { $0.isASCIIWhitespace }).map { String(Substring($0)) }
    }
}

extension UInt8 {
    var isASCIIWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
