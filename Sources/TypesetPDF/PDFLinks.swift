// Link annotations and named destinations, as cairo tags.

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
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                out.append(Character(Unicode.Scalar(byte)))
            default:
                out += CFormat.percentEncoded(byte)
            }
        }
        return out
    }

    /// The URI as cairo 1.16 can write it: it puts the value into a PDF string as it is, so `(`, `)` and `\`
    /// would end or escape the string. Those, spaces, control characters and the characters RFC 3986 never
    /// allows are percent-encoded, and so is non-ASCII text as UTF-8 (an IRI becomes a URI). An existing
    /// `%XX` stays as written.
    static func uriForPDF(_ uri: String) -> String {
        var out = ""
        for byte in uri.utf8 {
            if byte > 0x20 && byte < 0x7F && !mustEncode.contains(byte) {
                out.append(Character(Unicode.Scalar(byte)))
            } else {
                out += CFormat.percentEncoded(byte)
            }
        }
        return out
    }

    private static let mustEncode: Set<UInt8> = Set("()\\<>\"{}|^`".utf8)

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
