// Accumulates one paragraph's text and attribute runs. Appends are amortised O(1): the text is one growing
// String, the UTF-8 length is tracked, and a run is extended instead of added when attributes are unchanged.

import RTSyntax

struct ParagraphBuilder {
    private(set) var text = ""
    private(set) var runs: [AttributeRun] = []
    /// UTF-8 length of `text`.
    private(set) var length = 0
    var attachments: [TextAttachment] = []
    var anchors: [String] = []
    /// Numbers of the footnotes marked in this paragraph.
    var footnoteMarks: [Int] = []
    /// UTF-8 ranges of those marks: a heading's bookmark and `@toc` entry leave them out.
    var footnoteMarkRanges: [Range<Int>] = []
    /// `{{page}}`-style fields of a header/footer line: zero-width markers at UTF-8 offsets.
    var fields: [(offset: Int, field: RunningText.Field, attributes: CharacterAttributes)] = []
    /// `[](#id){ref=page}` placeholders (References.swift).
    var pageReferences: [PageReference] = []

    /// The attribute sets appended last (distinct values) and their shared copies: runs alternate between a
    /// few (body text and links), and comparing in place here costs less than interning (issue 8: a copy of
    /// the 400-byte value and a lock for each of the 500,000 runs of 250,000 links). Compared through a buffer
    /// pointer: an element read from the array was copied for each comparison.
    private var recentAttributes: [CharacterAttributes] = []
    private var recentShared: [Shared<CharacterAttributes>] = []
    private static let recentCount = 4

    mutating func append(_ piece: String, _ attributes: CharacterAttributes) {
        guard !piece.isEmpty else { return }
        append(piece, shared: shared(attributes))
    }

    /// `append(piece, shared.value)`, for attributes shared already.
    mutating func append(_ piece: String, shared given: Shared<CharacterAttributes>) {
        let count = piece.utf8.count
        guard count > 0 else { return }
        let shared = remember(given)
        text.append(piece)
        let last = runs.count - 1
        if last >= 0 && runs[last].range.upperBound == length && Self.same(runs[last].shared, shared, recent: recentShared) {
            runs[last].range = runs[last].range.lowerBound..<(length + count)
        } else {
            runs.append(AttributeRun(range: length..<(length + count), shared: shared))
        }
        length += count
    }

    /// The shared copy of `attributes`: one of `recent`'s, else interned and remembered.
    mutating func shared(_ attributes: CharacterAttributes) -> Shared<CharacterAttributes> {
        if let k = recentIndex(of: attributes) { return recentShared[k] }
        let made = Shared.of(attributes)
        remember(attributes, made)
        return made
    }

    /// `shared`, or the one of `recent`'s with its value, remembered.
    private mutating func remember(_ shared: Shared<CharacterAttributes>) -> Shared<CharacterAttributes> {
        if recentShared.contains(where: { $0 === shared }) { return shared }
        if let k = recentIndex(of: shared.value) { return recentShared[k] }
        remember(shared.value, shared)
        return shared
    }

    private func recentIndex(of attributes: CharacterAttributes) -> Int? {
        recentAttributes.withUnsafeBufferPointer { buffer in
            for k in 0 ..< buffer.count where buffer[k] == attributes { return k }
            return nil
        }
    }

    private mutating func remember(_ attributes: CharacterAttributes, _ shared: Shared<CharacterAttributes>) {
        if recentShared.count >= Self.recentCount {
            recentAttributes.removeFirst()
            recentShared.removeFirst()
        }
        recentAttributes.append(attributes)
        recentShared.append(shared)
    }

    /// Whether a run's attributes equal `found` (one of `recent`). Another of `recent` has a different value
    /// (they are distinct): only a run older than those is compared by value.
    private static func same(_ run: Shared<CharacterAttributes>, _ found: Shared<CharacterAttributes>,
                             recent: [Shared<CharacterAttributes>]) -> Bool {
        if run === found { return true }
        if recent.contains(where: { $0 === run }) { return false }
        return run.value == found.value
    }

    /// Running text: a run of spaces sets as one space (as in LaTeX, Typst and HTML), also across pieces
    /// and soft breaks. Code and verbatim text use `append`, which keeps every space.
    mutating func appendCollapsingSpaces(_ piece: String, _ attributes: CharacterAttributes) {
        guard !piece.isEmpty else { return }
        appendCollapsingSpaces(piece, shared: shared(attributes))
    }

    mutating func appendCollapsingSpaces(_ piece: String, shared: Shared<CharacterAttributes>) {
        let space = UInt8(ascii: " ")
        // A header/footer field just placed counts as text: "Page {{page}} of" keeps both spaces.
        var endsInSpace = text.utf8.last == space && fields.last?.offset != length
        // Most pieces have no space to drop (`a `, `word word`): appended as they are, without a copy.
        var previousSpace = endsInSpace, collapses = false
        for byte in piece.utf8 {
            let isSpace = byte == space
            if isSpace && previousSpace {
                collapses = true
                break
            }
            previousSpace = isSpace
        }
        if !collapses { return append(piece, shared: shared) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(piece.utf8.count)
        for byte in piece.utf8 {
            if byte == space {
                if endsInSpace { continue }
                endsInSpace = true
            } else {
                endsInSpace = false
            }
            bytes.append(byte)
        }
        append(String(decoding: bytes, as: UTF8.self), shared: shared)
    }

    /// U+FFFC for an inline image, with its attachment at that offset.
    mutating func appendAttachment(_ image: ImageAttachment, _ attributes: CharacterAttributes) {
        attachments.append(TextAttachment(offset: length, image: image))
        append("\u{FFFC}", attributes)
    }

    /// The text in storage of its own size. Appending grew it by doubling, and the whole document's IR is alive
    /// until pagination frees it: at 350,000 words about a third of the text's storage was never used (issue 14,
    /// memory). The runs are copied at their size for the same reason.
    static func fitted(_ text: String) -> String {
        let count = text.utf8.count
        guard count > 15 else { return text }  // held in the String itself
        return String(unsafeUninitializedCapacity: count) { buffer in
            var source = text
            return source.withUTF8 { bytes in
                buffer.baseAddress!.update(from: bytes.baseAddress!, count: bytes.count)
                return bytes.count
            }
        }
    }

    /// An empty paragraph keeps one empty run so layout still knows its font (its line height).
    /// `runs` in an array of their size. A large array is handed over as it is: its room never written to was
    /// never given memory (blocks of 256 KB and more are mapped, MallocArenas.swift), and a copy would be held
    /// beside it (issue 8: 24 MB for a paragraph of a million runs).
    static func fitted(_ runs: [AttributeRun]) -> [AttributeRun] {
        if runs.count * MemoryLayout<AttributeRun>.stride >= 256 << 10 { return runs }
        return runs.withUnsafeBufferPointer(Array.init)
    }

    func finish(style: ParagraphStyle, emptyAttributes: CharacterAttributes, location: SourceLocation?) -> AttributedParagraph {
        var paragraph = AttributedParagraph(text: ParagraphBuilder.fitted(text),
                                            runs: runs.isEmpty ? [AttributeRun(range: 0..<0, attributes: emptyAttributes)]
                                                : ParagraphBuilder.fitted(runs),
                                            style: style, attachments: attachments, anchors: anchors, location: location)
        paragraph.pageReferences = pageReferences
        paragraph.footnoteMarks = Array(Set(footnoteMarks)).sorted()
        return paragraph
    }
}
