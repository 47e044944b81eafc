// Delimiter runs, emphasis matching and brackets (links, images, spans) for `InlineParser`.
// Follows CommonMark's "process emphasis" with per-kind `openers_bottom`, so matching stays linear.

extension InlineParser {
    // MARK: - Delimiter runs

    /// A run of `*` `_` `~` `^` `=`, by CommonMark's flanking rules: `*` opens when left-flanking and closes
    /// when right-flanking (so `**Ty**pesetting` and `2*3*4` emphasise); `_` and `=` may not open or close
    /// inside a word (`snake_case_name` stays literal); `~` and `^` may (`H~2~O`, `x^2^`). Tildes pair only
    /// with a run as long (`~sub~`, `~~strike~~`), as GFM's strikethrough does.
    mutating func delimiterRun(_ i: Int) -> Int {
        let c = buf[i]
        var j = i + 1
        while j < buf.count && buf[j] == c { j += 1 }
        let count = j - i
        steps += count
        if c == Byte.equals && count < 2 { return literal(i) }
        // GFM: a run of three or more tildes is text (`~~~~one~~~~`), never strikethrough or subscript.
        if c == Byte.tilde && count > 2 {
            addText(i, j, Array(buf[i..<j]))
            return j
        }
        let before = scalar(before: i)
        let after = scalar(at: j)
        let beforeSpace = InlineParser.isWhitespace(before)
        let afterSpace = InlineParser.isWhitespace(after)
        let beforePunct = InlineParser.isPunctuation(before)
        let afterPunct = InlineParser.isPunctuation(after)
        let left = !afterSpace && (!afterPunct || beforeSpace || beforePunct)
        let right = !beforeSpace && (!beforePunct || afterSpace || afterPunct)
        let canOpen: Bool
        let canClose: Bool
        if c == Byte.tilde || c == Byte.caret || c == Byte.star {
            canOpen = left
            canClose = right
        } else {
            canOpen = left && (!right || beforePunct)
            canClose = right && (!left || afterPunct)
        }
        flushText()
        let p = appendPiece(.run(start: i, end: j), depth: 1)
        if canOpen || canClose {
            let index = delims.count
            delims.append(Delim(piece: p, char: c, orig: count, count: count, canOpen: canOpen, canClose: canClose,
                                prev: delimTail, next: -1))
            if delimTail >= 0 { delims[delimTail].next = index }
            delimTail = index
            if canClose {
                processEmphasisSoFar()
                settle()
            }
        }
        return j
    }

    func scalar(before i: Int) -> Unicode.Scalar? {
        guard i > 0 else { return nil }
        var s = i - 1
        while s > 0 && buf[s] & 0xC0 == 0x80 && i - s < 4 { s -= 1 }
        return decode(s)
    }

    func scalar(at i: Int) -> Unicode.Scalar? {
        guard i < buf.count else { return nil }
        return decode(i)
    }

    /// The scalar starting at `s` (the buffer holds valid UTF-8).
    private func decode(_ s: Int) -> Unicode.Scalar? {
        let c = UInt32(buf[s])
        if c < 0x80 { return Unicode.Scalar(c) }
        let length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2
        guard s + length <= buf.count else { return nil }
        var value = c & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1 ..< length { value = value << 6 | UInt32(buf[s + k] & 0x3F) }
        return Unicode.Scalar(value)
    }

    static func isWhitespace(_ s: Unicode.Scalar?) -> Bool {
        guard let s else { return true }
        if s.value < 0x80 { return s.value <= 0x20 }
        return s.properties.generalCategory == .spaceSeparator
    }

    static func isPunctuation(_ s: Unicode.Scalar?) -> Bool {
        guard let s else { return false }
        if s.value < 0x80 { return Byte.isASCIIPunctuation(UInt8(s.value)) }
        switch s.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
             .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    mutating func removeDelim(_ d: Int) {
        let p = delims[d].prev
        let n = delims[d].next
        if p >= 0 { delims[p].next = n }
        if n >= 0 { delims[n].prev = p } else { delimTail = p }
        delims[d].prev = -1
        delims[d].next = -1
    }

    // MARK: - Emphasis

    /// How many delimiter characters a match uses, or nil if these two cannot pair.
    private func use(opener o: Delim, closer c: Delim) -> Int? {
        switch o.char {
        case Byte.star, Byte.underscore:
            // CommonMark's "rule of 3".
            if (o.canClose || c.canOpen) && (o.orig + c.orig) % 3 == 0 && !(o.orig % 3 == 0 && c.orig % 3 == 0) {
                return nil
            }
            return o.count >= 2 && c.count >= 2 ? 2 : 1
        case Byte.tilde: return o.count == c.count ? o.count : nil  // GFM: `~x~~` pairs nothing
        case Byte.caret: return 1
        default: return o.count >= 2 && c.count >= 2 ? 2 : nil // `==`
        }
    }

    private func kind(_ char: UInt8, _ used: Int, _ children: [Inline]) -> InlineKind {
        switch (char, used) {
        case (Byte.star, 2): return .strong(children)
        case (Byte.underscore, 2): return .underline(children)
        case (Byte.star, _), (Byte.underscore, _): return .emphasis(children)
        case (Byte.tilde, 2): return .strikethrough(children)
        case (Byte.tilde, _): return .subscript(children)
        case (Byte.caret, _): return .superscript(children)
        default: return .highlight(children)
        }
    }

    /// CommonMark's "process emphasis" over the delimiters above `bottom`, all of which are then dropped.
    mutating func processEmphasis(bottom: Int) {
        var closer = -1
        var d = delimTail
        while d > bottom {
            steps += 1
            closer = d
            d = delims[d].prev
        }
        var openersBottom: [Int: Int] = [:]
        processClosers(from: closer, bottom: bottom, openersBottom: &openersBottom)
        while delimTail > bottom {
            steps += 1
            removeDelim(delimTail)
        }
    }

    /// Outside brackets, each closer is matched as it comes instead of at the paragraph's end, so that what is
    /// settled can be collected and its records reused (`settle`; issue 8). The result is the same: closers are
    /// still taken from left to right, each looking only at the openers before it, which no later delimiter
    /// changes; the per-kind lower bounds stay true as delimiters are only ever added after them or removed.
    /// Closers that came inside a bracket wait for it (its link processes them) or, if it turns out to be text,
    /// for the next call here.
    mutating func processEmphasisSoFar() {
        guard brackets.isEmpty, delimTail >= unprocessedDelims else { return }
        var closer = -1
        var d = delimTail
        while d >= unprocessedDelims {
            steps += 1
            closer = d
            d = delims[d].prev
        }
        unprocessedDelims = delims.count
        var bottoms: [Int: Int] = [:]
        swap(&bottoms, &openersBottomSoFar)
        processClosers(from: closer, bottom: -1, openersBottom: &bottoms)
        swap(&bottoms, &openersBottomSoFar)
    }

    /// The paragraph's end: the closers not yet looked at, then every delimiter left is text.
    mutating func processRemainingEmphasis() {
        brackets = []  // a bracket still open is text
        processEmphasisSoFar()
        while delimTail >= 0 {
            steps += 1
            removeDelim(delimTail)
        }
    }

    /// Takes closers from `start` on, in order, pairing each with the nearest opener above `bottom` it can close.
    private mutating func processClosers(from start: Int, bottom: Int, openersBottom: inout [Int: Int]) {
        var closer = start
        while closer >= 0 {
            steps += 1
            let c = delims[closer]
            if !c.canClose || (c.char == Byte.equals && c.count < 2) {
                closer = c.next
                continue
            }
            let key = Int(c.char) * 8 + (c.canOpen ? 4 : 0) + c.orig % 3
            let lower = max(bottom, openersBottom[key] ?? bottom)
            var opener = c.prev
            var used: Int? = nil
            var mismatched = false
            while opener > lower {
                steps += 1
                let o = delims[opener]
                if o.char == c.char && o.canOpen {
                    if let u = use(opener: o, closer: c) {
                        used = u
                        break
                    }
                    // GFM: the nearest tilde opener decides; of another length, neither pairs (`~~a ~b~~` is text).
                    if c.char == Byte.tilde {
                        mismatched = true
                        break
                    }
                }
                opener = o.prev
            }
            if mismatched {
                // As cmark-gfm: the closer, the opener and every delimiter between them are text from now on.
                let next = c.next
                var d = closer
                while d != opener {
                    steps += 1
                    let previous = delims[d].prev
                    removeDelim(d)
                    d = previous
                }
                removeDelim(opener)
                closer = next
                continue
            }
            guard let used, opener > lower else {
                openersBottom[key] = c.prev
                let next = c.next
                if !c.canOpen { removeDelim(closer) }
                closer = next
                continue
            }
            closer = match(opener: opener, closer: closer, used: used, bottom: bottom)
        }
    }

    /// Wraps the pieces between a matched opener and closer; returns the next closer to look at.
    private mutating func match(opener: Int, closer: Int, used: Int, bottom: Int) -> Int {
        // Delimiters between the two can no longer match anything.
        var between = delims[opener].next
        while between != closer && between >= 0 {
            steps += 1
            let next = delims[between].next
            removeDelim(between)
            between = next
        }
        let po = delims[opener].piece
        let pc = delims[closer].piece
        guard case .run(let os, let oe) = pieces[po].kind, case .run(let cs, let ce) = pieces[pc].kind else {
            removeDelim(opener)
            let next = delims[closer].next
            removeDelim(closer)
            return next
        }
        let (children, depth) = collect(from: pieces[po].next, upTo: pc)
        if depth + 1 > InlineParser.maxDepth {
            // Too deep: keep the delimiters as text and the content as it is. Every later match
            // would enclose this content too, so no opener before the closer may match any more.
            warnTooDeep(os)
            relink(children: children, between: po, and: pc)
            var d = delims[closer].prev
            while d > bottom {
                steps += 1
                let previous = delims[d].prev
                removeDelim(d)
                d = previous
            }
            let next = delims[closer].next
            removeDelim(closer)
            return next
        }
        let node = Inline(kind(delims[opener].char, used, children), range: input.range(oe - used, cs + used))
        let index = pieces.count
        pieces.append(Piece(kind: store(node), depth: depth + 1, prev: po, next: pc))
        pieces[po].next = index
        pieces[pc].prev = index
        delims[opener].count -= used
        delims[closer].count -= used
        pieces[po].kind = .run(start: os, end: oe - used)
        pieces[pc].kind = .run(start: cs + used, end: ce)
        if delims[opener].count == 0 {
            unlinkPiece(po)
            removeDelim(opener)
        }
        if delims[closer].count == 0 {
            unlinkPiece(pc)
            let next = delims[closer].next
            removeDelim(closer)
            return next
        }
        return closer
    }

    mutating func unlinkPiece(_ p: Int) {
        let prev = pieces[p].prev
        let next = pieces[p].next
        if prev >= 0 { pieces[prev].next = next } else { first = next }
        if next >= 0 { pieces[next].prev = prev } else { last = prev }
        pieces[p].kind = .gone
    }

    /// Puts already collected inlines back between piece `a` and piece `b` (-1: at the end) as flat nodes.
    private mutating func relink(children: [Inline], between a: Int, and b: Int) {
        var prev = a
        for child in children {
            steps += 1
            let index = pieces.count
            pieces.append(Piece(kind: store(child), depth: InlineParser.maxDepth, prev: prev, next: b))
            pieces[prev].next = index
            prev = index
        }
        pieces[prev].next = b
        if b >= 0 { pieces[b].prev = prev } else { last = prev }
    }

    /// Turns the pieces from `start` up to (not including) `end` into inlines and marks them used.
    /// Adjacent text is merged through one byte buffer, so long literal stretches cost linear time.
    /// Returns the deepest child depth.
    /// `reserving`: how many inlines the pieces make (`collectedCount`), when the caller counted them.
    mutating func collect(from start: Int, upTo end: Int, reserving: Int? = nil) -> (inlines: [Inline], depth: Int) {
        var out: [Inline] = []
        if let reserving { out.reserveCapacity(reserving) }
        let depth = collect(from: start, upTo: end, into: &out)
        return (out, depth)
    }

    /// `collect`, appending to `out`; returns the deepest child depth.
    @discardableResult
    mutating func collect(from start: Int, upTo end: Int, into out: inout [Inline]) -> Int {
        var depth = 0
        var text: [UInt8] = []
        var textStart: SourceLocation? = nil
        var textEnd: SourceLocation? = nil
        var textEndPos = -1 // buffer offset of the text's end when it came from a run (located lazily)
        var literals: [Int] = []
        // The text so far when it is one text node as made (the space between two links): kept, not made again.
        var single: Inline? = nil
        let input = self.input
        func flush() {
            guard let s = textStart else { return }
            if let whole = single {
                out.append(whole)
                single = nil
                text.removeAll(keepingCapacity: true)
                literals.removeAll()
                textStart = nil
                return
            }
            let e = textEndPos >= 0 ? input.loc(textEndPos) : (textEnd ?? s)
            var inline = Inline(.text(String(decoding: text, as: UTF8.self)), range: SourceRange(start: s, end: e))
            inline.literalOffsets = literals
            out.append(inline)
            text.removeAll(keepingCapacity: true)
            literals.removeAll()
            textStart = nil
        }
        var p = start
        while p >= 0 && p != end {
            steps += 1
            depth = max(depth, pieces[p].depth)
            let next = pieces[p].next
            let kind = pieces[p].kind
            pieces[p].kind = .gone
            switch kind {
            case .node(let index):
                // Moved out, not copied: a copy retains and releases everything the inline holds.
                let inline = takeNode(index)
                if inline.isText, case .text(let t) = inline.kind {
                    if textStart == nil {
                        textStart = inline.range.start
                        single = inline
                    } else {
                        single = nil
                    }
                    if !inline.literalOffsets.isEmpty { literals += inline.literalOffsets.map { $0 + text.count } }
                    text.append(contentsOf: t.utf8)
                    textEnd = inline.range.end
                    textEndPos = -1
                } else {
                    flush()
                    out.append(inline)
                }
            case .run(let s, let e):
                if s < e {
                    single = nil
                    if textStart == nil { textStart = input.loc(s) }
                    text.append(contentsOf: buf[s ..< e])
                    steps += e - s
                    textEndPos = e
                }
            case .gone: break
            }
            p = next
        }
        flush()
        return depth
    }

    /// How many inlines `collect` makes of the pieces from `start` up to `end`: one a node, one a stretch of text.
    /// A paragraph's whole list is counted first so its array is made once at its size, not doubled on the way
    /// (the old and new arrays together held up to three times the inlines: `*a* ` x 2,000,000 makes 4 million).
    func collectedCount(from start: Int, upTo end: Int) -> Int {
        var count = 0
        var inText = false
        var p = start
        while p >= 0 && p != end {
            switch pieces[p].kind {
            case .node(let index):
                if nodes[index].isText {
                    if !inText { count += 1 }
                    inText = true
                } else {
                    count += 1
                    inText = false
                }
            case .run(let s, let e):
                if s < e && !inText {
                    count += 1
                    inText = true
                }
            case .gone: break
            }
            p = pieces[p].next
        }
        return count
    }

    // MARK: - Brackets

    /// `]`: closes the nearest `[` / `![` as a link, image or span when a destination or `{attrs}` follows.
    mutating func closeBracket(_ i: Int) -> Int {
        steps += 1
        guard let bracket = brackets.last else { return literal(i) }
        let index = brackets.count - 1
        let active = bracket.active && (bracket.image || index >= linksDeactivatedBelow)
        func giveUp(_ me: inout InlineParser) -> Int {
            me.brackets.removeLast()
            me.linksDeactivatedBelow = min(me.linksDeactivatedBelow, me.brackets.count)
            return me.literal(i)
        }
        guard active else { return giveUp(&self) }
        let n = buf.count
        var destination: String? = nil
        var attributes = Attributes()
        var end = i + 1
        var isSpan = false
        var scanned = 0
        defer { steps += scanned }
        if end < n && buf[end] == Byte.lparen, let (dest, after) = parseDestination(end, steps: &scanned) {
            destination = dest
            end = after
            if bracket.image, end < n, buf[end] == Byte.lbrace, end + 1 < n, buf[end + 1] != Byte.lbrace,
               let close = AttributeParser.findClose(buf, open: end, end: n, steps: &steps) {
                attributes = parseAttributes(end + 1, close)
                end = close + 1
            } else if !bracket.image, dest.hasPrefix("#"), let open = runStart(bracket.piece), open + 1 == i,
                      end + 1 < n, buf[end] == Byte.lbrace, buf[end + 1] != Byte.lbrace, buf[end + 1] != Byte.percent,
                      let close = AttributeParser.findClose(buf, open: end, end: n, steps: &steps) {
                // `[](#id){ref=page}`: a cross-reference's options (section 5).
                attributes = parseAttributes(end + 1, close)
                end = close + 1
            }
        } else if !bracket.image, end + 1 < n, buf[end] == Byte.lbrace, buf[end + 1] != Byte.lbrace,
                  buf[end + 1] != Byte.percent, let close = AttributeParser.findClose(buf, open: end, end: n, steps: &steps) {
            attributes = parseAttributes(end + 1, close)
            end = close + 1
            isSpan = true
        } else if let start = runStart(bracket.piece),
                  let (dest, after) = reference(textStart: start + (bracket.image ? 2 : 1), close: i) {
            destination = dest
            end = after
        }
        guard destination != nil || isSpan else { return giveUp(&self) }
        let children: [Inline], depth: Int
        if last == bracket.piece, runStart(bracket.piece) != nil {
            // Only plain text since the bracket (`[a]`, `[a](/x)`): it is the content as it stands, without
            // a piece made and collected again (no delimiter can follow the bracket without a piece).
            (children, depth) = takePendingText()
        } else {
            flushText()
            processEmphasis(bottom: bracket.delimBottom)
            guard runStart(bracket.piece) != nil else { return giveUp(&self) }
            (children, depth) = collect(from: pieces[bracket.piece].next, upTo: -1)
        }
        guard let start = runStart(bracket.piece) else { return giveUp(&self) }
        if depth + 1 > InlineParser.maxDepth {
            // Too deep: every open bracket would enclose this content, so all of them become text.
            warnTooDeep(start)
            relink(children: children, between: bracket.piece, and: -1)
            brackets.removeAll()
            linksDeactivatedBelow = 0
            return literal(i)
        }
        let range = input.range(start, end)
        let kind: InlineKind
        if bracket.image {
            kind = .image(ImageReference(alt: plainText(children), path: destination ?? "", attributes: attributes, range: range))
        } else if isSpan {
            kind = .span(content: children, attributes: attributes)
        } else if !attributes.isEmpty {
            let link = Inline(.link(destination: destination ?? "", content: children), range: range)
            kind = .span(content: [link], attributes: attributes)
        } else {
            kind = .link(destination: destination ?? "", content: children)
        }
        var made = Inline(kind, range: range)
        if !bracket.image && !isSpan { lastLinkText = made.shareLinkText(with: lastLinkText) }
        pieces[bracket.piece] = Piece(kind: store(made), depth: depth + 1,
                                      prev: pieces[bracket.piece].prev, next: -1)
        last = bracket.piece
        brackets.removeLast()
        linksDeactivatedBelow = min(linksDeactivatedBelow, brackets.count)
        if !bracket.image && !isSpan { linksDeactivatedBelow = brackets.count }
        processEmphasisSoFar()
        settle()
        return end
    }

    /// Where piece `p` starts when it is still a run (a bracket not yet decided on).
    func runStart(_ p: Int) -> Int? { pieces[p].runStart }

    mutating func parseAttributes(_ s: Int, _ e: Int) -> Attributes {
        let input = self.input
        return AttributeParser.parse(buf, s, e, locate: { input.loc($0) }, diagnostics: &diagnostics)
    }

    /// `(dest)`, `(<dest>)`, `(dest "title")` starting at the `(`; returns the destination and the offset after `)`.
    func parseDestination(_ open: Int, steps: inout Int) -> (String, Int)? {
        let n = buf.count
        var k = open + 1
        defer { steps += k - open }
        while k < n && (Byte.isSpaceOrTab(buf[k]) || buf[k] == Byte.lf) { k += 1 }
        var dest: [UInt8] = []
        let limit = min(n, open + InlineParser.maxDestination)
        if k < n && buf[k] == Byte.lt {
            k += 1
            while k < limit && buf[k] != Byte.gt {
                if buf[k] == Byte.lf || buf[k] == Byte.lt { return nil }
                if buf[k] == Byte.backslash && k + 1 < n && Byte.isASCIIPunctuation(buf[k + 1]) { k += 1 }
                dest.append(buf[k])
                k += 1
            }
            guard k < limit else { return nil }
            k += 1
        } else {
            var depth = 0
            while k < limit {
                let c = buf[k]
                if c <= Byte.space { break }
                if c == Byte.backslash && k + 1 < n && Byte.isASCIIPunctuation(buf[k + 1]) {
                    dest.append(buf[k + 1])
                    k += 2
                    continue
                }
                if c == Byte.lbracket || c == Byte.rbracket { return nil }
                if c == Byte.lparen { depth += 1 }
                if c == Byte.rparen {
                    if depth == 0 { break }
                    depth -= 1
                }
                dest.append(c)
                k += 1
            }
            guard k < limit, depth == 0 else { return nil }
        }
        while k < n && (Byte.isSpaceOrTab(buf[k]) || buf[k] == Byte.lf) { k += 1 }
        if k < n && (buf[k] == Byte.quote || buf[k] == Byte.apostrophe || buf[k] == Byte.lparen) {
            let q = buf[k] == Byte.lparen ? Byte.rparen : buf[k]
            k += 1
            let titleLimit = min(n, k + 1024)
            while k < titleLimit && buf[k] != q {
                if buf[k] == Byte.backslash { k += 1 }
                k += 1
            }
            guard k < titleLimit else { return nil }
            k += 1
            while k < n && (Byte.isSpaceOrTab(buf[k]) || buf[k] == Byte.lf) { k += 1 }
        }
        guard k < n && buf[k] == Byte.rparen else { return nil }
        return (String(decoding: EntityReference.decode(dest.filter { $0 != 0 }), as: UTF8.self), k + 1)
    }
}
