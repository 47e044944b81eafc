// GitHub's extended autolinks: `https://x.org/a`, `http://…` and `www.x.org` in running text become links
// without angle brackets (contract section 9), and so do e-mail addresses (`foo@bar.baz`, `mailto:foo@bar.baz`,
// `xmpp:foo@bar.baz`), linked to `mailto:`. Trailing punctuation stays outside the link, as GitHub does.

extension InlineParser {
    /// Where a bare link starts in the text run `s ..< e` (a position at a word boundary), or nil.
    func bareLinkStart(in s: Int, _ e: Int) -> Int? {
        guard brackets.isEmpty else { return nil }   // never a link inside link text
        var k = s
        while k < e {
            let c = buf[k]
            if (c == 0x68 || c == 0x77), atLinkBoundary(k), bareLinkPrefix(at: k) > 0 { return k }
            if Self.isEmailLocal(c), k == 0 || !Self.isEmailLocal(buf[k - 1]) {
                // Each word is looked at once: past its local part, the scan goes on after it.
                if emailEnd(at: k) != nil { return k }
                while k < e && Self.isEmailLocal(buf[k]) { k += 1 }
                continue
            }
            k += 1
        }
        return nil
    }

    /// A bare link starts at the line start, after white space, or after `*` `_` `~` `(`.
    private func atLinkBoundary(_ k: Int) -> Bool {
        guard k > 0 else { return true }
        let p = buf[k - 1]
        return p == Byte.space || p == Byte.tab || p == Byte.lf || p == Byte.star || p == Byte.underscore
            || p == Byte.tilde || p == Byte.lparen
    }

    /// The length of `https://`, `http://` or `www.` at `k`, else 0.
    private func bareLinkPrefix(at k: Int) -> Int {
        for prefix in ["https://", "http://", "www."] {
            let p = Array(prefix.utf8)
            if k + p.count <= buf.count, buf[k ..< k + p.count].elementsEqual(p) { return p.count }
        }
        return 0
    }

    /// Reads the bare link at `k` (where `bareLinkStart` found one) and appends the text from `i` and the link
    /// node; returns the position after it, or nil when what follows is not a valid domain (nothing appended).
    mutating func bareLink(at k: Int, textFrom i: Int) -> Int? {
        if let (end, scheme) = emailEnd(at: k) {
            addText(i, k, buf[i ..< k])
            let text = String(decoding: buf[k ..< end], as: UTF8.self)
            flushText()
            appendNode(.link(destination: scheme ? text : "mailto:" + text,
                             content: [Inline(.text(text), range: input.range(k, end))]), k, end)
            return end
        }
        let prefix = bareLinkPrefix(at: k)
        // The domain first, at most 253 bytes (DNS): an invalid one fails before the rest is read.
        let domainStart = buf[k] == 0x77 ? k : k + prefix
        var domainEnd = k + prefix
        while domainEnd < buf.count, domainEnd - domainStart <= 253, isDomainByte(buf[domainEnd]) { domainEnd += 1 }
        steps += domainEnd - k
        var domain = buf[domainStart ..< domainEnd]
        while domain.last == Byte.dot { domain = domain.dropLast() }   // a sentence's full stop
        guard domainEnd - domainStart <= 253, isValidDomain(domain) else { return nil }
        var e = domainEnd
        let limit = min(buf.count, k + 4096)
        var opens = 0, closes = 0
        while e < limit, buf[e] > Byte.space, buf[e] != Byte.lt, buf[e] != 0x7F {
            if buf[e] == Byte.lparen { opens += 1 } else if buf[e] == Byte.rparen { closes += 1 }
            e += 1
        }
        steps += e - domainEnd
        // Trailing punctuation, unbalanced `)` and an entity-like `&name;` are not part of the link.
        while e > domainStart + domain.count {
            let c = buf[e - 1]
            if "?!.,:*_~'\"".utf8.contains(c) { e -= 1; continue }
            if c == Byte.rparen && closes > opens { closes -= 1; e -= 1; continue }
            if c == 0x3B {
                var a = e - 2
                while a > domainEnd && Byte.isAlnum(buf[a]) { a -= 1 }
                if a < e - 2, buf[a] == 0x26 { e = a; continue }
            }
            break
        }
        addText(i, k, buf[i ..< k])
        let text = String(decoding: buf[k ..< e], as: UTF8.self)
        let destination = buf[k] == 0x77 ? "http://" + text : text
        flushText()
        appendNode(.link(destination: destination, content: [Inline(.text(text), range: input.range(k, e))]), k, e)
        return e
    }

    private static let emailSchemes = [Array("mailto:".utf8), Array("xmpp:".utf8)]

    static func isEmailLocal(_ c: UInt8) -> Bool {
        Byte.isAlnum(c) || c == Byte.dot || c == Byte.minus || c == Byte.underscore || c == UInt8(ascii: "+")
    }

    /// The end of the e-mail address at `k` (GFM: local part of letters, digits and `. - _ +`, `@`, a domain
    /// of letters, digits, `-` and `_` with at least one period, not ending in `-` or `_`; a final `.` is left
    /// out), and whether it came with its `mailto:` or `xmpp:` scheme; nil when there is none.
    func emailEnd(at k: Int) -> (end: Int, scheme: Bool)? {
        var p = k
        var scheme = false
        if buf[k] == UInt8(ascii: "m") || buf[k] == UInt8(ascii: "x") {
            for bytes in Self.emailSchemes where k + bytes.count < buf.count && buf[k ..< k + bytes.count].elementsEqual(bytes) {
                p += bytes.count
                scheme = true
                break
            }
        }
        let local = p
        while p < buf.count && p - local < 256 && Self.isEmailLocal(buf[p]) { p += 1 }
        guard p > local, p < buf.count, buf[p] == UInt8(ascii: "@") else { return nil }
        p += 1
        let domain = p
        var periods = 0
        while p < buf.count && p - domain < 254 && (Byte.isAlnum(buf[p]) || buf[p] == Byte.minus || buf[p] == Byte.underscore || buf[p] == Byte.dot) {
            p += 1
        }
        while p > domain && buf[p - 1] == Byte.dot { p -= 1 }
        for q in domain ..< p where buf[q] == Byte.dot { periods += 1 }
        guard p > domain, periods > 0, buf[p - 1] != Byte.minus, buf[p - 1] != Byte.underscore else { return nil }
        return (p, scheme)
    }

    private func isDomainByte(_ c: UInt8) -> Bool {
        Byte.isAlnum(c) || c == Byte.underscore || c == Byte.minus || c == Byte.dot || c >= 0x80
    }

    /// Segments of letters, digits, `_` and `-` separated by periods, at least one period, no `_` in the
    /// last two segments (GitHub's rule).
    private func isValidDomain(_ domain: ArraySlice<UInt8>) -> Bool {
        let segments = domain.split(separator: Byte.dot, omittingEmptySubsequences: false)
        guard segments.count >= 2, segments.allSatisfy({ !$0.isEmpty }) else { return false }
        for segment in segments where !segment.allSatisfy({ Byte.isAlnum($0) || $0 == Byte.underscore
            || $0 == Byte.minus || $0 >= 0x80 }) {
            return false
        }
        return !segments.suffix(2).contains { $0.contains(Byte.underscore) }
    }
}
