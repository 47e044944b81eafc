// Where the line breaker added a hyphen (total-fit breaks insert a real `-`): the tagged PDF marks that hyphen
// as not part of the text, so a copied or spoken word comes out whole.

extension ParagraphLayout {
    /// The byte offset, in the laid-out text, of a hyphen the line breaker added at the end of line `i`.
    public func addedHyphen(line i: Int) -> Int? {
        // A long paragraph is laid out in pieces, each with the edits of its own lines (offsets in its text).
        if pieceSet != nil {
            guard i >= 0 else { return nil }
            let (piece, local) = piece(ofLine: i)
            return piece === self ? nil : piece.addedHyphen(line: local)
        }
        guard !sourceEdits.isEmpty, i >= 0, i < lines.count else { return nil }
        let box = lines[i]
        var shift = 0
        for e in sourceEdits {
            let start = e.offset + shift
            if start >= box.startIndex + box.length { break }
            if start >= box.startIndex, e.inserted.count > 1, e.inserted.first == UInt8(ascii: "-") { return start }
            shift += e.delta
        }
        return nil
    }
}
