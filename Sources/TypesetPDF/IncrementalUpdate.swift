// The tagging stage's output: cairo's file with the objects the stage changes (catalog, Info, pages, link
// annotations, rewritten content streams) replaced and the ones it adds (structure tree, parent tree, XMP, output
// intent) appended, under one new cross-reference section. Nothing of cairo's file is parsed beyond its
// cross-reference table and the objects named here, which keeps the stage cheap: the objects are copied as byte
// ranges. cairo's own structure tree stays in the file, unreferenced.

import Foundation

struct IncrementalUpdate {
    private let base: Data
    private var body = Data()
    /// Object number -> offset of its new version in the finished file.
    private var offsets: [Int: Int] = [:]
    private(set) var nextNumber: Int
    private let previousXref: Int
    let root: Int
    let info: Int?

    /// `base` is cairo's complete file; its trailer gives /Size, /Root, /Info and the xref offset.
    init(base: Data) throws {
        self.base = base
        let tail = String(decoding: base.suffix(1024), as: UTF8.self)
        func number(after key: String) -> Int? {
            guard let r = tail.range(of: key, options: .backwards) else { return nil }
            return Int(tail[r.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\r" }.prefix { $0.isNumber })
        }
        guard let size = number(after: "/Size"), let root = number(after: "/Root"),
              let xref = number(after: "startxref") else {
            throw QPDFError(description: "cairo's trailer is not as expected")
        }
        nextNumber = size
        self.root = root
        info = number(after: "/Info")
        previousXref = xref
    }

    /// cairo's stream objects written without a filter (with content compression off: form XObjects, ToUnicode
    /// maps), found by looking at each object's dictionary only.
    func unfilteredStreams() -> [Int] {
        guard let objects = Self.objects(in: base, xrefAt: previousXref, count: nextNumber) else { return [] }
        let stream = Array(">>\nstream".utf8), filter = Array("/Filter".utf8)
        return base.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> [Int] in
            let bytes = raw.bindMemory(to: UInt8.self)
            var found: [Int] = []
            for object in objects.ranges {
                let head = bytes[object.range.lowerBound..<min(object.range.upperBound, object.range.lowerBound + 512)]
                guard let at = Self.find(stream, in: head) else { continue }
                if Self.find(filter, in: head[head.startIndex..<at]) == nil { found.append(object.number) }
            }
            return found
        }
    }

    private static func find(_ needle: [UInt8], in hay: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        guard let base = hay.base.baseAddress, hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        let last = hay.endIndex - needle.count
        while i <= last {
            guard let hit = memchr(base + i, Int32(needle[0]), last - i + 1) else { return nil }
            i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            if memcmp(base + i, needle, needle.count) == 0 { return i }
            i += 1
        }
        return nil
    }

    mutating func reserve() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    func replaces(_ number: Int) -> Bool { offsets[number] != nil }

    /// Object `number` (new or replacing cairo's) as `syntax`.
    mutating func put(_ number: Int, _ syntax: String) {
        begin(number)
        body.append(contentsOf: Array(syntax.utf8))
        body.append(contentsOf: Array("\nendobj\n".utf8))
    }

    /// A stream object: `dictionary` entries (without /Length) and its data.
    mutating func putStream(_ number: Int, _ dictionary: String, _ data: Data) {
        begin(number)
        body.append(contentsOf: Array("<< \(dictionary) /Length \(data.count) >>\nstream\n".utf8))
        body.append(data)
        body.append(contentsOf: Array("\nendstream\nendobj\n".utf8))
    }

    private mutating func begin(_ number: Int) {
        offsets[number] = base.count + 1 + body.count
        body.append(contentsOf: Array("\(number) 0 obj\n".utf8))
    }

    /// The whole file: cairo's objects except those this update replaces (cairo's superseded content streams
    /// would otherwise stay as dead weight), the new objects, one cross-reference section for all of them, and a
    /// trailer with a deterministic /ID (a hash of the bytes, so the same input gives the same file). When
    /// cairo's cross-reference table is not the plain one it writes, the update is appended instead.
    func finished() -> Data {
        guard let objects = Self.objects(in: base, xrefAt: previousXref, count: nextNumber) else { return appended() }
        var out = Data(capacity: base.count + body.count + 20 * nextNumber + 256)
        out.append(base.prefix(objects.headerEnd))
        var at: [Int] = Array(repeating: -1, count: nextNumber)
        for object in objects.ranges where offsets[object.number] == nil {
            at[object.number] = out.count
            out.append(base[object.range])
        }
        let bodyStart = out.count, appendedBodyStart = base.count + 1
        for (n, offset) in offsets { at[n] = bodyStart + offset - appendedBodyStart }
        out.append(body)
        guard at.dropFirst().allSatisfy({ $0 >= 0 }) else { return appended() }
        let xrefAt = out.count
        var xref = "xref\n0 \(nextNumber)\n0000000000 65535 f \n"
        for offset in at.dropFirst() { xref += PDFSyntax.xrefEntry(offset) }
        out.append(contentsOf: Array((xref + trailer(id: Self.hash(out), previous: nil, xrefAt: xrefAt)).utf8))
        return out
    }

    private func trailer(id: String, previous: Int?, xrefAt: Int) -> String {
        var trailer = "trailer\n<< /Size \(nextNumber) /Root \(root) 0 R"
        if let info { trailer += " /Info \(info) 0 R" }
        if let previous { trailer += " /Prev \(previous)" }
        return trailer + " /ID [<\(id)> <\(id)>] >>\nstartxref\n\(xrefAt)\n%%EOF\n"
    }

    /// cairo's bytes with the update appended (PDF 1.7, 7.5.6).
    private func appended() -> Data {
        var out = base
        out.append(0x0A)
        out.append(body)
        let xrefAt = out.count
        var xref = "xref\n"
        let numbers = offsets.keys.sorted()
        var i = 0
        while i < numbers.count {
            var j = i
            while j + 1 < numbers.count && numbers[j + 1] == numbers[j] + 1 { j += 1 }
            xref += "\(numbers[i]) \(j - i + 1)\n"
            for n in numbers[i...j] { xref += PDFSyntax.xrefEntry(offsets[n] ?? 0) }
            i = j + 1
        }
        out.append(contentsOf: Array((xref + trailer(id: Self.hash(out), previous: previousXref, xrefAt: xrefAt)).utf8))
        return out
    }

    /// cairo's objects as byte ranges, in file order, from its one-section cross-reference table (`0 N`, every
    /// entry but the first in use): each object runs to the next one or to the table. nil for anything else.
    static func objects(in base: Data, xrefAt: Int, count: Int) -> (headerEnd: Int, ranges: [(number: Int, range: Range<Int>)])? {
        guard xrefAt > 0, xrefAt < base.count else { return nil }
        let head = base[xrefAt..<min(base.count, xrefAt + 40)]
        guard let text = String(bytes: head, encoding: .ascii), text.hasPrefix("xref\n0 ") else { return nil }
        let header = text.dropFirst(7).prefix { $0 != "\n" }
        guard let size = Int(header.trimmingCharacters(in: .whitespaces)), size > 1, size <= count else { return nil }
        let first = xrefAt + 7 + header.utf8.count + 1
        guard first + 20 * size <= base.count else { return nil }
        var entries: [(offset: Int, number: Int)] = []
        entries.reserveCapacity(size)
        for n in 1..<size {
            let e = base.startIndex + first + 20 * n
            guard base[e + 17] == UInt8(ascii: "n"),
                  let offset = Int(String(decoding: base[e..<(e + 10)], as: UTF8.self)),
                  offset > 0, offset < xrefAt else { return nil }
            entries.append((offset, n))
        }
        entries.sort { $0.offset < $1.offset }
        var ranges: [(number: Int, range: Range<Int>)] = []
        for (i, entry) in entries.enumerated() {
            let end = i + 1 < entries.count ? entries[i + 1].offset : xrefAt
            guard end > entry.offset else { return nil }
            ranges.append((entry.number, entry.offset..<end))
        }
        guard let headerEnd = entries.first?.offset else { return nil }
        return (headerEnd, ranges)
    }

    /// 128 bits of FNV-1a (two lanes) as hex: an identifier, not a checksum anyone relies on.
    static func hash(_ data: Data) -> String {
        var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4
        data.withUnsafeBytes { raw in
            for byte in raw.bindMemory(to: UInt8.self) {
                a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
            }
        }
        return String(format: "%016llx%016llx", a, b)
    }
}

/// PDF syntax for values the stage writes itself.
enum PDFSyntax {
    /// A text string: printable ASCII as a literal string (`(`, `)` and `\` escaped), anything else as
    /// UTF-16BE with a byte order mark, in hex.
    static func text(_ s: String) -> String {
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            var out = "("
            for c in s.unicodeScalars {
                if c == "(" || c == ")" || c == "\\" { out.unicodeScalars.append("\\") }
                out.unicodeScalars.append(c)
            }
            return out + ")"
        }
        var out: [UInt8] = Array("<FEFF".utf8)
        for unit in s.utf16 { for shift in [12, 8, 4, 0] { out.append(hexDigits[Int(unit >> UInt16(shift)) & 0xF]) } }
        out.append(UInt8(ascii: ">"))
        return String(decoding: out, as: UTF8.self)
    }

    /// An ASCII byte string (dates, ids) in hex, so no character needs escaping.
    static func ascii(_ s: String) -> String {
        var out: [UInt8] = [UInt8(ascii: "<")]
        for byte in s.utf8 { out += [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]] }
        out.append(UInt8(ascii: ">"))
        return String(decoding: out, as: UTF8.self)
    }

    static func ref(_ n: Int) -> String { "\(n) 0 R" }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// A cross-reference entry: ten-digit offset, generation 0, in use, a two-byte end of line (20 bytes).
    static func xrefEntry(_ offset: Int) -> String {
        let digits = String(offset)
        return String(repeating: "0", count: max(0, 10 - digits.count)) + digits + " 00000 n \n"
    }
}
