// PDF syntax appended as bytes: the tagging stage writes an object or two per link, and string interpolation
// cost more per link than the link's own text (a page of 3,000 links: ~30,000 instructions each). Literals
// are `StaticString`s (one copy of their bytes; `"...".utf8` as a sequence cost ~170 instructions each) and
// numbers are formatted into a few bytes on the stack, then copied at once.

extension Array where Element == UInt8 {
    /// A literal's bytes.
    @inline(__always)
    mutating func append(ascii literal: StaticString) {
        literal.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// A decimal integer (a negative one with its sign).
    mutating func appendInt(_ n: Int) {
        if n >= 0 && n < 10 { return append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: n)) }
        // 20 digits and a sign fit 24 bytes; filled from the end.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        Swift.withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            var v = n.magnitude
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
            } while v > 0
            if n < 0 {
                at -= 1
                buffer[at] = UInt8(ascii: "-")
            }
            append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// `N 0 R`.
    mutating func appendRef(_ n: Int) {
        appendInt(n)
        append(ascii: " 0 R")
    }

    /// `PDFSyntax.text(s)` without the intermediate strings.
    mutating func appendPDFText(_ s: String) {
        var plain = true, escapes = false
        for c in s.utf8 {
            if c < 0x20 || c >= 0x7F { plain = false; break }
            if c == UInt8(ascii: "(") || c == UInt8(ascii: ")") || c == UInt8(ascii: "\\") { escapes = true }
        }
        guard plain else { return append(contentsOf: PDFSyntax.text(s).utf8) }
        append(UInt8(ascii: "("))
        if escapes {
            for c in s.utf8 {
                if c == UInt8(ascii: "(") || c == UInt8(ascii: ")") || c == UInt8(ascii: "\\") { append(UInt8(ascii: "\\")) }
                append(c)
            }
        } else {
            var s = s
            s.withUTF8 { append(contentsOf: $0) }
        }
        append(UInt8(ascii: ")"))
    }

    /// `PDFSyntax.xrefEntry(offset)`: ten digits, generation 0, in use, a two-byte end of line.
    mutating func appendXrefEntry(_ offset: Int) {
        appendWriting(maximum: ByteCursor.xrefEntryMaximum) { $0.putXrefEntry(offset) }
    }
}

extension Array where Element == UInt8 {
    /// Room for at most `maximum` bytes, filled by `write` through a cursor (no capacity check per byte);
    /// only what it writes is kept.
    mutating func appendWriting(maximum: Int, _ write: (inout ByteCursor) -> Void) {
        append(addingCapacity: maximum) { span in
            span.withUnsafeMutableBufferPointer { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                var cursor = ByteCursor(at: base + initialized)
                write(&cursor)
                let written = cursor.at - (base + initialized)
                precondition(written <= buffer.count - initialized, "wrote past the room made")
                initialized += written
            }
        }
    }
}

/// Writes at a pointer into room made beforehand (`appendWriting`); the caller bounds what is written.
struct ByteCursor {
    var at: UnsafeMutablePointer<UInt8>

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        at.pointee = byte
        at += 1
    }

    @inline(__always)
    mutating func put(_ literal: StaticString) {
        let n = literal.utf8CodeUnitCount
        at.update(from: literal.utf8Start, count: n)
        at += n
    }

    /// A string's UTF-8 bytes as they are.
    mutating func put(utf8 s: String) {
        var s = s
        s.withUTF8 { put(bytes: $0) }
    }

    @inline(__always)
    mutating func put(bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        at.update(from: base, count: bytes.count)
        at += bytes.count
    }

    /// A decimal integer (at most 20 bytes).
    mutating func putInt(_ n: Int) {
        if n < 0 { put(UInt8(ascii: "-")) }
        putDigits(n.magnitude)
    }

    mutating func putDigits(_ v: UInt) {
        if v < 10 { return put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v)) }
        if v < 1000 {
            if v >= 100 { put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 100)) }
            put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v / 10 % 10))
            return put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10))
        }
        var digits = 1, t = v
        while t >= 10 { t /= 10; digits += 1 }
        var r = v, k = digits
        repeat {
            k -= 1
            at[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: r % 10)
            r /= 10
        } while k > 0
        at += digits
    }
}

extension ByteCursor {
    /// `N 0 R`.
    mutating func putRef(_ n: Int) {
        putInt(n)
        put(" 0 R")
    }

    /// Bytes of the longest cross-reference entry (an offset of 20 digits).
    static let xrefEntryMaximum = 32

    /// `PDFSyntax.xrefEntry(offset)`: the offset in ten digits (more when it needs them), generation 0, in use.
    mutating func putXrefEntry(_ offset: Int) {
        if offset >= 0 && offset < 10_000_000_000 {
            var v = offset
            var k = 9
            while k >= 0 {
                at[k] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
                v /= 10
                k -= 1
            }
            at += 10
        } else {
            if offset < 0 { for _ in 0 ..< 9 { put(UInt8(ascii: "0")) } }
            putInt(offset)
        }
        put(" 00000 n \n")
    }
}
