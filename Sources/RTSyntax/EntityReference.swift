// Entity and numeric character references (`&copy;` `&#169;` `&#xA9;`), as CommonMark reads them: a name from
// the HTML5 list or 1-7 decimal / 1-6 hex digits, always ended by `;`. Anything else stays literal text.

enum EntityReference {
    static let amp: UInt8 = 0x26
    static let semicolon: UInt8 = 0x3B

    /// The UTF-8 bytes a reference starting at `b[i]` (an `&`) stands for, and the offset after its `;`.
    static func match(_ b: [UInt8], at i: Int, end: Int) -> (bytes: [UInt8], end: Int)? {
        guard i + 2 < end, b[i] == amp else { return nil }
        if b[i + 1] == Byte.hash {
            let hex = b[i + 2] | 0x20 == 0x78 // x or X
            var k = hex ? i + 3 : i + 2
            let digitsStart = k
            let maxDigits = hex ? 6 : 7
            var value: UInt32 = 0
            while k < end && k - digitsStart < maxDigits, let d = digit(b[k], hex: hex) {
                value = value * (hex ? 16 : 10) + d
                k += 1
            }
            guard k > digitsStart, k < end, b[k] == semicolon else { return nil }
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (Array(String(Character(scalar ?? "\u{FFFD}")).utf8), k + 1)
        }
        var k = i + 1
        while k < end && k - i <= EntityTable.maxNameLength && Byte.isAlnum(b[k]) { k += 1 }
        guard k > i + 1, k < end, b[k] == semicolon,
              let value = EntityTable.names[String(decoding: b[(i + 1) ..< k], as: UTF8.self)] else { return nil }
        return (Array(value.utf8), k + 1)
    }

    private static func digit(_ c: UInt8, hex: Bool) -> UInt32? {
        if Byte.isDigit(c) { return UInt32(c - 0x30) }
        let lower = c | 0x20
        if hex && lower >= 0x61 && lower <= 0x66 { return UInt32(lower - 0x61 + 10) }
        return nil
    }

    /// `s` with every reference in it replaced (link destinations and titles).
    static func decode(_ s: [UInt8]) -> [UInt8] {
        guard s.contains(amp) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.count)
        var i = 0
        while i < s.count {
            if s[i] == amp, let (bytes, next) = match(s, at: i, end: s.count) {
                out += bytes
                i = next
            } else {
                out.append(s[i])
                i += 1
            }
        }
        return out
    }
}
