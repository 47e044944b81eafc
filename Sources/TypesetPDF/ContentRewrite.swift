// The tagging stage's edits to cairo's page content, line by line (cairo writes each marked-content operator
// on a line of its own):
// - `/Private << /MCID n >> BDC` (cairo 1.16 refuses an `Artifact` tag) becomes `/Artifact BMC`;
// - cairo's own `/Span << /ActualText ... >> BDC` ... `EMC` (a ligature, an empty line-separator cluster) inside an
//   element's sequence is lifted out of it: the sequence is closed before it, the span gets an MCID of its own,
//   and the sequence reopens after it under another new MCID; the element lists all three in order. Nested
//   inside, a span without an MCID ends the element's sequence for poppler (and readers built like it), which
//   then lose the rest of the paragraph; lifted out, the text reads whole and the ActualText stays;
// - the last glyph of a sequence that ends in a hyphen the line breaker added is split off into a sequence with
//   `/ActualText ()`: copied or read, the word is whole, and the glyph stays where it was drawn;
// - a sequence whose text is in another language than its element's (a span's `lang`) gets `/Lang` in its
//   property list, and so do its continuations (ISO 32000-1, 14.9.2: language of marked content).

import Foundation

enum ContentRewrite {
    struct Result {
        var data: Data
        /// An element's MCID -> the MCIDs its sequence continues under, in order.
        var continuations: [Int: [Int]] = [:]
        /// The next unused MCID of the page.
        var nextMCID: Int
    }

    private static let artifactOpening = Array("/\(TagRecorder.artifactTag) << /MCID ".utf8)
    private static let spanOpening = Array("/Span << /ActualText ".utf8)
    private static let mcidKey = Array(" << /MCID ".utf8)
    private static let bdc = Array(" >> BDC".utf8)
    private static let emc = Array("EMC".utf8)
    private static let artifactLine = Array("/Artifact BMC\n".utf8)
    private static let emcSpanMCID = Array("EMC\n/Span << /MCID ".utf8)
    private static let actualTextKey = Array(" /ActualText ".utf8)
    private static let bdcLine = Array(" >> BDC\n".utf8)
    private static let emcLine = Array("EMC\n".utf8)

    /// `silent`: MCIDs whose sequence ends in a hyphen added at a line end (its glyph gets an empty `/ActualText`).
    /// `languages`: MCIDs whose sequence is in another language than its element, with the language.
    static func rewrite(_ data: Data, firstFreeMCID: Int, silent: Set<Int> = [], languages: [Int: String] = [:]) -> Result {
        // ` /Lang (de)` for each sequence in `languages`, made once a sequence.
        let languageKeys = languages.mapValues { Array(" /Lang \(PDFSyntax.text($0))".utf8) }
        var result = Result(data: Data(), nextMCID: firstFreeMCID)
        // Built in an array, made Data once: Data's append costs some 700 instructions a call, and a page of
        // narrow columns has thousands of lines (a few stream lines each).
        var out: [UInt8] = []
        out.reserveCapacity(data.count + 1024)
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard let base = bytes.baseAddress, bytes.count > 0 else { return }
            var open: (tag: [UInt8], mcid: Int)? = nil
            var inSpan = false
            var lineStart = 0
            while lineStart < bytes.count {
                let end = memchr(base + lineStart, 0x0A, bytes.count - lineStart)
                    .map { UnsafeRawPointer(base).distance(to: UnsafeRawPointer($0)) + 1 } ?? bytes.count
                let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<end])
                let body = line.last == 0x0A ? UnsafeBufferPointer(rebasing: line.dropLast()) : line
                lineStart = end
                let opens = has(body, suffix: bdc)
                if opens, has(body, prefix: artifactOpening) {
                    out.append(contentsOf: artifactLine)
                    continue
                }
                if opens, let outer = open, !inSpan, has(body, prefix: spanOpening) {
                    let k = result.nextMCID
                    result.nextMCID += 1
                    result.continuations[outer.mcid, default: []].append(k)
                    let actualText = body[body.startIndex + spanOpening.count..<body.endIndex - bdc.count]
                    out.append(contentsOf: emcSpanMCID)
                    out.appendInt(k)
                    out.append(contentsOf: actualTextKey)
                    out.append(contentsOf: actualText)
                    if let key = languageKeys[outer.mcid] { out.append(contentsOf: key) }
                    out.append(contentsOf: bdcLine)
                    inSpan = true
                    continue
                }
                if opens, body.first == UInt8(ascii: "/"), let tag = tagWithMCID(body) {
                    open = tag
                    if let key = languageKeys[tag.mcid] {
                        out.append(contentsOf: body[body.startIndex ..< body.endIndex - bdc.count])
                        out.append(contentsOf: key)
                        out.append(contentsOf: bdcLine)
                        continue
                    }
                } else if body.elementsEqual(emc) {
                    if !inSpan, let outer = open, silent.contains(outer.mcid) { splitHyphen(outer, &result, &out) }
                    if inSpan, let outer = open {
                        let m = result.nextMCID
                        result.nextMCID += 1
                        result.continuations[outer.mcid, default: []].append(m)
                        out.append(contentsOf: emcLine)
                        out.append(contentsOf: outer.tag)
                        out.append(contentsOf: mcidKey)
                        out.appendInt(m)
                        if let key = languageKeys[outer.mcid] { out.append(contentsOf: key) }
                        out.append(contentsOf: bdcLine)
                        inSpan = false
                        continue
                    }
                    if !inSpan { open = nil }
                }
                out.append(contentsOf: line)
            }
        }
        result.data = Data(out)
        return result
    }

    /// The sequence ends with the line's last glyph string, `...(re-)]TJ` (a justified line, its glyphs placed one
    /// by one) or `(... re-)Tj` (a ragged one): its final `-` goes into a sequence of its own with an empty
    /// `/ActualText`, in the same text object, so it is drawn exactly where it was. Anything else (a hex string,
    /// another operator after the string) is left as it is.
    private static func splitHyphen(_ outer: (tag: [UInt8], mcid: Int), _ result: inout Result, _ data: inout [UInt8]) {
        // cairo ends the text object before the sequence: `...(re-)]TJ`, then `ET`.
        let ends = [Array("]TJ\nET\n".utf8), Array("]TJ\n".utf8), Array("Tj\nET\n".utf8), Array("Tj\n".utf8)]
        guard let tail = ends.first(where: { data.count > $0.count + 2 && data.suffix($0.count).elementsEqual($0) })
        else { return }
        let array = tail.first == UInt8(ascii: "]")
        var close = data.endIndex - tail.count - 1
        if data[close] == 0x0A { close -= 1 }  // cairo may wrap the array before its `]`
        guard close > data.startIndex, data[close] == UInt8(ascii: ")"), data[close - 1] == UInt8(ascii: "-")
        else { return }
        let m = result.nextMCID
        result.nextMCID += 1
        result.continuations[outer.mcid, default: []].append(m)
        data.removeSubrange((close - 1)...)
        let show = array ? (")]TJ", "[(-)]TJ") : (")Tj", "(-)Tj")
        data.append(contentsOf: Array("\(show.0)\nEMC\n/Span << /MCID \(m) /ActualText () >> BDC\n\(show.1)\n".utf8)
            + tail.dropFirst(array ? 4 : 3))
    }

    /// `/P << /MCID 12 >> BDC` -> (`/P`, 12).
    private static func tagWithMCID(_ line: UnsafeBufferPointer<UInt8>) -> (tag: [UInt8], mcid: Int)? {
        guard let space = line.firstIndex(of: 0x20) else { return nil }
        let after = UnsafeBufferPointer(rebasing: line[space...])
        guard has(after, prefix: mcidKey) else { return nil }
        var n = 0
        var i = space + mcidKey.count
        while i < line.count, line[i] >= 0x30, line[i] <= 0x39 {
            n = n &* 10 &+ Int(line[i] - 0x30)
            i += 1
        }
        return (Array(line[..<space]), n)
    }

    private static func has(_ line: UnsafeBufferPointer<UInt8>, prefix: [UInt8]) -> Bool {
        line.count >= prefix.count && memcmp(line.baseAddress!, prefix, prefix.count) == 0
    }

    private static func has(_ line: UnsafeBufferPointer<UInt8>, suffix: [UInt8]) -> Bool {
        line.count >= suffix.count && memcmp(line.baseAddress! + line.count - suffix.count, suffix, suffix.count) == 0
    }
}
