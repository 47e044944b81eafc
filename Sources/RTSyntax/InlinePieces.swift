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
        /// A node's index (`a`), or a run's start and end.
        @Packed private var a: Int
        @Packed private var b: Int
        @Packed var prev: Int
        @Packed var next: Int
        private var tag: UInt8
        /// Nesting depth of the inlines in it: at most `maxDepth` + 1.
        private var levels: UInt8

        init(kind: PieceKind, depth: Int, prev: Int, next: Int) {
            (a, b, tag, levels) = (0, 0, 0, 0)
            self.prev = prev
            self.next = next
            self.kind = kind
            self.depth = depth
        }

        var kind: PieceKind {
            get {
                switch tag {
                case 1: return .node(a)
                case 2: return .run(start: a, end: b)
                default: return .gone
                }
            }
            set {
                switch newValue {
                case .node(let index): (tag, a, b) = (1, index, 0)
                case .run(let start, let end): (tag, a, b) = (2, start, end)
                case .gone: (tag, a, b) = (0, 0, 0)
                }
            }
        }

        /// Where the piece starts when it is a run.
        var runStart: Int? { tag == 2 ? a : nil }

        var depth: Int {
            get { Int(levels) }
            set { levels = UInt8(clamping: newValue) }
        }
    }

    struct Delim {
        @Packed var piece: Int
        /// The run's length as written.
        @Packed var orig: Int
        /// Characters of the run not used by a match yet.
        @Packed var count: Int
        @Packed var prev: Int
        @Packed var next: Int
        let char: UInt8
        var canOpen: Bool
        var canClose: Bool

        init(piece: Int, char: UInt8, orig: Int, count: Int, canOpen: Bool, canClose: Bool, prev: Int, next: Int) {
            self.piece = piece
            self.orig = orig
            self.count = count
            self.prev = prev
            self.next = next
            self.char = char
            self.canOpen = canOpen
            self.canClose = canClose
        }
    }

    struct Bracket {
        /// The piece's index, with `image` in bit 30 and `active` in bit 31 (an index stays below 2^25).
        private var bits: UInt32
        /// The last delimiter before the bracket: emphasis inside a link is processed down to it.
        @Packed var delimBottom: Int
        private static let imageBit: UInt32 = 1 << 30, activeBit: UInt32 = 1 << 31

        init(piece: Int, image: Bool, active: Bool, delimBottom: Int) {
            bits = UInt32(truncatingIfNeeded: piece) & (Bracket.imageBit - 1)
            if image { bits |= Bracket.imageBit }
            if active { bits |= Bracket.activeBit }
            self.delimBottom = delimBottom
        }

        var piece: Int { Int(bits & (Bracket.imageBit - 1)) }
        var image: Bool { bits & Bracket.imageBit != 0 }
        var active: Bool { bits & Bracket.activeBit != 0 }
    }
}

/// An index or offset held in 32 bits (see the file comment for why it fits): the records' one conversion,
/// checked in debug builds and tests; clamped, never truncated or trapping, in release builds.
@propertyWrapper
struct Packed {
    private var value: Int32

    init(wrappedValue: Int) { value = Packed.narrow(wrappedValue) }

    var wrappedValue: Int {
        get { Int(value) }
        set { value = Packed.narrow(newValue) }
    }

    private static func narrow(_ value: Int) -> Int32 {
        assert(Int32(exactly: value) != nil, "an inline parser index past 2^31")
        return Int32(clamping: value)
    }
}

extension InlineParser {
    /// For a long paragraph, room for every piece, bracket, delimiter and emphasis node it can make, counted in
    /// one pass, so the arrays are not grown by doubling (old and new buffers alive at once: up to three times the
    /// records). Each special byte makes at most one piece and one piece of text before it.
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
        // An emphasis match adds a piece and a node, and uses at least two delimiter characters.
        pieces.reserveCapacity(2 * specials + delimiters / 2 + 1)
        // Each piece makes at most one of the paragraph's inlines (settled ones, InlineParser.settled).
        reservedInlines = 2 * specials + delimiters / 2 + 1
        settled.reserveCapacity(reservedInlines)
        nodes.reserveCapacity(delimiters / 2)
        brackets.reserveCapacity(opens)
        delims.reserveCapacity(delimiters)
    }
}
