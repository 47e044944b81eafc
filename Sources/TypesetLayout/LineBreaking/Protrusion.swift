// Character protrusion (optical margins, microtype's `protrusion`): punctuation and a few letters with light
// edges hang partly into the margin at a line's ends, so the column's edge looks straight. Amounts are
// thousandths of the character's own advance, close to microtype's `default` set for the common classes.

enum Protrusion {
    /// (left, right) in thousandths of the glyph's advance, or nil for a character that does not protrude.
    static func factors(_ scalar: UInt32) -> (left: Double, right: Double)? {
        switch scalar {
        case 0x2E, 0x2C: return (0, 700)  // . ,
        case 0x3A, 0x3B: return (0, 500)  // : ;
        case 0x21, 0x3F: return (0, 200)  // ! ?
        case 0x2D, 0x2010, 0x2011: return (400, 700)  // hyphens
        case 0x2013: return (500, 500)  // en dash
        case 0x2014: return (400, 400)  // em dash
        case 0x2026: return (0, 300)  // ellipsis
        case 0x27, 0x22: return (500, 500)  // straight quotes
        case 0x2018, 0x201C: return (700, 500)  // opening quotes
        case 0x2019, 0x201D: return (500, 700)  // closing quotes, apostrophe
        case 0x201A, 0x201E: return (400, 400)  // low quotes
        case 0xAB, 0xBB, 0x2039, 0x203A: return (400, 400)  // guillemets
        case 0x28, 0x5B: return (100, 0)  // ( [
        case 0x29, 0x5D: return (0, 100)  // ) ]
        case 0x41, 0x54, 0x56, 0x57, 0x58, 0x59, 0x4F, 0x51, 0x76, 0x77, 0x79: return (50, 50)  // A T V W X Y O Q v w y
        case 0x43, 0x47: return (50, 0)  // C G
        case 0x4B, 0x4C, 0x46, 0x6B, 0x72: return (0, 50)  // K L F k r
        case 0x74: return (0, 70)  // t
        default: return nil
        }
    }

    /// How far (points) a character of advance `advance` points hangs out at the line's start or end.
    @inline(__always) static func amount(_ scalar: UInt32, advance: Double, atStart: Bool) -> Double {
        guard let f = factors(scalar), advance > 0 else { return 0 }
        return (atStart ? f.left : f.right) / 1000 * advance
    }

    /// The scalar at byte `i` of UTF-8 `text`.
    @inline(__always) static func scalar(_ text: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        let b0 = UInt32(text[i])
        if b0 < 0x80 { return b0 }
        var utf8 = UTF8()
        var iterator = text[i...].makeIterator()
        if case .scalarValue(let s) = utf8.decode(&iterator) { return s.value }
        return 0xFFFD
    }
}
