// Front matter (RT section 2) -> page geometry, metadata, document-level body attributes, styles, vars.
// Every key is checked here; a bad value is a warning at the value and the default stands.

import RTSyntax

struct FrontMatterSettings {
    var metadata = DocumentMetadata()
    var page = PageGeometry()
    var language = "en"
    /// `smart`: smart punctuation (RT section 5).
    var smart = true
    /// `font`, `font-size`, `line-height`, `justify`, `hyphenate`, `lang` as body attribute pairs.
    var bodyPairs: [AttributePair] = []
    /// `styles:` entries, validated.
    var styles: [(name: String, pairs: [AttributePair])] = []
    var variables: [String: String] = [:]
    var header: YAMLValue?
    var footer: YAMLValue?
    var fontFiles: [String] = []
    var fontLocations: [String: SourceLocation] = [:]
    var template: String?
    /// `numbering`, `figure-label`, `table-label` (Numbering.swift).
    var numbering: HeadingNumbering?
    var figureLabel: String?
    var tableLabel: String?
    var pdfStandards: Set<PDFStandard> = []
}

private let knownKeys: Set<String> = [
    "title", "author", "subject", "keywords", "date", "template", "page", "orientation", "margin", "columns",
    "column-gap", "column-rule", "font", "font-size", "line-height", "lang", "justify", "hyphenate", "header",
    "footer", "fonts", "styles", "vars", "numbering", "figure-label", "table-label", "smart", "pdf-standard",
]

struct FrontMatterReader {
    var diagnostics: [Diagnostic] = []
    var settings = FrontMatterSettings()
    private var values: [String: YAMLPair] = [:]
    private var frontMatterStart = SourceLocation(file: "", line: 1, column: 1)

    init(_ frontMatter: FrontMatter?, options: LoweringOptions) {
        settings.metadata.creationDate = options.sourceDateEpoch ?? options.now
        guard let frontMatter else { return }
        frontMatterStart = frontMatter.range.start
        for entry in frontMatter.entries {
            if knownKeys.contains(entry.key) {
                values[entry.key] = entry
            } else {
                warn("unknown front matter key '\(entry.key)', ignored", at: entry.keyLocation)
            }
        }
        readMetadata(options: options)
        readPage()
        readBody()
        readRunningText()
        readStyles()
        readVariables()
        readNumbering()
        readStandards()
        readResources(relativeTo: frontMatter.range.start.file, root: options.root)
    }

    private mutating func warn(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }

    /// The scalar text of a key, or a warning when it is a list or map. A sequence is joined when `joinLists`.
    private mutating func scalar(_ key: String, joinLists: Bool = false) -> (text: String, location: SourceLocation)? {
        guard let pair = values[key] else { return nil }
        switch pair.value.kind {
        case .scalar(let s): return (s.trimmingASCIIWhitespace(), pair.value.location)
        case .null: return nil
        case .sequence(let items) where joinLists:
            let texts = items.compactMap(\.scalar)
            if texts.count == items.count { return (texts.joined(separator: ", "), pair.value.location) }
        default: break
        }
        warn("'\(key)' expects a single value, ignored", at: pair.value.location)
        return nil
    }

    // MARK: Numbering

    private mutating func readNumbering() {
        if let found = scalar("numbering"), found.text.lowercased() != "none" {
            if let numbering = HeadingNumbering(pattern: found.text) { settings.numbering = numbering } else {
                warn("bad numbering '\(found.text)': expected none or a pattern such as 1.1, 1.1.1 or I.A.1; headings are not numbered",
                     at: found.location)
            }
        }
        settings.figureLabel = scalar("figure-label")?.text
        settings.tableLabel = scalar("table-label")?.text
    }

    /// `pdf-standard: [a-2a, ua-1]` (a single value or a comma-separated one also work).
    private mutating func readStandards() {
        guard let pair = values["pdf-standard"] else { return }
        var items: [(String, SourceLocation)] = []
        switch pair.value.kind {
        case .scalar(let s):
            items = s.split(separator: ",").map { (String($0).trimmingASCIIWhitespace(), pair.value.location) }
        case .sequence(let values):
            for value in values {
                if let s = value.scalar { items.append((s.trimmingASCIIWhitespace(), value.location)) }
                else { warn("'pdf-standard' expects names such as ua-1 or a-2b, ignored", at: value.location) }
            }
        case .null: return
        default:
            warn("'pdf-standard' expects a list such as [a-2a, ua-1], ignored", at: pair.value.location)
        }
        for (text, location) in items {
            if let standard = PDFStandard(rawValue: text.lowercased()) { settings.pdfStandards.insert(standard) } else {
                warn("unknown pdf-standard '\(text)': expected ua-1, a-2b, a-2a, a-2u or a-3b; ignored", at: location)
            }
        }
    }

    // MARK: Metadata

    private mutating func readMetadata(options: LoweringOptions) {
        settings.metadata.title = scalar("title")?.text
        settings.metadata.author = scalar("author", joinLists: true)?.text
        settings.metadata.subject = scalar("subject")?.text
        settings.metadata.keywords = scalar("keywords", joinLists: true)?.text
        if let found = scalar("date") {
            let (text, location) = (found.text, found.location)
            if let epoch = parseISO8601(text) {
                settings.metadata.creationDate = epoch
            } else {
                warn("bad date '\(text)': expected ISO 8601 such as 2024-05-31 or 2024-05-31T14:00:00Z", at: location)
            }
        }
        settings.template = scalar("template")?.text
    }

    // MARK: Page

    private mutating func readPage() {
        var page = PageGeometry()
        if let found = scalar("page") {
            let (text, location) = (found.text, found.location)
            if let size = PageSize.parse(text) {
                page.width = size.width
                page.height = size.height
            } else {
                warn("unknown page size '\(text)': expected A3, A4, A5, B5, Letter, Legal or W x H (210mm x 99mm); using A4", at: location)
            }
        }
        if let found = scalar("orientation") {
            let (text, location) = (found.text, found.location)
            switch text.lowercased() {
            case "portrait": (page.width, page.height) = (min(page.width, page.height), max(page.width, page.height))
            case "landscape": (page.width, page.height) = (max(page.width, page.height), min(page.width, page.height))
            default: warn("bad orientation '\(text)': expected portrait or landscape", at: location)
            }
        }
        let fontSize = documentFontSize()
        if let pair = values["margin"] {
            // A scalar `1cm 2cm` or a YAML list `[1cm, 2cm]`.
            let words: [String]? = switch pair.value.kind {
            case .scalar(let s): s.whitespaceSeparated()
            case .sequence(let items): items.compactMap(\.scalar).count == items.count ? items.compactMap(\.scalar) : nil
            default: nil
            }
            let context = LengthContext(fontSize: fontSize, percentBase: page.width)
            let lengths = words?.compactMap { Length.points($0, in: context) }
            if let words, let lengths, lengths.count == words.count, (1...4).contains(lengths.count), lengths.allSatisfy({ $0 >= 0 }) {
                page.margins = cssEdges(lengths)
            } else {
                warn("bad margin: expected 1 to 4 lengths (top right bottom left); using 2cm", at: pair.value.location)
            }
        }
        if let found = scalar("columns") {
            let (text, location) = (found.text, found.location)
            if let n = Int(text), (1...16).contains(n) { page.columns = n } else {
                warn("bad columns '\(text)': expected a whole number from 1 to 16", at: location)
            }
        }
        if let found = scalar("column-gap") {
            let (text, location) = (found.text, found.location)
            let context = LengthContext(fontSize: fontSize, percentBase: page.contentWidth)
            if let gap = Length.points(text, in: context), gap >= 0 { page.columnGap = gap } else {
                warn("bad column-gap '\(text)': expected a length", at: location)
            }
        }
        if let found = scalar("column-rule") {
            let (text, location) = (found.text, found.location)
            if text.lowercased() == "none" {
                page.columnRule = nil
            } else if let rule = parseBorderValue(text, context: LengthContext(fontSize: fontSize, percentBase: page.contentWidth)) {
                page.columnRule = rule
            } else {
                warn("bad column-rule '\(text)': expected none or WIDTH COLOR (0.5pt gray)", at: location)
            }
        }
        if page.contentWidth <= 0 || page.contentHeight <= 0 || page.columnWidth <= 0 {
            warn("margins and columns leave no room for text; using the default margins and one column",
                 at: values["margin"]?.value.location ?? values["columns"]?.value.location ?? values["page"]?.value.location
                    ?? frontMatterStart)
            page.margins = PageGeometry().margins
            page.columns = 1
        }
        settings.page = page
    }

    /// The body font size front matter asks for (for `em` in margins), else the built-in 10pt.
    private func documentFontSize() -> Double {
        guard let text = values["font-size"]?.value.scalar,
              let size = Length.points(text, in: LengthContext(fontSize: 10, percentBase: 10)), size > 0,
              size <= Length.maxFontSize else { return 10 }
        return size
    }

    // MARK: Body text

    private mutating func readBody() {
        // Checked with the attribute table itself, but reported under the front matter's own key names.
        func bodyPair(_ key: String, attribute: String, value: String? = nil) {
            guard let found = scalar(key) else { return }
            let (text, location) = (found.text, found.location)
            var scratch = StyleState()
            let attributeValue = value ?? text
            if let expected = AttributeTable.handlers[attribute]!.apply(&scratch, attributeValue) {
                warn("bad value '\(text)' for '\(key)': expected \(expected)\(Length.rangeNote(text)); using the default", at: location)
                return
            }
            // Front matter reports a bad value at the value ("at its location", section 2), so the pair's
            // key range points there too: the attribute table warns at key ranges.
            let keyRange = SourceRange(at: location), valueRange = SourceRange(at: location)
            settings.bodyPairs.append(AttributePair(key: attribute, value: attributeValue, keyRange: keyRange, valueRange: valueRange))
        }
        bodyPair("font", attribute: "font")
        bodyPair("font-size", attribute: "size")
        bodyPair("line-height", attribute: "line-height")
        bodyPair("hyphenate", attribute: "hyphenate")
        if let found = scalar("justify") {
            let (text, location) = (found.text, found.location)
            if let justify = parseBool(text) {
                let range = SourceRange(at: location)
                settings.bodyPairs.append(AttributePair(key: "align", value: justify ? "justify" : "left", keyRange: range, valueRange: range))
            } else {
                warn("bad value '\(text)' for 'justify': expected true or false; using false", at: location)
            }
        }
        if let found = scalar("smart") {
            if let smart = parseBool(found.text) { settings.smart = smart } else {
                warn("bad value '\(found.text)' for 'smart': expected true or false; using true", at: found.location)
            }
        }
        if let found = scalar("lang") {
            let (text, location) = (found.text, found.location)
            if isLanguageTag(text) {
                settings.language = text
                let range = SourceRange(at: location)
                settings.bodyPairs.append(AttributePair(key: "lang", value: text, keyRange: range, valueRange: range))
            } else {
                warn("bad lang '\(text)': expected a language tag such as en or de-CH; using en", at: location)
            }
        }
    }

    private mutating func readRunningText() {
        for key in ["header", "footer"] {
            guard let pair = values[key] else { continue }
            switch pair.value.kind {
            case .scalar: if key == "header" { settings.header = pair.value } else { settings.footer = pair.value }
            case .null: break
            default: warn("'\(key)' expects one line of text, ignored", at: pair.value.location)
            }
        }
    }

    // MARK: Styles and variables

    private mutating func readStyles() {
        guard let pair = values["styles"] else { return }
        guard case .mapping(let styleEntries) = pair.value.kind else {
            if case .null = pair.value.kind { return }
            warn("'styles' expects a map of style names to attribute maps, ignored", at: pair.value.location)
            return
        }
        for style in styleEntries {
            guard case .mapping(let attributeEntries) = style.value.kind else {
                warn("style '\(style.key)' expects a map of attributes, ignored", at: style.value.location)
                continue
            }
            var pairs: [AttributePair] = []
            for entry in attributeEntries {
                let text: String
                switch entry.value.kind {
                case .scalar(let s): text = s
                // `tabs: [4cm, 9cm decimal]` reads naturally in YAML.
                case .sequence(let items) where items.allSatisfy({ $0.scalar != nil }):
                    text = items.compactMap(\.scalar).joined(separator: ", ")
                default:
                    warn("attribute '\(entry.key)' expects a single value, ignored", at: entry.value.location)
                    continue
                }
                pairs.append(AttributePair(key: entry.key, value: text, keyRange: SourceRange(at: entry.keyLocation),
                                           valueRange: SourceRange(at: entry.value.location)))
            }
            // Validate once, here, where the user wrote it; uses of the style stay quiet.
            var scratch = StyleState()
            var report = AttributeDiagnostics(report: true)
            AttributeTable.apply(pairs, to: &scratch, scope: .paragraph, diagnostics: &report)
            diagnostics.append(contentsOf: report.messages)
            if let link = scratch.character.link, case .warn(let message) = LinkPolicy.check(link),
               let pair = pairs.last(where: { $0.key == "link" }) {
                warn(message, at: pair.valueRange.start)
            }
            settings.styles.append((style.key, pairs))
        }
    }

    private mutating func readVariables() {
        guard let pair = values["vars"] else { return }
        guard case .mapping(let entries) = pair.value.kind else {
            if case .null = pair.value.kind { return }
            warn("'vars' expects a map of names to values, ignored", at: pair.value.location)
            return
        }
        for entry in entries {
            switch entry.value.kind {
            case .scalar(let s): settings.variables[entry.key] = s
            case .null: settings.variables[entry.key] = ""
            // Lists and maps are for Mustache sections, expanded before parsing; as text a list reads as "a, b".
            case .sequence(let items): settings.variables[entry.key] = items.compactMap(\.scalar).joined(separator: ", ")
            case .mapping: break
            }
        }
    }

    private mutating func readResources(relativeTo file: String, root: ReadRoot?) {
        guard let pair = values["fonts"] else { return }
        let named: [(path: String, at: SourceLocation)] = switch pair.value.kind {
        case .scalar(let s): [(s, pair.value.location)]
        case .sequence(let items): items.compactMap { item in item.scalar.map { ($0, item.location) } }
        default: []
        }
        for (path, at) in named {
            let resolved = resolvePath(path.trimmingASCIIWhitespace(), relativeTo: file)
            if let refusal = root?.refusal(resolved) {
                diagnostics.append(.error(refusal, at: at))
                continue
            }
            settings.fontFiles.append(resolved)
            if settings.fontLocations[resolved] == nil { settings.fontLocations[resolved] = at }
        }
    }
}

/// CSS shorthand order: 1 value all sides; 2 vertical horizontal; 3 top horizontal bottom; 4 top right bottom left.
func cssEdges(_ v: [Double]) -> EdgeInsets {
    switch v.count {
    case 1: return EdgeInsets(all: v[0])
    case 2: return EdgeInsets(top: v[0], right: v[1], bottom: v[0], left: v[1])
    case 3: return EdgeInsets(top: v[0], right: v[1], bottom: v[2], left: v[1])
    default: return EdgeInsets(top: v[0], right: v[1], bottom: v[2], left: v[3])
    }
}

/// A path as the file at `file` names it: absolute paths stay; relative ones join that file's folder.
func resolvePath(_ path: String, relativeTo file: String) -> String {
    if path.hasPrefix("/") || file == "<stdin>" { return path }
    guard let slash = file.lastIndex(of: "/") else { return path }
    return String(file[...slash]) + path
}
