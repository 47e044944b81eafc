// Link annotations and named destinations: as cairo tags, except tagged link annotations, which the tagging
// stage writes itself.

import CPangoCairo
import Foundation
import TypesetIR
import TypesetLayout

enum PDFLinks {
    /// One annotation per line piece, each with its own rect, so a link that wraps is clickable on every line.
    static func draw(_ links: [LinkArea], on cr: OpaquePointer) {
        for link in links {
            let rect = "rect=[\(number(link.x)) \(number(link.y)) \(number(link.width)) \(number(link.height))]"
            let attributes: String
            switch link.target {
            case .url(let uri): attributes = "uri='\(escape(uriForPDF(uri)))' \(rect)"
            case .destination(let name): attributes = "dest='\(destinationName(name))' \(rect)"
            }
            cairo_tag_begin(cr, CAIRO_TAG_LINK, attributes)
            cairo_tag_end(cr, CAIRO_TAG_LINK)
        }
    }

    /// A link annotation as the tagging stage writes it (cairo 1.16's keys, its per-link work left out): the
    /// area as /QuadPoints and in whole points as /Rect, no border, the URI action or the named destination.
    /// Written as bytes: string interpolation and `%f` cost more per link than the link's text.
    static func annotation(_ link: LinkArea, structParent: Int, pageHeight h: Double) -> String {
        var out: [UInt8] = []
        appendAnnotation(link, structParent: structParent, pageHeight: h, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendAnnotation(_ link: LinkArea, structParent: Int, pageHeight h: Double, to out: inout [UInt8]) {
        out.appendWriting(maximum: annotationMaximum(link)) { putAnnotation(link, structParent: structParent, pageHeight: h, to: &$0) }
    }

    /// Bounds: the literals (under 200 bytes), ten numbers (at most 18 bytes each), the target (3 bytes a
    /// byte when percent-encoded) and the contents (4 hex digits a byte at most).
    static func annotationMaximum(_ link: LinkArea) -> Int {
        let target: Int
        switch link.target {
        case .url(let uri): target = uri.utf8.count
        case .destination(let name): target = name.utf8.count
        }
        return 512 + 3 * target + 4 * ("Link to #".utf8.count + target)
    }

    /// The annotation through a cursor with `annotationMaximum(link)` bytes of room.
    static func putAnnotation(_ link: LinkArea, structParent: Int, pageHeight h: Double, to out: inout ByteCursor) {
        let a = link
        let left = a.x, right = a.x + a.width, top = h - a.y, bottom = h - (a.y + a.height)
        out.put("<< /Type /Annot /Subtype /Link /Rect [")
        putNumber(left.rounded(.down), to: &out)
        out.put(0x20)
        putNumber(h - (a.y + a.height).rounded(.up), to: &out)
        out.put(0x20)
        putNumber(right.rounded(.up), to: &out)
        out.put(0x20)
        putNumber(h - a.y.rounded(.down), to: &out)
        out.put("] /QuadPoints [")
        // Each corner coordinate is written twice: formatted once, then its bytes copied.
        let leftBytes = putNumberKeeping(left, to: &out)
        out.put(0x20)
        let topBytes = putNumberKeeping(top, to: &out)
        out.put(0x20)
        let rightBytes = putNumberKeeping(right, to: &out)
        out.put(0x20)
        out.put(bytes: topBytes)
        out.put(0x20)
        out.put(bytes: rightBytes)
        out.put(0x20)
        let bottomBytes = putNumberKeeping(bottom, to: &out)
        out.put(0x20)
        out.put(bytes: leftBytes)
        out.put(0x20)
        out.put(bytes: bottomBytes)
        out.put("] /BS << /W 0 >> ")
        switch a.target {
        case .url(let uri):
            out.put("/A << /Type /Action /S /URI /URI (")
            var uri = uri
            uri.withUTF8 { bytes in
                for byte in bytes {
                    if byte > 0x20 && byte < 0x7F && !mustEncode[Int(byte)] { out.put(byte) } else { putPercentEncoded(byte, to: &out) }
                }
            }
            out.put(") >>")
        case .destination(let name):
            out.put("/Dest (")
            for byte in name.utf8 {
                if isNameByte(byte) { out.put(byte) } else { putPercentEncoded(byte, to: &out) }
            }
            out.put(UInt8(ascii: ")"))
        }
        out.put(" /StructParent ")
        // `putNumber(Double(structParent))` for the keys a file can have (below 10^12): the integer as it is.
        if structParent >= 0 && structParent < 1_000_000_000_000 { out.putInt(structParent) } else { putNumber(Double(structParent), to: &out) }
        out.put(" /Contents ")
        // Made here, not kept a link until the tagging stage (16 bytes a link, and a string for a long URL).
        switch link.target {
        case .url(let uri): putPDFText("Link to \(uri)", to: &out)
        case .destination(let name): putPDFText("Link to #\(name)", to: &out)
        }
        out.put(" /F 4 >>")
    }

    /// `putNumber`, returning the bytes it wrote (they stay valid while the room they are in is written).
    private static func putNumberKeeping(_ v: Double, to out: inout ByteCursor) -> UnsafeBufferPointer<UInt8> {
        let start = out.at
        putNumber(v, to: &out)
        return UnsafeBufferPointer(start: start, count: out.at - start)
    }

    /// `appendNumber` through a cursor.
    static func putNumber(_ v: Double, to out: inout ByteCursor) {
        let scaled = (v * 1000).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return out.put(UInt8(ascii: "0")) }
        let m = Int(scaled)
        if m < 0 { out.put(UInt8(ascii: "-")) }
        out.putDigits(m.magnitude / 1000)
        var fraction = m.magnitude % 1000
        guard fraction != 0 else { return }
        // Up to three decimals, without trailing zeros.
        out.put(UInt8(ascii: "."))
        out.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 100))
        let last = fraction % 10
        fraction = fraction / 10 % 10
        if fraction != 0 || last != 0 { out.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction)) }
        if last != 0 { out.put(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: last)) }
    }

    /// `CFormat.percentEncoded(byte)`: `%` and two uppercase hex digits.
    static func putPercentEncoded(_ byte: UInt8, to out: inout ByteCursor) {
        out.put(UInt8(ascii: "%"))
        out.put(hexDigits[Int(byte >> 4)])
        out.put(hexDigits[Int(byte & 15)])
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// `PDFSyntax.text(s)` through a cursor (at most 4 bytes a byte of `s`, and 8 more).
    static func putPDFText(_ s: String, to out: inout ByteCursor) {
        var s = s
        let plain = s.withUTF8 { bytes -> Bool in
            for c in bytes where c < 0x20 || c >= 0x7F { return false }
            out.put(UInt8(ascii: "("))
            for c in bytes {
                if c == UInt8(ascii: "(") || c == UInt8(ascii: ")") || c == UInt8(ascii: "\\") { out.put(UInt8(ascii: "\\")) }
                out.put(c)
            }
            out.put(UInt8(ascii: ")"))
            return true
        }
        if !plain { out.put(utf8: PDFSyntax.text(s)) }
    }

    /// A PDF number to a thousandth of a point, without trailing zeros (`12.5`, `-3`); in integer arithmetic,
    /// identical on every run and much cheaper per link than the C library's `%f`.
    static func pdfNumber(_ v: Double) -> String {
        var out: [UInt8] = []
        appendNumber(v, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendNumber(_ v: Double, to out: inout [UInt8]) {
        let scaled = (v * 1000).rounded()
        guard scaled.isFinite, abs(scaled) < 1e15 else { return out.append(UInt8(ascii: "0")) }
        let m = Int(scaled)
        var whole = m.magnitude / 1000, fraction = m.magnitude % 1000
        // At most 13 digits, a sign, a point and 3 decimals: formatted from the end into 24 bytes, copied once.
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
        withUnsafeMutableBytes(of: &digits) { buffer in
            var at = buffer.count
            if fraction != 0 {
                var places = 3
                while fraction % 10 == 0 { fraction /= 10; places -= 1 }
                for _ in 0 ..< places {
                    at -= 1
                    buffer[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction % 10)
                    fraction /= 10
                }
                at -= 1
                buffer[at] = UInt8(ascii: ".")
            }
            repeat {
                at -= 1
                buffer[at] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole % 10)
                whole /= 10
            } while whole > 0
            if m < 0 {
                at -= 1
                buffer[at] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[at...]))
        }
    }

    /// cairo 1.16 adds the extents of each drawing on a page to one region, at a cost that grows with the
    /// rectangles the region holds: a page of thousands of links (a text run for each and one for each space
    /// between) costs the square of their number. A first drawing over the whole page that paints nothing (the
    /// page's rectangle twice, filled even-odd; white in case a viewer differs) leaves one rectangle that holds
    /// every later one, which pixman takes in at once.
    static func analysisCover(width: Double, height: Double, on cr: OpaquePointer) {
        cairo_save(cr)
        cairo_set_fill_rule(cr, CAIRO_FILL_RULE_EVEN_ODD)
        cairo_set_source_rgb(cr, 1, 1, 1)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_rectangle(cr, 0, 0, width, height)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    /// From this many links on a page the cover pays (below, the page's content stream stays as it was).
    static let analysisCoverLinks = 100
    /// From this many glyph runs on a page it pays too: text that changes font every word (`*a* ` x 250,000
    /// spent 6.6 of its 9.4 s in these unions, issue 8). No page of the examples or the bench reports has as many.
    static let analysisCoverRuns = 1_000

    /// Whether `page` wants the cover: many links, or many glyph runs (Pango runs of its lines, each drawn alone).
    static func wantsAnalysisCover(_ page: Page) -> Bool {
        if page.links.count >= analysisCoverLinks { return true }
        var runs = 0
        for line in page.lines {
            var run = line.paragraph.pangoLine(line.lineIndex).pointee.runs
            while let node = run {
                runs += 1
                if runs >= analysisCoverRuns { return true }
                run = node.pointee.next
            }
        }
        return false
    }

    /// Named destinations at their points (targets of internal links and bookmarks).
    static func draw(_ destinations: [NamedDestination], on cr: OpaquePointer) {
        for destination in destinations {
            let attributes = "name='\(destinationName(destination.name))' x=\(number(destination.x)) y=\(number(destination.y))"
            cairo_tag_begin(cr, CAIRO_TAG_DEST, attributes)
            cairo_tag_end(cr, CAIRO_TAG_DEST)
        }
    }

    /// The PDF name of a destination: ids are ASCII-safe as they are; other bytes become `%XX`. Cairo 1.16
    /// writes the name tree's keys as UTF-8 but link and outline targets as UTF-16, so a non-ASCII id would
    /// never match its destination.
    static func destinationName(_ id: String) -> String {
        var out = ""
        for byte in id.utf8 {
            if isNameByte(byte) { out.append(Character(Unicode.Scalar(byte))) } else { out += CFormat.percentEncoded(byte) }
        }
        return out
    }

    /// A byte a destination name keeps as it is.
    static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// The URI as cairo 1.16 can write it: it puts the value into a PDF string as it is, so `(`, `)` and `\`
    /// would end or escape the string. Those, spaces, control characters and the characters RFC 3986 never
    /// allows are percent-encoded, and so is non-ASCII text as UTF-8 (an IRI becomes a URI). An existing
    /// `%XX` stays as written.
    static func uriForPDF(_ uri: String) -> String {
        var out: [UInt8] = []
        appendURIForPDF(uri, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    static func appendURIForPDF(_ uri: String, to out: inout [UInt8]) {
        for byte in uri.utf8 {
            if byte > 0x20 && byte < 0x7F && !mustEncode[Int(byte)] {
                out.append(byte)
            } else {
                out.append(contentsOf: CFormat.percentEncoded(byte).utf8)
            }
        }
    }

    private static let mustEncode: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in "()\\<>\"{}|^`".utf8 { table[Int(byte)] = true }
        return table
    }()

    /// Cairo attribute strings quote with `'`; a quote or backslash inside is escaped with a backslash.
    static func escape(_ value: String) -> String {
        guard value.contains(where: { $0 == "'" || $0 == "\\" }) else { return value }
        var out = ""
        for ch in value {
            if ch == "'" || ch == "\\" { out.append("\\") }
            out.append(ch)
        }
        return out
    }

    /// A fixed-precision number: locale-free and identical from run to run.
    static func number(_ v: Double) -> String { CFormat.fixed(v, decimals: 3) }
}
