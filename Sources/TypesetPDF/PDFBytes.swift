// PDF syntax appended as bytes: the tagging stage writes an object or two per link, and string interpolation
// cost more per link than the link's own text (a page of 3,000 links: ~30,000 instructions each).

extension Array where Element == UInt8 {
    /// A non-negative decimal integer (a negative one with its sign).
    mutating func appendInt(_ n: Int) {
        if n < 0 {
            append(UInt8(ascii: "-"))
            guard n != Int.min else { return append(contentsOf: "9223372036854775808".utf8) }
            return appendInt(-n)
        }
        var divisor = 1
        while divisor <= n / 10 { divisor *= 10 }
        var v = n
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(v / divisor))
            v %= divisor
            divisor /= 10
        }
    }

    /// `N 0 R`.
    mutating func appendRef(_ n: Int) {
        appendInt(n)
        append(contentsOf: " 0 R".utf8)
    }

    /// `PDFSyntax.text(s)` without the intermediate strings.
    mutating func appendPDFText(_ s: String) {
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            append(UInt8(ascii: "("))
            for c in s.utf8 {
                if c == UInt8(ascii: "(") || c == UInt8(ascii: ")") || c == UInt8(ascii: "\\") { append(UInt8(ascii: "\\")) }
                append(c)
            }
            return append(UInt8(ascii: ")"))
        }
        append(contentsOf: PDFSyntax.text(s).utf8)
    }

    /// `PDFSyntax.xrefEntry(offset)`: ten digits, generation 0, in use, a two-byte end of line.
    mutating func appendXrefEntry(_ offset: Int) {
        var digits = 1, v = offset
        while v >= 10 { v /= 10; digits += 1 }
        for _ in 0 ..< Swift.max(0, 10 - digits) { append(UInt8(ascii: "0")) }
        appendInt(offset)
        append(contentsOf: " 00000 n \n".utf8)
    }
}
