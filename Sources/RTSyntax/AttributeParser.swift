// Attribute blocks: `{.style #id key=value key="quoted value" key='q'}` (section 6).
// Used for spans, images, headings, divs, block-attribute lines and `@exclude` options.

enum AttributeParser {
    /// Longest attribute block we look for: keeps failed searches cheap on pathological input.
    static let maxLength = 4096

    /// Offset of the `}` closing the `{` at `open`, honouring quotes; nil when there is none on this
    /// stretch (stops at a newline, `{`, `[` or `]` outside quotes, or after `maxLength` bytes).
    static func findClose(_ b: [UInt8], open: Int, end: Int) -> Int? {
        var steps = 0
        return findClose(b, open: open, end: end, steps: &steps)
    }

    /// `findClose`, adding the bytes it looked at to `steps`.
    static func findClose(_ b: [UInt8], open: Int, end: Int, steps: inout Int) -> Int? {
        var i = open + 1
        defer { steps += i - open }
        let limit = min(end, open + maxLength)
        var quote: UInt8 = 0
        while i < limit {
            let c = b[i]
            if quote != 0 {
                if c == Byte.backslash { i += 2; continue }
                if c == quote { quote = 0 } else if c == Byte.lf { return nil }
            } else {
                switch c {
                case Byte.rbrace: return i
                case Byte.quote, Byte.apostrophe: quote = c
                case Byte.lf, Byte.lbrace, Byte.lbracket, Byte.rbracket: return nil
                default: break
                }
            }
            i += 1
        }
        return nil
    }

    /// Parses `b[start..<end]`, the text between the braces. Problems are warnings; the rest is kept.
    static func parse(_ b: [UInt8], _ start: Int, _ end: Int, locate: (Int) -> SourceLocation,
                      diagnostics: inout [Diagnostic]) -> Attributes {
        var attrs = Attributes()
        var i = start
        func isNameByte(_ c: UInt8) -> Bool {
            !(Byte.isSpaceOrTab(c) || c == Byte.lf || c == Byte.cr || c == Byte.equals || c == Byte.quote
                || c == Byte.apostrophe || c == Byte.lbrace || c == Byte.rbrace || c == Byte.hash
                || c == Byte.dot || c == 0)
        }
        func string(_ s: Int, _ e: Int) -> String { String(decoding: b[s ..< e], as: UTF8.self) }
        while i < end {
            let c = b[i]
            if Byte.isSpaceOrTab(c) || c == Byte.lf || c == Byte.cr || c == 0 || c == Byte.comma {
                i += 1
                continue
            }
            if c == Byte.dot || c == Byte.hash {
                var j = i + 1
                while j < end && isNameByte(b[j]) { j += 1 }
                if j == i + 1 {
                    diagnostics.append(.warning(
                        "'\(Character(Unicode.Scalar(c)))' needs a name after it: write .style or #id",
                        at: locate(i)))
                    i += 1
                    continue
                }
                let name = string(i + 1, j)
                if c == Byte.dot {
                    attrs.styles.append(StyleName(name, range: SourceRange(start: locate(i + 1), end: locate(j))))
                } else {
                    if attrs.id != nil {
                        diagnostics.append(.warning("a second #id '\(name)': an element has one id; the last one is used",
                                                    at: locate(i)))
                    }
                    attrs.id = name
                }
                i = j
                continue
            }
            if isNameByte(c) {
                var j = i
                while j < end && isNameByte(b[j]) { j += 1 }
                let keyStart = i
                let keyEnd = j
                let key = string(keyStart, keyEnd)
                let keyRange = SourceRange(start: locate(keyStart), end: locate(keyEnd))
                guard j < end && b[j] == Byte.equals else {
                    diagnostics.append(.warning("attribute '\(key)' has no value: write \(key)=value (taken as \(key)=true)",
                                                at: locate(keyStart)))
                    let here = SourceRange(at: locate(keyEnd))
                    attrs.pairs.append(AttributePair(key: key, value: "true", keyRange: keyRange, valueRange: here))
                    i = j
                    continue
                }
                j += 1
                var valueStart = j
                var valueEnd = j
                var value = ""
                if j < end && (b[j] == Byte.quote || b[j] == Byte.apostrophe) {
                    let q = b[j]
                    valueStart = j + 1
                    var k = valueStart
                    var bytes: [UInt8] = []
                    var closed = false
                    while k < end {
                        if b[k] == Byte.backslash && k + 1 < end && (b[k + 1] == q || b[k + 1] == Byte.backslash) {
                            bytes.append(b[k + 1])
                            k += 2
                            continue
                        }
                        if b[k] == q { closed = true; break }
                        bytes.append(b[k])
                        k += 1
                    }
                    valueEnd = k
                    value = String(decoding: bytes, as: UTF8.self)
                    if !closed {
                        diagnostics.append(.warning("unclosed quote in the value of '\(key)': add the closing \(q == Byte.quote ? "\"" : "'")",
                                                    at: locate(j)))
                    }
                    i = closed ? k + 1 : k
                } else {
                    var k = j
                    while k < end && !(Byte.isSpaceOrTab(b[k]) || b[k] == Byte.lf || b[k] == Byte.cr) { k += 1 }
                    valueEnd = k
                    value = string(valueStart, valueEnd)
                    if valueStart == valueEnd {
                        diagnostics.append(.warning("attribute '\(key)' has an empty value: write \(key)=value",
                                                    at: locate(keyStart)))
                    }
                    i = k
                }
                attrs.pairs.append(AttributePair(key: key, value: value, keyRange: keyRange,
                                                 valueRange: SourceRange(start: locate(valueStart), end: locate(valueEnd))))
                continue
            }
            // A stray '=', quote or brace: skip the token and say what is expected.
            var j = i + 1
            while j < end && !(Byte.isSpaceOrTab(b[j]) || b[j] == Byte.lf) { j += 1 }
            diagnostics.append(.warning("unexpected '\(string(i, j))' in attributes: write .style, #id or key=value",
                                        at: locate(i)))
            i = j
        }
        return attrs
    }
}

extension Byte {
    static let comma: UInt8 = 0x2C
}
