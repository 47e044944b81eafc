// Raw HTML (section 9) is never passed through: tags are read here, then given their RT meaning
// (inline: HTMLInlines.swift, blocks: HTMLBlocks.swift) or dropped. A scan starting at one `<` stops at
// the next `<` outside a quoted value, and a quoted value is capped, so scanning every `<` of a
// paragraph stays linear in its length.

/// One start or end tag as written: `<a href="x">`, `</b>`, `<br/>`.
public struct HTMLTag: Sendable {
    /// Lower case.
    public var name: String
    public var isClosing: Bool
    /// Attribute names in lower case, values with entity references resolved; later duplicates lose.
    public var attributes: [(name: String, value: String)]
    public var range: SourceRange

    public subscript(name: String) -> String? { attributes.first { $0.name == name }?.value }
}

enum HTMLScan {
    static let maxQuotedValue = 4096

    /// The tag starting at `buf[i]` (a `<`): its name, whether it closes, its attributes and the offset just
    /// past its `>`; nil when the text there is not a complete tag.
    static func tag(_ buf: [UInt8], _ i: Int) -> (name: String, closing: Bool, attributes: [(name: String, value: String)], end: Int)? {
        let n = buf.count
        var k = i + 1
        let closing = k < n && buf[k] == 0x2F   // '/'
        if closing { k += 1 }
        guard k < n, Byte.isLetter(buf[k]) else { return nil }
        let nameStart = k
        while k < n && (Byte.isAlnum(buf[k]) || buf[k] == Byte.minus) { k += 1 }
        let name = lower(buf[nameStart ..< k])
        if closing {
            k = skipSpace(buf, k)
            guard k < n, buf[k] == Byte.gt else { return nil }
            return (name, true, [], k + 1)
        }
        var attributes: [(name: String, value: String)] = []
        while true {
            let afterSpace = skipSpace(buf, k)
            guard afterSpace < n else { return nil }
            let c = buf[afterSpace]
            if c == Byte.gt { return (name, false, attributes, afterSpace + 1) }
            if c == 0x2F {   // `/>`
                guard afterSpace + 1 < n, buf[afterSpace + 1] == Byte.gt else { return nil }
                return (name, false, attributes, afterSpace + 2)
            }
            // An attribute needs white space before it.
            guard afterSpace > k, Byte.isLetter(c) || c == Byte.underscore || c == Byte.colon else { return nil }
            k = afterSpace
            let attrStart = k
            while k < n && (Byte.isAlnum(buf[k]) || buf[k] == Byte.underscore || buf[k] == Byte.dot
                            || buf[k] == Byte.colon || buf[k] == Byte.minus) { k += 1 }
            let attrName = lower(buf[attrStart ..< k])
            let beforeEquals = skipSpace(buf, k)
            guard beforeEquals < n, buf[beforeEquals] == Byte.equals else {
                attributes.append((attrName, ""))
                continue
            }
            k = skipSpace(buf, beforeEquals + 1)
            guard k < n else { return nil }
            let q = buf[k]
            if q == Byte.quote || q == Byte.apostrophe {
                let valueStart = k + 1
                var e = valueStart
                let limit = min(n, valueStart + maxQuotedValue)
                while e < limit && buf[e] != q { e += 1 }
                guard e < limit else { return nil }
                attributes.append((attrName, HTMLEntities.decode(buf[valueStart ..< e])))
                k = e + 1
            } else {
                let valueStart = k
                while k < n && !isUnquotedStop(buf[k]) { k += 1 }
                guard k > valueStart else { return nil }
                attributes.append((attrName, HTMLEntities.decode(buf[valueStart ..< k])))
            }
        }
    }

    static func skipSpace(_ buf: [UInt8], _ k: Int) -> Int {
        var k = k
        while k < buf.count && (Byte.isSpaceOrTab(buf[k]) || buf[k] == Byte.lf || buf[k] == Byte.cr) { k += 1 }
        return k
    }

    private static func isUnquotedStop(_ c: UInt8) -> Bool {
        c <= Byte.space || c == Byte.quote || c == Byte.apostrophe || c == Byte.equals || c == Byte.lt
            || c == Byte.gt || c == Byte.backtick
    }

    static func lower(_ bytes: ArraySlice<UInt8>) -> String {
        String(decoding: bytes.map { Byte.isLetter($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The name right after `<` or `</` at `buf[i]`, lower case, and where it ends (block starts only need the name).
    static func name(_ buf: [UInt8], _ i: Int, end: Int) -> (name: String, closing: Bool, end: Int)? {
        var k = i + 1
        let closing = k < end && buf[k] == 0x2F
        if closing { k += 1 }
        guard k < end, Byte.isLetter(buf[k]) else { return nil }
        let s = k
        while k < end && (Byte.isAlnum(buf[k]) || buf[k] == Byte.minus) && k - s < 16 { k += 1 }
        return (lower(buf[s ..< k]), closing, k)
    }
}

/// What section 9 makes of each tag name.
enum HTMLTagRole {
    /// Headings `<h1>`-`<h6>`.
    case heading(Int)
    /// Dropped, text kept as paragraphs (a paragraph ends at the tag).
    case container
    case rule
    case lineBreak
    case image
    /// Paired inline tags with an RT meaning (`<b>`, `<a>`, ...), and `<span>` (dropped, text kept).
    case inline
    /// Anything else: dropped with one warning per name.
    case unknown

    static func of(_ name: String) -> HTMLTagRole {
        switch name {
        case "h1", "h2", "h3", "h4", "h5", "h6":
            return .heading(Int(name.utf8.last.map { $0 - 0x30 } ?? 1))
        case "details", "summary", "p", "div", "center", "picture", "source", "section", "article", "header",
             "footer", "nav", "figure", "figcaption", "table", "thead", "tbody", "tr", "th", "td":
            return .container
        case "hr": return .rule
        case "br": return .lineBreak
        case "img": return .image
        case "b", "strong", "i", "em", "u", "s", "del", "sub", "sup", "code", "kbd", "mark", "a", "span":
            return .inline
        default: return .unknown
        }
    }

    /// Tags that open an HTML block anywhere (CommonMark's type 6 names, plus `picture` and `source`).
    static let blockNames: Set<String> = [
        "address", "article", "aside", "base", "basefont", "blockquote", "body", "caption", "center", "col",
        "colgroup", "dd", "details", "dialog", "dir", "div", "dl", "dt", "fieldset", "figcaption", "figure",
        "footer", "form", "frame", "frameset", "h1", "h2", "h3", "h4", "h5", "h6", "head", "header", "hr",
        "html", "iframe", "legend", "li", "link", "main", "menu", "menuitem", "nav", "noframes", "ol", "optgroup",
        "option", "p", "param", "picture", "search", "section", "source", "summary", "table", "tbody", "td",
        "tfoot", "th", "thead", "title", "tr", "track", "ul",
    ]

    /// CommonMark's type 1: the block runs to the line holding the matching end tag.
    static let rawTextNames: Set<String> = ["pre", "script", "style", "textarea"]
}

/// The common named character references and all numeric ones, for text and attribute values inside HTML.
enum HTMLEntities {
    static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "copy": "©", "reg": "®",
        "trade": "™", "mdash": "—", "ndash": "–", "hellip": "…", "middot": "·", "bull": "•", "laquo": "«",
        "raquo": "»", "emsp": "\u{2003}", "ensp": "\u{2002}", "thinsp": "\u{2009}", "times": "×", "rarr": "→",
        "larr": "←", "check": "✓", "hearts": "♥", "star": "☆",
    ]

    static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        let s = String(decoding: bytes, as: UTF8.self)
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(32).firstIndex(of: ";"), let value = character(String(after[..<semi])) {
                out += value
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    private static func character(_ name: String) -> String? {
        if name.hasPrefix("#") {
            let digits = name.dropFirst()
            let value: UInt32?
            if digits.first == "x" || digits.first == "X" {
                value = UInt32(digits.dropFirst(), radix: 16)
            } else {
                value = UInt32(digits, radix: 10)
            }
            guard let v = value, digits.count <= 8 else { return nil }
            return String(Unicode.Scalar(v == 0 ? 0xFFFD : v) ?? "\u{FFFD}")
        }
        return named[name]
    }
}
