// Heading numbers (front matter `numbering`) and the words before figure, table and section numbers.

import RTSyntax

/// A `numbering` pattern such as `1.1`, `1.1.1` or `I.A.1`: one counter style per numbered level.
public struct HeadingNumbering: Hashable, Sendable {
    public enum Style: Hashable, Sendable { case arabic, upperRoman, lowerRoman, upperAlpha, lowerAlpha }
    public var levels: [Style]

    /// nil for `none` or a pattern that is not made of `1`, `I`, `i`, `A`, `a` separated by dots.
    public init?(pattern: String) {
        let tokens = pattern.split(separator: ".", omittingEmptySubsequences: true)
        guard !tokens.isEmpty, tokens.count <= 6 else { return nil }
        var levels: [Style] = []
        for token in tokens {
            switch token {
            case "1": levels.append(.arabic)
            case "I": levels.append(.upperRoman)
            case "i": levels.append(.lowerRoman)
            case "A": levels.append(.upperAlpha)
            case "a": levels.append(.lowerAlpha)
            default: return nil
            }
        }
        self.levels = levels
    }

    static func format(_ n: Int, _ style: Style) -> String {
        switch style {
        case .arabic: return String(n)
        case .upperRoman: return romanNumeral(n, upper: true)
        case .lowerRoman: return romanNumeral(n, upper: false)
        case .upperAlpha: return alphaNumeral(n, upper: true)
        case .lowerAlpha: return alphaNumeral(n, upper: false)
        }
    }

    static func romanNumeral(_ n: Int, upper: Bool) -> String {
        guard n > 0, n < 4000 else { return String(n) }
        let table: [(Int, String)] = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                                      (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = n, out = ""
        for (value, symbol) in table { while rest >= value { out += symbol; rest -= value } }
        return upper ? out : out.lowercased()
    }

    /// a..z, then aa, ab, ... (as spreadsheets count columns).
    static func alphaNumeral(_ n: Int, upper: Bool) -> String {
        guard n > 0 else { return String(n) }
        var rest = n, out = ""
        while rest > 0 {
            rest -= 1
            out = String(UnicodeScalar(UInt8(97 + rest % 26))) + out
            rest /= 26
        }
        return upper ? out.uppercased() : out
    }
}

/// Counts headings in document order and gives each its number (`2`, `2.1`), or nil past the pattern's depth.
struct HeadingCounter {
    let numbering: HeadingNumbering?
    private var counts: [Int] = []

    init(_ numbering: HeadingNumbering?) { self.numbering = numbering }

    mutating func next(level: Int) -> String? {
        guard let numbering, level >= 1, level <= numbering.levels.count else { return nil }
        if counts.count < level { counts += Array(repeating: 0, count: level - counts.count) }
        counts[level - 1] += 1
        counts.removeLast(counts.count - level)   // a new section restarts the levels below it
        return (0..<level).map { HeadingNumbering.format(counts[$0], numbering.levels[$0]) }.joined(separator: ".")
    }
}

/// The words before numbers in captions and cross-references.
public struct ReferenceLabels: Hashable, Sendable {
    public var figure: String
    public var table: String
    public var section: String

    /// By the primary language subtag of `lang`; front matter `figure-label` / `table-label` override.
    public init(language: String, figure: String? = nil, table: String? = nil) {
        let primary = language.split(separator: "-").first.map { $0.lowercased() } ?? "en"
        let words: (String, String, String) = switch primary {
        case "de": ("Abbildung", "Tabelle", "Abschnitt")
        case "fr": ("Figure", "Tableau", "Section")
        case "es": ("Figura", "Tabla", "Sección")
        case "it": ("Figura", "Tabella", "Sezione")
        case "nl": ("Figuur", "Tabel", "Paragraaf")
        default: ("Figure", "Table", "Section")
        }
        self.figure = figure ?? words.0
        self.table = table ?? words.1
        self.section = words.2
    }
}
