// The inline parser's working records, packed (issue 8: memory). Input made of nothing but brackets or
// delimiters (`[a` x 4,000,000, `*a **a`, `[ a_`) keeps one piece per few bytes and one bracket or delimiter per
// opener until the paragraph ends: 112, 24 and 56 bytes each took 1.1 GB at the 8 MB input bound; 20, 8 and 24
// bytes keep it under 300 MB. Offsets and indexes are stored as Int32: a paragraph is at most the 8 MB input bound
// (InputLimits), so no offset, piece or delimiter index comes near 2^31. Callers see Ints.

extension InlineParser {
    enum PieceKind {
        /// An inline made: its index in `nodes`.
        case node(Int)
        /// Source text not yet decided on (delimiter runs and brackets), or text exactly as written.
        case run(start: Int, end: Int)
        case gone
    }

    struct Piece {
        private var a: Int32, b: Int32
        private var before: Int32, after: Int32
        private var tag: UInt8
        /// Nesting depth of the inlines in it: at most `maxDepth` + 1.
        private var levels: UInt8

        init(kind: PieceKind, depth: Int, prev: Int, next: Int) {
            (a, b, tag) = (0, 0, 0)
            (before, after, levels) = (Int32(truncatingIfNeeded: prev), Int32(truncatingIfNeeded: next), 0)
            self.kind = kind
            self.depth = depth
        }

        var kind: PieceKind {
            get {
                switch tag {
                case 1: return .node(Int(a))
                case 2: return .run(start: Int(a), end: Int(b))
                default: return .gone
                }
            }
            set {
                switch newValue {
                case .node(let index): (tag, a, b) = (1, Int32(truncatingIfNeeded: index), 0)
                case .run(let start, let end): (tag, a, b) = (2, Int32(truncatingIfNeeded: start), Int32(truncatingIfNeeded: end))
                case .gone: (tag, a, b) = (0, 0, 0)
                }
            }
        }

        /// Where the piece starts when it is a run.
        var runStart: Int? { tag == 2 ? Int(a) : nil }

        var depth: Int {
            get { Int(levels) }
            set { levels = UInt8(clamping: newValue) }
        }
        var prev: Int {
            get { Int(before) }
            set { before = Int32(truncatingIfNeeded: newValue) }
        }
        var next: Int {
            get { Int(after) }
            set { after = Int32(truncatingIfNeeded: newValue) }
        }
    }

    struct Delim {
        private var pieceIndex: Int32, original: Int32, left: Int32, before: Int32, after: Int32
        let char: UInt8
        var canOpen: Bool
        var canClose: Bool

        init(piece: Int, char: UInt8, orig: Int, count: Int, canOpen: Bool, canClose: Bool, prev: Int, next: Int) {
            pieceIndex = Int32(truncatingIfNeeded: piece)
            original = Int32(truncatingIfNeeded: orig)
            left = Int32(truncatingIfNeeded: count)
            before = Int32(truncatingIfNeeded: prev)
            after = Int32(truncatingIfNeeded: next)
            self.char = char
            self.canOpen = canOpen
            self.canClose = canClose
        }

        var piece: Int { Int(pieceIndex) }
        /// The run's length as written.
        var orig: Int { Int(original) }
        /// Characters of the run not used by a match yet.
        var count: Int {
            get { Int(left) }
            set { left = Int32(truncatingIfNeeded: newValue) }
        }
        var prev: Int {
            get { Int(before) }
            set { before = Int32(truncatingIfNeeded: newValue) }
        }
        var next: Int {
            get { Int(after) }
            set { after = Int32(truncatingIfNeeded: newValue) }
        }
    }

    struct Bracket {
        /// The piece's index, with `image` in bit 30 and `active` in bit 31 (an index stays below 2^25).
        private var bits: UInt32
        private var bottom: Int32
        private static let imageBit: UInt32 = 1 << 30, activeBit: UInt32 = 1 << 31

        init(piece: Int, image: Bool, active: Bool, delimBottom: Int) {
            bits = UInt32(truncatingIfNeeded: piece) & (Bracket.imageBit - 1)
            bottom = Int32(truncatingIfNeeded: delimBottom)
            if image { bits |= Bracket.imageBit }
            if active { bits |= Bracket.activeBit }
        }

        var piece: Int { Int(bits & (Bracket.imageBit - 1)) }
        var image: Bool { bits & Bracket.imageBit != 0 }
        var active: Bool { bits & Bracket.activeBit != 0 }
        /// The last delimiter before the bracket: emphasis inside a link is processed down to it.
        var delimBottom: Int { Int(bottom) }
    }
}

extension InlineParser {
    /// For a long paragraph, room for every piece, bracket and delimiter it can make, counted in one pass, so
    /// the arrays are not grown by doubling (old and new buffers alive at once: up to 1.5 times the records).
    /// Each special byte makes at most one piece and one piece of text before it.
    mutating func reserveRecords() {
        guard buf.count >= 1 << 16 else { return }
        var specials = 0, opens = 0, delimiters = 0
        for byte in buf where InlineParser.special[Int(byte)] {
            specials += 1
            switch byte {
            case Byte.lbracket: opens += 1
            case Byte.star, Byte.underscore, Byte.tilde, Byte.caret, Byte.equals: delimiters += 1
            default: break
            }
        }
        pieces.reserveCapacity(2 * specials + 1)
        brackets.reserveCapacity(opens)
        delims.reserveCapacity(delimiters)
    }
}
