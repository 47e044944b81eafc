// PDF dates with the `D:` prefix. cairo 1.16 turns the ISO 8601 date it is given into `(YYYYMMDDHHmmSS...)`
// without `D:` and refuses any other input, so the finished file is patched in place: the two date strings
// in the Info dictionary are rewritten at the same length (spaces pad the rest), and no offset in the file
// moves. The Info object is found through the trailer and the cross-reference table, never by a scan of the
// page content. If anything is not exactly as cairo 1.16 writes it, the file is left as it is (its dates
// still read correctly: the prefix is only recommended by PDF 1.7).

import Foundation

enum PDFDates {
    /// What we hand to cairo: the UTC time with an explicit `+00:00` offset, which cairo writes as
    /// `(YYYYMMDDHHmmSS+00'00)`, 22 bytes: room for `(D:YYYYMMDDHHmmSSZ)` and three spaces.
    static func cairoInput(_ seconds: Int64) -> String { isoDate(seconds) + "+00:00" }

    static func cairoOutput(_ seconds: Int64) -> String { "(" + compact(seconds) + "+00'00)" }

    static func patched(_ seconds: Int64) -> String { "(D:" + compact(seconds) + "Z)   " }

    /// Rewrites `/CreationDate` and `/ModDate` in the Info dictionary of the PDF at `path`.
    static func addPrefix(toPDFAt path: String, seconds: Int64) {
        guard let file = FileHandle(forUpdatingAtPath: path) else { return }
        defer { try? file.close() }
        guard let info = infoObjectOffset(file),
              (try? file.seek(toOffset: info)) != nil,
              let head = try? file.read(upToCount: 64 * 1024),
              let end = head.range(of: Data("endobj".utf8)) else { return }
        let object = head[head.startIndex..<end.lowerBound]
        let old = cairoOutput(seconds), new = patched(seconds)
        guard old.utf8.count == new.utf8.count else { return }
        for key in ["/CreationDate ", "/ModDate "] {
            let needle = Data(("\n   " + key + old + "\n").utf8)
            guard let found = object.range(of: needle) else { continue }
            let at = info + UInt64(found.lowerBound - head.startIndex) + UInt64(("\n   " + key).utf8.count)
            guard (try? file.seek(toOffset: at)) != nil else { return }
            try? file.write(contentsOf: Data(new.utf8))
        }
    }

    /// The byte offset of the Info dictionary's object: `startxref` -> xref table -> the trailer's `/Info N 0 R`
    /// -> entry N of the table (cairo 1.16 writes one subsection starting at object 0).
    static func infoObjectOffset(_ file: FileHandle) -> UInt64? {
        guard let size = try? file.seekToEnd(), size > 0 else { return nil }
        let tailStart = size > 1024 ? size - 1024 : 0
        guard (try? file.seek(toOffset: tailStart)) != nil, let tailData = try? file.readToEnd() else { return nil }
        let tail = String(decoding: tailData, as: UTF8.self)
        guard let xref = number(after: "startxref\n", in: tail), let infoID = number(after: "/Info ", in: tail),
              (try? file.seek(toOffset: xref)) != nil, let header = try? file.read(upToCount: 64) else { return nil }
        let text = String(decoding: header, as: UTF8.self)
        guard text.hasPrefix("xref\n0 "), let count = number(after: "xref\n0 ", in: text), infoID < count,
              let headerEnd = text.range(of: "\n", range: text.index(text.startIndex, offsetBy: 7)..<text.endIndex)
        else { return nil }
        let entryAt = xref + UInt64(text.utf8.distance(from: text.startIndex, to: headerEnd.upperBound)) + infoID * 20
        guard (try? file.seek(toOffset: entryAt)) != nil, let entry = try? file.read(upToCount: 20),
              entry.count == 20, entry[entry.startIndex + 17] == UInt8(ascii: "n") else { return nil }
        return UInt64(String(decoding: entry.prefix(10), as: UTF8.self))
    }

    /// The decimal number right after the last `marker` in `text`.
    static func number(after marker: String, in text: String) -> UInt64? {
        guard let r = text.range(of: marker, options: .backwards) else { return nil }
        return UInt64(text[r.upperBound...].prefix { $0.isASCII && $0.isNumber })
    }

    /// `YYYY-MM-DDThh:mm:ss` in UTC.
    static func isoDate(_ seconds: Int64) -> String {
        let p = parts(seconds), two = { CFormat.padded($0, 2) }
        return CFormat.padded(p.0, 4) + "-" + two(p.1) + "-" + two(p.2) + "T" + two(p.3) + ":" + two(p.4) + ":" + two(p.5)
    }

    static func compact(_ seconds: Int64) -> String {
        let p = parts(seconds), two = { CFormat.padded($0, 2) }
        return CFormat.padded(p.0, 4) + two(p.1) + two(p.2) + two(p.3) + two(p.4) + two(p.5)
    }

    private static func parts(_ seconds: Int64) -> (Int, Int, Int, Int, Int, Int) {
        var t = time_t(min(max(seconds, 0), 253_402_300_799))  // years 1970-9999: four digits
        var tm = tm()
        gmtime_r(&t, &tm)
        return (Int(tm.tm_year) + 1900, Int(tm.tm_mon) + 1, Int(tm.tm_mday), Int(tm.tm_hour), Int(tm.tm_min), Int(tm.tm_sec))
    }
}
