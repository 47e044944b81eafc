// A character no font can draw is found by the layout, which knows its paragraph but not where in the source
// the character was written. RT section 1 wants the warning at the character's (first) location: each such
// warning is moved from its paragraph's start to the first occurrence of the character in the source file
// after it, all of a file's found in one pass over it. A character that came from a variable's value is not in
// the file there, and keeps the paragraph. The letters of one word stay one warning, at the word's first
// (UnknownGlyphs.summarized groups warnings of one place): a word of a script without a font is one warning.

import RTSyntax
import TypesetLayout

enum GlyphWarningPlaces {
    struct Place { var line: Int; var column: Int; var offset: Int }

    static func located(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        // Per file: the warnings' characters and where their paragraphs start.
        var wanted: [String: [(index: Int, scalar: UInt32, from: SourceLocation)]] = [:]
        for (index, d) in diagnostics.enumerated() {
            guard UnknownGlyphs.isUnknownGlyph(d), let at = d.location, let scalar = UnknownGlyphs.scalar(in: d) else { continue }
            wanted[at.file, default: []].append((index, scalar.value, at))
        }
        var out = diagnostics
        for (file, list) in wanted.sorted(by: { $0.key < $1.key }) {
            guard case .success(let bytes) = InputReader.contents(ofFile: file) else { continue }
            let places = find(list.map { ($0.scalar, $0.from) }, in: bytes)
            // Letters of one word (nothing at or below a space between them in the file) take the word's place.
            let found = list.indices.compactMap { k in places[k].map { (index: list[k].index, place: $0) } }
                .sorted { $0.place.offset < $1.place.offset }
            var start: Place? = nil, previous: Int? = nil
            for f in found {
                if let p = previous, let s = start, !bytes[p ..< f.place.offset].contains(where: { $0 <= 0x20 }) {
                    out[f.index].location = SourceLocation(file: file, line: s.line, column: s.column)
                } else {
                    start = f.place
                    out[f.index].location = SourceLocation(file: file, line: f.place.line, column: f.place.column)
                }
                previous = f.place.offset
            }
        }
        return out
    }

    /// For each (character, paragraph start): the character's first place at or after the start, in one pass
    /// (columns in characters, as diagnostics count them).
    static func find(_ items: [(scalar: UInt32, from: SourceLocation)], in bytes: [UInt8]) -> [Place?] {
        var result = [Place?](repeating: nil, count: items.count)
        var open: [UInt32: [Int]] = [:]
        for (k, item) in items.enumerated() { open[item.scalar, default: []].append(k) }
        var remaining = items.count
        var line = 1, column = 1, i = 0
        let n = bytes.count
        if n >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { i = 3 }  // a BOM is no character
        while i < n && remaining > 0 {
            let c = bytes[i]
            var length = 1, value = UInt32(c)
            if c >= 0xF0 { length = 4; value = UInt32(c & 0x07) } else if c >= 0xE0 { length = 3; value = UInt32(c & 0x0F) }
            else if c >= 0xC0 { length = 2; value = UInt32(c & 0x1F) }
            if length > 1 {
                guard i + length <= n else { break }
                for j in 1 ..< length { value = value << 6 | UInt32(bytes[i + j] & 0x3F) }
            }
            if let waiting = open[value] {
                var still: [Int] = []
                for k in waiting {
                    let from = items[k].from
                    if line > from.line || (line == from.line && column >= from.column) {
                        result[k] = Place(line: line, column: column, offset: i)
                        remaining -= 1
                    } else {
                        still.append(k)
                    }
                }
                open[value] = still.isEmpty ? nil : still
            }
            if c == 0x0A || (c == 0x0D && !(i + 1 < n && bytes[i + 1] == 0x0A)) {
                line += 1
                column = 1
            } else if c != 0x0D {
                column += 1
            }
            i += length
        }
        return result
    }
}
