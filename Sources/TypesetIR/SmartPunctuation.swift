// Smart punctuation (RT section 5): straight quotes, `--`, `---` and `...` become the typographer's characters,
// quotes by the language of the text they stand in. It runs over a paragraph's inline tree before lowering, where
// code spans, autolinks, backslash escapes and entities (Inline.literalOffsets) can still be told apart from text.
// Quotes pair as CommonMark's smart extension pairs them (flanking rules, a stack of openers) and as pandoc reads
// apostrophes: between two letters or before a digit a `'` is always an apostrophe.

import RTSyntax

enum SmartPunctuation {
    /// The paragraph's inlines with smart punctuation applied; `language` is the paragraph's `lang`.
    static func apply(_ inlines: [Inline], language: String) -> [Inline] {
        guard mayChange(inlines) else { return inlines }
        var stream = SmartStream()
        stream.read(inlines, language: language)
        guard stream.hasCandidates else { return inlines }
        let replacements = stream.replacements()
        guard !replacements.isEmpty else { return inlines }
        var writer = SmartWriter(replacements: replacements)
        return writer.rewrite(inlines)
    }

    /// A quick look at the bytes: most paragraphs hold no quote, `--` or `..` and are left as they are.
    static func mayChange(_ inlines: [Inline]) -> Bool {
        for inline in inlines {
            switch inline.kind {
            case .text(let text):
                var utf8 = text
                if utf8.withUTF8(mayChange) { return true }
            case .strong(let c), .emphasis(let c), .underline(let c), .strikethrough(let c), .superscript(let c),
                 .subscript(let c), .highlight(let c), .span(let c, _):
                if mayChange(c) { return true }
            case .link(let destination, let content):
                if !isAutolink(destination, content) && mayChange(content) { return true }
            default:
                break
            }
        }
        return false
    }

    /// Whether the bytes hold a quote, `--` or `..` (read from the string's own buffer: 0.9 ms of the 35,000-word
    /// report's lowering went to iterating its UTF-8 view).
    static func mayChange(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var previous: UInt8 = 0
        for b in bytes {
            if b == 0x22 || b == 0x27 || ((b == 0x2D || b == 0x2E) && b == previous) { return true }
            previous = b
        }
        return false
    }

    /// Whether a link is an autolink (`<https://x>`, a bare `www.x`): its text is the URL, never changed.
    static func isAutolink(_ destination: String, _ content: [Inline]) -> Bool {
        guard content.count == 1, case .text(let text) = content[0].kind else { return false }
        return destination.hasSuffix(text)
    }

    /// Stand-ins in the stream for what is not text, so quotes beside them still see a neighbour: a code span or
    /// image reads as a letter, a footnote mark as punctuation (`"quoted."[^1]` closes), breaks as spaces.
    static func standIn(_ kind: InlineKind) -> Unicode.Scalar? {
        switch kind {
        case .softBreak, .hardBreak, .tab: return " "
        case .code, .image, .variable: return "x"
        case .footnoteReference, .inlineFootnote: return "\u{2020}"
        default: return nil
        }
    }
}

/// The quote characters of a language (RT section 5): `en` and every language not listed, `de`, `fr`.
struct QuoteMarks: Equatable {
    var openDouble: String, closeDouble: String, openSingle: String, closeSingle: String

    static let english = QuoteMarks(openDouble: "\u{201C}", closeDouble: "\u{201D}",
                                    openSingle: "\u{2018}", closeSingle: "\u{2019}")
    static let german = QuoteMarks(openDouble: "\u{201E}", closeDouble: "\u{201C}",
                                   openSingle: "\u{201A}", closeSingle: "\u{2018}")
    /// Guillemets with a narrow no-break space (U+202F) inside, as French typography sets them.
    static let french = QuoteMarks(openDouble: "\u{AB}\u{202F}", closeDouble: "\u{202F}\u{BB}",
                                   openSingle: "\u{2039}\u{202F}", closeSingle: "\u{202F}\u{203A}")
    static let apostrophe = "\u{2019}"

    /// By the tag's primary language subtag (`de-CH` -> de).
    static func of(_ language: String) -> QuoteMarks {
        let primary = language.split(whereSeparator: { $0 == "-" || $0 == "_" }).first?.lowercased() ?? ""
        switch primary {
        case "de": return german
        case "fr": return french
        default: return english
        }
    }
}

/// The paragraph's text flattened to scalars (stand-ins for what is not text), which of them may change, and
/// the language each stands in.
struct SmartStream {
    var scalars: [Unicode.Scalar] = []
    var editable: [Bool] = []
    var languageIndex: [Int] = []
    var languages: [String] = []
    var hasCandidates = false

    mutating func read(_ inlines: [Inline], language: String) {
        let index: Int
        if let known = languages.firstIndex(of: language) { index = known } else {
            index = languages.count
            languages.append(language)
        }
        for inline in inlines {
            switch inline.kind {
            case .text(let text):
                appendText(text, literal: inline.literalOffsets, language: index, editable: true)
            case .strong(let c), .emphasis(let c), .underline(let c), .strikethrough(let c), .superscript(let c),
                 .subscript(let c), .highlight(let c):
                read(c, language: language)
            case .link(let destination, let content):
                if SmartPunctuation.isAutolink(destination, content), case .text(let url) = content[0].kind {
                    appendText(url, literal: [], language: index, editable: false)
                } else {
                    read(content, language: language)
                }
            case .span(let content, let attributes):
                read(content, language: attributes["lang"]?.value ?? language)
            default:
                if let s = SmartPunctuation.standIn(inline.kind) { append(s, language: index, editable: false) }
            }
        }
    }

    private mutating func appendText(_ text: String, literal: [Int], language: Int, editable: Bool) {
        var offset = 0
        var nextLiteral = 0
        for s in text.unicodeScalars {
            var canChange = editable && (s == "\"" || s == "'" || s == "-" || s == ".")
            while nextLiteral < literal.count && literal[nextLiteral] < offset { nextLiteral += 1 }
            if nextLiteral < literal.count && literal[nextLiteral] == offset { canChange = false }
            if canChange { hasCandidates = true }
            append(s, language: language, editable: canChange)
            offset += s.utf8.count
        }
    }

    private mutating func append(_ s: Unicode.Scalar, language: Int, editable canChange: Bool) {
        scalars.append(s)
        editable.append(canChange)
        languageIndex.append(language)
    }

    /// Replacement text by scalar index ("" deletes the scalar: the rest of a dash or an ellipsis).
    func replacements() -> [Int: String] {
        var out: [Int: String] = [:]
        var openers: [(index: Int, quote: Unicode.Scalar)] = []
        var i = 0
        let n = scalars.count
        while i < n {
            let s = scalars[i]
            guard editable[i] else {
                i += 1
                continue
            }
            switch s {
            case "-", ".":
                var j = i + 1
                while j < n && scalars[j] == s && editable[j] { j += 1 }
                if s == "-" { Self.dashes(i, j, into: &out) } else { Self.ellipses(i, j, into: &out) }
                i = j
                continue
            default:
                quote(at: i, openers: &openers, into: &out)
            }
            i += 1
        }
        for opener in openers {
            out[opener.index] = opener.quote == "\"" ? marks(opener.index).openDouble : QuoteMarks.apostrophe
        }
        return out
    }

    private func marks(_ i: Int) -> QuoteMarks { QuoteMarks.of(languages[languageIndex[i]]) }

    /// CommonMark's smart dashes: a run of 3k hyphens is k em dashes, of 2k en dashes; others mix, em first.
    private static func dashes(_ start: Int, _ end: Int, into out: inout [Int: String]) {
        let count = end - start
        guard count >= 2 else { return }
        let (em, en): (Int, Int)
        if count % 3 == 0 { (em, en) = (count / 3, 0) }
        else if count % 2 == 0 { (em, en) = (0, count / 2) }
        else if count % 3 == 2 { (em, en) = ((count - 2) / 3, 1) }
        else { (em, en) = ((count - 4) / 3, 2) }
        out[start] = String(repeating: "\u{2014}", count: em) + String(repeating: "\u{2013}", count: en)
        for k in (start + 1)..<end { out[k] = "" }
    }

    /// Each `...` is an ellipsis; dots left over stay.
    private static func ellipses(_ start: Int, _ end: Int, into out: inout [Int: String]) {
        var k = start
        while k + 3 <= end {
            out[k] = "\u{2026}"
            out[k + 1] = ""
            out[k + 2] = ""
            k += 3
        }
    }

    private func quote(at i: Int, openers: inout [(index: Int, quote: Unicode.Scalar)], into out: inout [Int: String]) {
        let s = scalars[i]
        let before: Unicode.Scalar? = i > 0 ? scalars[i - 1] : nil
        let after: Unicode.Scalar? = i + 1 < scalars.count ? scalars[i + 1] : nil
        if s == "'" {
            // don't, 1990's, '90s: an apostrophe, never a quote.
            if let b = before, let a = after, Self.isAlphanumeric(b), Self.isAlphanumeric(a) {
                out[i] = QuoteMarks.apostrophe
                return
            }
            if let a = after, a.properties.numericType != nil, before.map(Self.isWhitespace) ?? true {
                out[i] = QuoteMarks.apostrophe
                return
            }
        }
        let left = Self.leftFlanking(before, after), right = Self.leftFlanking(after, before)
        var canOpen = left && !right
        if s == "'" && (before == "]" || before == ")") { canOpen = false }
        let canClose = right
        if canClose, let k = openers.lastIndex(where: { $0.quote == s }) {
            let opener = openers[k].index
            let m = marks(opener)
            out[opener] = s == "\"" ? m.openDouble : m.openSingle
            out[i] = s == "\"" ? m.closeDouble : m.closeSingle
            openers.removeSubrange(k...)
            return
        }
        if canOpen {
            openers.append((i, s))
        } else if canClose {
            out[i] = s == "\"" ? marks(i).closeDouble : QuoteMarks.apostrophe
        }
        // Neither (`a " b`): left as typed.
    }

    /// CommonMark's left-flanking test; right-flanking is the same with the neighbours swapped.
    static func leftFlanking(_ before: Unicode.Scalar?, _ after: Unicode.Scalar?) -> Bool {
        guard let a = after, !isWhitespace(a) else { return false }
        guard isPunctuation(a) else { return true }
        guard let b = before else { return true }
        return isWhitespace(b) || isPunctuation(b)
    }

    static func isWhitespace(_ s: Unicode.Scalar) -> Bool {
        s == "\t" || s == "\n" || s == "\r" || s == "\u{0C}" || s.properties.generalCategory == .spaceSeparator
    }

    static func isPunctuation(_ s: Unicode.Scalar) -> Bool {
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    static func isAlphanumeric(_ s: Unicode.Scalar) -> Bool {
        s.properties.isAlphabetic || s.properties.numericType != nil
    }
}

/// Writes the replacements back into the tree's text, walking it in the order SmartStream read it.
struct SmartWriter {
    let replacements: [Int: String]
    var position = 0

    init(replacements: [Int: String]) { self.replacements = replacements }

    mutating func rewrite(_ inlines: [Inline]) -> [Inline] {
        inlines.map { inline in
            var out = inline
            switch inline.kind {
            case .text(let text): out.kind = .text(rewriteText(text))
            case .strong(let c): out.kind = .strong(rewrite(c))
            case .emphasis(let c): out.kind = .emphasis(rewrite(c))
            case .underline(let c): out.kind = .underline(rewrite(c))
            case .strikethrough(let c): out.kind = .strikethrough(rewrite(c))
            case .superscript(let c): out.kind = .superscript(rewrite(c))
            case .subscript(let c): out.kind = .subscript(rewrite(c))
            case .highlight(let c): out.kind = .highlight(rewrite(c))
            case .link(let destination, let content):
                if SmartPunctuation.isAutolink(destination, content), case .text(let url) = content[0].kind {
                    position += url.unicodeScalars.count
                } else {
                    out.kind = .link(destination: destination, content: rewrite(content))
                }
            case .span(let content, let attributes): out.kind = .span(content: rewrite(content), attributes: attributes)
            default:
                if SmartPunctuation.standIn(inline.kind) != nil { position += 1 }
            }
            return out
        }
    }

    private mutating func rewriteText(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var changed = false
        for s in text.unicodeScalars {
            if let r = replacements[position] {
                out.append(contentsOf: r.unicodeScalars)
                changed = true
            } else {
                out.append(s)
            }
            position += 1
        }
        return changed ? String(out) : text
    }
}
