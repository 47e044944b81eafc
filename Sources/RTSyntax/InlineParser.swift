// Inline grammar (section 5): one left-to-right pass over the bytes of a paragraph (or heading, or cell)
// building a linked list of pieces, with CommonMark's delimiter-stack algorithm for emphasis and brackets
// (closers outside brackets are matched as they come; a long paragraph is collected as it settles).
// Every search is bounded or indexed so that the whole pass is linear in the input.

/// The text of one paragraph/heading/cell as one byte buffer (lines joined with LF), plus the map
/// from buffer positions back to file offsets.
struct InlineInput {
    var buf: [UInt8] = []
    /// Buffer start of each segment and the file offset it came from (sorted by buffer start).
    var segBuf: [Int] = []
    var segFile: [Int] = []
    let src: Source
    /// A pipe table's cell: `\|` is a pipe in code spans too (GFM: the row is split on unescaped pipes first).
    var tableCell = false

    init(src: Source) { self.src = src }

    /// Joins `start..<end` stretches of `src.text` with LF.
    init(src: Source, segments: [(Int, Int)]) {
        self.src = src
        for (k, (s, e)) in segments.enumerated() {
            if k > 0 { buf.append(Byte.lf) }
            segBuf.append(buf.count)
            segFile.append(s)
            if s < e { buf.append(contentsOf: src.text[s ..< e]) }
        }
    }

    func fileOffset(_ p: Int) -> Int {
        guard !segBuf.isEmpty else { return 0 }
        var lo = 0
        var hi = segBuf.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segBuf[mid] <= p { lo = mid } else { hi = mid - 1 }
        }
        return segFile[lo] + (p - segBuf[lo])
    }

    func loc(_ p: Int) -> SourceLocation { src.location(fileOffset(p)) }
    func range(_ s: Int, _ e: Int) -> SourceRange { src.range(fileOffset(s), fileOffset(e)) }
}

struct InlineParser {
    static let maxDepth = 100
    static let maxDestination = 4096

    let input: InlineInput
    let buf: [UInt8]
    var pieces: [Piece] = []
    /// The inlines made so far, by `PieceKind.node` index; `collect` moves each out as it uses it.
    var nodes: [Inline] = []
    var first = -1
    var last = -1
    var delims: [Delim] = []
    var delimTail = -1
    /// Delimiters from this index on have not been looked at as closers (`processEmphasisSoFar`), and the
    /// per-kind lower bounds for openers found so far outside brackets.
    var unprocessedDelims = 0
    var openersBottomSoFar: [Int: Int] = [:]
    /// Inlines already settled (`settle`), and how many were. A long paragraph reserves room for all it can
    /// make (`reserveRecords`), so this array is never copied: its untouched room costs no memory, where blocks
    /// joined at the end held every inline twice (`` `a` `` at the 8 MB bound: 319 MB at that moment).
    var settled: [Inline] = []
    private(set) var settledCount = 0
    /// Room reserved for the paragraph's inlines (`reserveRecords`; 0 for a short paragraph).
    var reservedInlines = 0
    var brackets: [Bracket] = []
    /// Non-image brackets below this index are inactive (a link may not contain a link).
    var linksDeactivatedBelow = 0
    var diagnostics: [Diagnostic] = []
    var deepWarned = false
    /// Work done, in loop iterations over bytes, pieces and delimiters: tests check it grows linearly.
    var steps = 0
    /// The pieces and nodes `run` made, the room it had for them, and the bytes all its records held once
    /// emphasis was settled, before it freed them (tests).
    var spentRecords = (pieces: 0, pieceRoom: 0, nodes: 0, nodeRoom: 0, bytes: 0)
    /// Whether `compactPieces` may copy (tests turn it off to compare), and how many pieces it kept.
    var compactsPieces = true
    var collectedPieces = 0
    /// Link reference definitions known so far, and the labels looked up in vain.
    var definitions: [String: LinkDefinition] = [:]
    var missedLabels: Set<String> = []
    /// The last label looked up, as written, and the destination it found (nil: none): links in a row often
    /// repeat a label, and comparing its bytes costs less than folding and hashing it.
    var lastLabel: [UInt8]? = nil
    var lastLabelDestination: String? = nil
    /// The last link's box of destination and text: a link repeated shares it (`Inline.shareLinkText`).
    var lastLinkText: LinkText? = nil
    /// Footnotes.swift: bracket pairs for `^[...]` (found on first use) and how deep in inline notes this is.
    var footnoteBrackets: [Int: Int]? = nil
    var footnoteDepth = 0

    var textStart = -1
    var textEnd = -1
    var textBytes: [UInt8] = []
    /// Offsets in `textBytes` of escaped `" ' - .` (Inline.literalOffsets).
    var textLiterals: [Int] = []

    /// Positions of maximal backtick runs by length, with a forward-only cursor each (code spans in O(n)).
    var runsByLength: [Int: [Int]] = [:]
    var runCursor: [Int: Int] = [:]

    init(_ input: InlineInput) {
        self.input = input
        self.buf = input.buf
    }

    static func parse(_ input: InlineInput, definitions: [String: LinkDefinition] = [:])
        -> (inlines: [Inline], diagnostics: [Diagnostic], steps: Int, missedLabels: Set<String>) {
        var p = InlineParser(input)
        p.definitions = definitions
        let inlines = HTMLInlines.resolve(p.run(), diagnostics: &p.diagnostics)
        return (inlines, p.diagnostics, p.steps, p.missedLabels)
    }

    static let special: [Bool] = {
        var t = [Bool](repeating: false, count: 256)
        for c in [Byte.backslash, Byte.backtick, Byte.star, Byte.underscore, Byte.tilde, Byte.caret, Byte.equals,
                  Byte.lbracket, Byte.rbracket, Byte.bang, Byte.lt, Byte.lbrace, Byte.tab, Byte.lf, Byte.cr, 0,
                  EntityReference.amp] {
            t[Int(c)] = true
        }
        return t
    }()

    mutating func run() -> [Inline] {
        indexBacktickRuns()
        reserveRecords()
        if buf.count < 1 << 16 { settles = false }
        let n = buf.count
        var i = 0
        while i < n {
            steps += 1
            let c = buf[i]
            if !InlineParser.special[Int(c)] {
                var j = i + 1
                while j < n && !InlineParser.special[Int(buf[j])] { j += 1 }
                steps += j - i
                // Bare links in the run: each candidate is looked at once, failed ones stay text.
                var from = i
                while let k = bareLinkStart(in: from, j) {
                    if let after = bareLink(at: k, textFrom: i) {
                        i = after
                        from = after
                        if after >= j { break }
                    } else {
                        from = k + 1
                    }
                }
                if i < j {
                    addText(i, j, buf[i ..< j])
                    i = j
                }
                continue
            }
            switch c {
            case Byte.backslash: i = escape(i)
            case Byte.backtick: i = codeSpan(i)
            case Byte.caret where i + 1 < n && buf[i + 1] == Byte.lbracket: i = inlineFootnote(i)
            case Byte.star, Byte.underscore, Byte.tilde, Byte.caret, Byte.equals: i = delimiterRun(i)
            case Byte.lbracket:
                if let next = footnoteReference(i) {
                    i = next
                    break
                }
                flushText()
                let p = appendPiece(.run(start: i, end: i + 1), depth: 1)
                brackets.append(Bracket(piece: p, image: false, active: true, delimBottom: delimTail))
                i += 1
            case Byte.bang:
                if i + 1 < n && buf[i + 1] == Byte.lbracket {
                    flushText()
                    let p = appendPiece(.run(start: i, end: i + 2), depth: 1)
                    brackets.append(Bracket(piece: p, image: true, active: true, delimBottom: delimTail))
                    i += 2
                } else {
                    addText(i, i + 1, [c])
                    i += 1
                }
            case Byte.rbracket: i = closeBracket(i)
            case Byte.lt: i = inlineHTML(i) ?? autolink(i)
            case Byte.lbrace: i = variable(i)
            case EntityReference.amp:
                if let (bytes, next) = EntityReference.match(buf, at: i, end: n) {
                    steps += next - i
                    addLiteral(i, next, Array(bytes))
                    i = next
                } else {
                    i = literal(i)
                }
            case Byte.tab:
                flushText()
                appendNode(.tab, i, i + 1)
                i += 1
            case Byte.lf:
                let spaces = trimTrailingSpaces()
                flushText()
                appendNode(spaces >= 2 ? .hardBreak : .softBreak, i, i + 1)
                i += 1
            case 0:
                // A removed comment: skip it, and do not leave a double space behind.
                var j = i
                while j < n && buf[j] == 0 { j += 1 }
                if textBytes.last == Byte.space || textStart == -1 {
                    while j < n && buf[j] == Byte.space { j += 1 }
                }
                i = j
            default: // CR
                i += 1
            }
        }
        _ = trimTrailingSpaces()
        flushText()
        processRemainingEmphasis()
        // Emphasis is settled: delimiters and brackets are not read again, so they go before the inlines are
        // made, and the pieces and nodes as soon as they are (issue 8: `*a* ` x 250,000 held 12 MB of
        // delimiters at its peak, and HTMLInlines.resolve ran beside 41 MB of spent pieces and nodes).
        spentRecords = (pieces.count, pieces.capacity, nodes.count, nodes.capacity, recordBytes)
        delims = []
        brackets = []
        runsByLength = [:]
        runCursor = [:]
        // A long paragraph's inlines are counted once, before the copy: the array is made at its size.
        let count = pieces.count >= 4096 ? collectedCount(from: first, upTo: -1) : nil
        if let count { compactPieces(collecting: count) }
        guard settledCount > 0 else {
            let inlines = collect(from: first, upTo: -1, reserving: count).inlines
            pieces = []
            nodes = []
            return inlines
        }
        var inlines = settled
        settled = []
        if let count { inlines.reserveCapacity(inlines.count + count) }
        collect(from: first, upTo: -1, into: &inlines)
        pieces = []
        nodes = []
        return inlines
    }

    /// Whether `settle` may collect early: only long paragraphs (tests turn it off to compare).
    var settles = true

    /// Once no bracket is open and no delimiter is waiting, nothing made so far can change any more: it is
    /// collected, and the pieces, nodes and delimiters that made it are reused (issue 8: `*a* ` x 2,000,000 held
    /// ten million pieces, four million delimiters and two million nodes until the paragraph ended, beside its
    /// tree). Text at the end stays, to join what follows; so does a text node, which `collect` would merge.
    mutating func settle() {
        guard settles, brackets.isEmpty, delimTail < 0, textStart < 0, last >= 0, pieces.count >= 64,
              case .node(let index) = pieces[last].kind, !nodes[index].isText else { return }
        var out = settled  // moved out and back: `collect` mutates self too
        settled = []
        collect(from: first, upTo: -1, into: &out)
        settledCount = out.count
        settled = out
        pieces.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
        delims.removeAll(keepingCapacity: true)
        first = -1
        last = -1
        unprocessedDelims = 0
        openersBottomSoFar = [:]
        linksDeactivatedBelow = 0
    }

    /// Bytes of records held now: pieces, brackets, delimiters and nodes.
    var recordBytes: Int {
        pieces.count * MemoryLayout<Piece>.stride + brackets.count * MemoryLayout<Bracket>.stride
            + delims.count * MemoryLayout<Delim>.stride + nodes.count * MemoryLayout<Inline>.stride
    }

    /// Once emphasis is settled, most pieces are spent (delimiters used, runs and brackets turned into nodes):
    /// the ones still linked from `first` are copied, in order, into an array of their own size, and the rest
    /// go before the inlines are collected beside them (issue 8: `*a* ` x 250,000 kept 1.25 million pieces,
    /// 25 MB, for 500,000 still linked; at the 8 MB bound the peak went from 731 to 618 MB).
    /// `collecting`: how many inlines the linked pieces make (`collectedCount`).
    mutating func compactPieces(collecting: Int) {
        guard compactsPieces, pieces.count >= 4096 else { return }
        // Not counted in `steps`: two passes over pieces already counted as they were made.
        var linked = 0
        var p = first
        while p >= 0 {
            linked += 1
            p = pieces[p].next
        }
        // Only when it lowers the peak: the copy is made beside the pieces made (room reserved but never used
        // costs no memory: `[a](/x) ` gets room for twice its pieces and uses half), and it is held beside the
        // inlines collected. Text merged into few inlines (`[ a_` x 2,000,000 is one) would only add the copy.
        guard linked * 4 <= pieces.count * 3,
              linked * MemoryLayout<Piece>.stride < collecting * MemoryLayout<Inline>.stride else { return }
        var chain: [Piece] = []
        chain.reserveCapacity(linked)
        p = first
        while p >= 0 {
            var piece = pieces[p]
            p = piece.next
            piece.prev = chain.count - 1
            piece.next = p >= 0 ? chain.count + 1 : -1
            chain.append(piece)
        }
        pieces = chain
        first = linked > 0 ? 0 : -1
        last = linked - 1
        collectedPieces = linked
    }

    // MARK: - Pieces and text

    @discardableResult
    mutating func appendPiece(_ kind: PieceKind, depth: Int) -> Int {
        let index = pieces.count
        pieces.append(Piece(kind: kind, depth: depth, prev: last, next: -1))
        if last >= 0 { pieces[last].next = index } else { first = index }
        last = index
        return index
    }

    mutating func appendNode(_ kind: InlineKind, _ s: Int, _ e: Int) {
        appendPiece(store(Inline(kind, range: input.range(s, e))), depth: 1)
    }

    /// `inline` kept in `nodes`, as a piece kind.
    mutating func store(_ inline: Inline) -> PieceKind {
        nodes.append(inline)
        return .node(nodes.count - 1)
    }

    /// Node `index`, moved out of `nodes` (what it held is released as soon as the caller is done with it).
    mutating func takeNode(_ index: Int) -> Inline {
        var taken = InlineParser.usedNode
        swap(&taken, &nodes[index])
        return taken
    }

    private static let usedNode = Inline(.softBreak, range: SourceRange(at: SourceLocation(file: "", line: 0, column: 0)))

    mutating func addText<C: Sequence>(_ s: Int, _ e: Int, _ bytes: C) where C.Element == UInt8 {
        if textStart < 0 { textStart = s }
        textEnd = e
        textBytes.append(contentsOf: bytes)
    }

    mutating func flushText() {
        guard textStart >= 0 else { return }
        if textLiterals.isEmpty && textEnd - textStart == textBytes.count
            && buf[textStart ..< textEnd].elementsEqual(textBytes) {
            // Text as written: a run of the buffer, as `collect` makes the same text node of it. No node and no
            // string until then (issue 8: `[a` x 4,000,000 is 4 million pieces of text between brackets).
            if !textBytes.isEmpty { appendPiece(.run(start: textStart, end: textEnd), depth: 1) }
        } else if !textBytes.isEmpty {
            var inline = Inline(.text(String(decoding: textBytes, as: UTF8.self)), range: input.range(textStart, textEnd))
            inline.literalOffsets = textLiterals
            appendPiece(store(inline), depth: 1)
        }
        textStart = -1
        textBytes.removeAll(keepingCapacity: true)
        textLiterals.removeAll(keepingCapacity: true)
    }

    /// The pending text as inlines (what `flushText` then `collect` make of it), and their depth.
    mutating func takePendingText() -> (inlines: [Inline], depth: Int) {
        steps += 1
        guard textStart >= 0 else { return ([], 0) }
        var inlines: [Inline] = []
        if !textBytes.isEmpty {
            // Made in the array, not copied into it.
            inlines.append(Inline(.text(String(decoding: textBytes, as: UTF8.self)), range: input.range(textStart, textEnd)))
            if !textLiterals.isEmpty { inlines[0].literalOffsets = textLiterals }
        }
        textStart = -1
        textBytes.removeAll(keepingCapacity: true)
        textLiterals.removeAll(keepingCapacity: true)
        return (inlines, inlines.count)
    }

    /// Literal text that smart punctuation must not touch: an escaped or entity-written `" ' - .`.
    mutating func addLiteral(_ s: Int, _ e: Int, _ bytes: [UInt8]) {
        if bytes.count == 1, InlineParser.smartCharacters.contains(bytes[0]) { textLiterals.append(textBytes.count) }
        addText(s, e, bytes)
    }

    static let smartCharacters: Set<UInt8> = [0x22, 0x27, 0x2D, 0x2E]

    /// Drops spaces at the end of the pending text (before a line break); returns how many.
    mutating func trimTrailingSpaces() -> Int {
        var count = 0
        while textBytes.last == Byte.space {
            textBytes.removeLast()
            count += 1
        }
        if count > 0 { textEnd -= count }
        return count
    }

    mutating func warnTooDeep(_ p: Int) {
        if !deepWarned {
            deepWarned = true
            diagnostics.append(.warning("inline markup nested more than \(InlineParser.maxDepth) levels deep: the inner markup is kept as plain text",
                                        at: input.loc(p)))
        }
    }

    // MARK: - Simple constructs

    mutating func escape(_ i: Int) -> Int {
        let n = buf.count
        guard i + 1 < n else {
            addText(i, i + 1, [Byte.backslash])
            return i + 1
        }
        let d = buf[i + 1]
        if d == Byte.lf {
            _ = trimTrailingSpaces()
            flushText()
            appendNode(.hardBreak, i, i + 1)
            return i + 2
        }
        if d == 0x74 { // \t
            flushText()
            appendNode(.tab, i, i + 2)
            return i + 2
        }
        if d == Byte.space {
            addText(i, i + 2, [0xC2, 0xA0])
            return i + 2
        }
        if Byte.isASCIIPunctuation(d) {
            addLiteral(i, i + 2, [d])
            return i + 2
        }
        addText(i, i + 1, [Byte.backslash])
        return i + 1
    }

    mutating func indexBacktickRuns() {
        var i = 0
        let n = buf.count
        steps += n
        while i < n {
            if buf[i] == Byte.backtick {
                var j = i + 1
                while j < n && buf[j] == Byte.backtick { j += 1 }
                runsByLength[j - i, default: []].append(i)
                i = j
            } else {
                i += 1
            }
        }
    }

    /// Start of the next maximal backtick run of exactly `length` at or after `from`.
    mutating func nextRun(length: Int, from: Int) -> Int? {
        guard let list = runsByLength[length] else { return nil }
        var k = runCursor[length] ?? 0
        let k0 = k
        while k < list.count && list[k] < from { k += 1 }
        steps += k - k0 + 1
        runCursor[length] = k
        return k < list.count ? list[k] : nil
    }

    mutating func codeSpan(_ i: Int) -> Int {
        var j = i
        while j < buf.count && buf[j] == Byte.backtick { j += 1 }
        let length = j - i
        guard let close = nextRun(length: length, from: j) else {
            addText(i, j, buf[i ..< j])
            return j
        }
        var content: [UInt8] = []
        steps += close - i
        content.reserveCapacity(close - j)
        for c in buf[j ..< close] where c != 0 && c != Byte.cr {
            if c == Byte.pipe && input.tableCell && content.last == Byte.backslash { content.removeLast() }
            content.append(c == Byte.lf ? Byte.space : c)
        }
        if content.count >= 2, content.first == Byte.space, content.last == Byte.space,
           content.contains(where: { $0 != Byte.space }) {
            content.removeFirst()
            content.removeLast()
        }
        flushText()
        appendNode(.code(String(decoding: content, as: UTF8.self)), i, close + length)
        // Nothing before a code span changes once no bracket is open and no delimiter waits: collected now, a
        // paragraph of code spans holds its pieces a block at a time, not to its end (`` `a` `` at the 8 MB
        // bound peaked at 370 MB while it parsed).
        settle()
        return close + length
    }

    /// `<https://x>` or `<name@example.com>`; otherwise a literal `<`.
    mutating func autolink(_ i: Int) -> Int {
        let n = buf.count
        var j = i + 1
        let limit = min(n, i + 2048)
        var isURI = false
        if j < n && Byte.isLetter(buf[j]) {
            var k = j + 1
            while k < limit && (Byte.isAlnum(buf[k]) || buf[k] == Byte.plus || buf[k] == Byte.dot || buf[k] == Byte.minus) { k += 1 }
            steps += k - j
            if k < limit && buf[k] == Byte.colon && k - j >= 2 && k - j <= 32 { isURI = true }
        }
        var sawAt = false
        while j < limit {
            steps += 1
            let c = buf[j]
            if c == Byte.gt { break }
            if c <= Byte.space || c == Byte.lt || c == 0x7F { return literal(i) }
            if c == Byte.at { sawAt = true }
            j += 1
        }
        guard j < limit, j > i + 1 else { return literal(i) }
        let body = String(decoding: buf[(i + 1) ..< j], as: UTF8.self)
        let destination: String
        if isURI {
            destination = body
        } else if sawAt, isEmail(buf[(i + 1) ..< j]) {
            destination = "mailto:" + body
        } else {
            return literal(i)
        }
        flushText()
        let content = [Inline(.text(body), range: input.range(i + 1, j))]
        appendNode(.link(destination: destination, content: content), i, j + 1)
        return j + 1
    }

    private func isEmail(_ s: ArraySlice<UInt8>) -> Bool {
        guard let at = s.firstIndex(of: Byte.at), at > s.startIndex, at + 1 < s.endIndex else { return false }
        let local = s[s.startIndex ..< at]
        let domain = s[(at + 1)...]
        let localOK = local.allSatisfy { Byte.isAlnum($0) || ".!#$%&'*+/=?^_`{|}~-".utf8.contains($0) }
        let domainOK = domain.allSatisfy { Byte.isAlnum($0) || $0 == Byte.minus || $0 == Byte.dot }
        return localOK && domainOK && domain.first != Byte.dot
    }

    mutating func literal(_ i: Int) -> Int {
        addText(i, i + 1, [buf[i]])
        return i + 1
    }

    /// `{{name}}`; any other `{` is literal here (attribute blocks are read after `]` and images).
    mutating func variable(_ i: Int) -> Int {
        let n = buf.count
        guard i + 1 < n, buf[i + 1] == Byte.lbrace else { return literal(i) }
        var j = i + 2
        let limit = min(n - 1, i + 258)
        while j < limit && !(buf[j] == Byte.rbrace && buf[j + 1] == Byte.rbrace) {
            if buf[j] == Byte.lf || buf[j] == Byte.lbrace { return literal(i) }
            j += 1
            steps += 1
        }
        guard j < limit else { return literal(i) }
        let name = String(decoding: buf[(i + 2) ..< j], as: UTF8.self).trimmingSpaces
        guard !name.isEmpty else { return literal(i) }
        flushText()
        appendNode(.variable(name: name), i, j + 2)
        return j + 2
    }
}

extension String {
    var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
