// Named styles: the built-ins (LaTeX/Typst-like defaults) and the front matter's `styles:` on top.

import RTSyntax

struct StyleSheet: Sendable {
    /// Where built-in pairs "are"; they are valid by construction (a test checks), so this never reaches a user.
    static let builtInLocation = SourceLocation(file: "<built-in>", line: 0, column: 0)

    /// Built-in attribute maps, in application order.
    static let builtIns: [String: [(String, String)]] = [
        "body": [("font", "DejaVu Serif"), ("size", "10pt"), ("line-height", "1.2"), ("space-after", "6pt")],
        "h1": heading(size: "20pt", before: "18pt", after: "8pt"),
        "h2": heading(size: "16pt", before: "14pt", after: "6pt"),
        "h3": heading(size: "13pt", before: "12pt", after: "5pt"),
        "h4": heading(size: "11.5pt", before: "10pt", after: "4pt"),
        "h5": heading(size: "10.5pt", before: "8pt", after: "3pt"),
        "h6": heading(size: "10pt", before: "8pt", after: "3pt"),
        // Paragraph keys here only matter for code blocks; inline code takes the character ones.
        "code": [("font", "DejaVu Sans Mono"), ("size", "0.9em"), ("background", "#f2f2f2"), ("wrap", "char"),
                 ("align", "left"), ("indent", "0"), ("hyphenate", "false"), ("line-height", "1.15"),
                 ("tab-interval", "2.4em"), ("ligatures", "false"), ("expansion-limit", "0"), ("protrusion", "false"),
                 ("space-before", "4pt"), ("space-after", "10pt")],
        "quote": [("margin-left", "1.5em"), ("border-left", "2pt #c8c8c8"), ("color", "#333333")],
        "link": [("color", "#1a4fb0")],
        // `margin-left` here is the indent of a top-level list's markers; nested lists start at the parent's text.
        "list": [("margin-left", "0.5em")],
        "footnote": [("size", "0.8em"), ("indent", "0"), ("space-before", "0pt"), ("space-after", "3pt")],
        "caption": [("size", "0.9em"), ("style", "italic"), ("align", "center")],
        // Rows sit tight; the last row gets the paragraph spacing back (see TableLowering).
        "table": [("hyphenate", "false"), ("indent", "0"), ("align", "left")],
        "header": [("size", "8.5pt"), ("color", "#666666"), ("indent", "0")],
        "footer": [("size", "8.5pt"), ("color", "#666666"), ("indent", "0")],
    ].merging(alerts) { a, _ in a }

    /// GitHub's alerts (`> [!NOTE]`, section 9): the quote's bar and its title in the kind's colour (GitHub's).
    /// `alert-note` is applied after `quote`, `alert-note-title` to the title paragraph.
    private static let alerts: [String: [(String, String)]] = {
        let colors = ["note": "#0969da", "tip": "#1a7f37", "important": "#8250df", "warning": "#9a6700",
                      "caution": "#d1242f"]
        var styles: [String: [(String, String)]] = [:]
        for (kind, color) in colors {
            styles["alert-\(kind)"] = [("border-left", "3pt \(color)")]
            styles["alert-\(kind)-title"] = [("color", color), ("weight", "bold"), ("keep-with-next", "true"),
                                             ("space-after", "2pt"), ("indent", "0")]
        }
        return styles
    }()

    private static func heading(size: String, before: String, after: String) -> [(String, String)] {
        [("font", "DejaVu Sans"), ("weight", "bold"), ("size", size), ("line-height", "1.15"),
         ("space-before", before), ("space-after", after), ("keep-with-next", "true"), ("align", "left"),
         ("indent", "0"), ("hyphenate", "false"), ("expansion-limit", "0")]
    }

    private var styles: [String: [AttributePair]]

    init() {
        let range = SourceRange(at: Self.builtInLocation)
        styles = Self.builtIns.mapValues { pairs in
            pairs.map { AttributePair(key: $0.0, value: $0.1, keyRange: range, valueRange: range) }
        }
    }

    /// Appends `pairs` to a style (creating it): later pairs win, so front matter overrides extend built-ins.
    mutating func extend(_ name: String, with pairs: [AttributePair]) {
        styles[name, default: []].append(contentsOf: pairs)
    }

    func pairs(for name: String) -> [AttributePair]? { styles[name] }

    /// Applies a named style silently (its pairs were validated where they were defined).
    func apply(_ name: String, to state: inout StyleState, scope: AttributeScope = .paragraph) {
        guard let pairs = styles[name] else { return }
        var quiet = AttributeDiagnostics(report: false)
        AttributeTable.apply(pairs, to: &state, scope: scope, diagnostics: &quiet)
    }

    /// Applies an attribute block: `.styles` first (in order), then `key=value` pairs, reporting problems.
    /// The `#id` is the caller's business.
    func apply(_ attributes: Attributes, to state: inout StyleState, scope: AttributeScope,
               diagnostics: inout [Diagnostic]) {
        for style in attributes.styles {
            if styles[style.name] == nil {
                diagnostics.append(.warning("unknown style '\(style.name)', ignored", at: style.range.start))
            } else {
                apply(style.name, to: &state, scope: scope)
            }
        }
        guard !attributes.pairs.isEmpty else { return }
        var reporting = AttributeDiagnostics(report: true)
        AttributeTable.apply(attributes.pairs, to: &state, scope: scope, diagnostics: &reporting)
        diagnostics.append(contentsOf: reporting.messages)
    }
}
