// The tagging stage's output: an incremental update appended to cairo's file (PDF 1.7, 7.5.6) holding the
// objects it changes (catalog, Info, pages, link annotations, rewritten content streams) and the ones it adds
// (structure tree, parent tree, XMP, output intent), with a cross-reference section and a trailer pointing
// back at cairo's. Nothing of cairo's file is parsed or rewritten beyond the objects named here, which keeps the
// stage cheap; the price is that cairo's superseded content streams and its own structure tree stay in the
// file, unreferenced.

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

    mutating func reserve() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

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

    /// The whole file: cairo's bytes, the new objects, one cross-reference subsection per run of numbers, and
    /// a trailer with a deterministic /ID (a hash of the bytes, so the same input gives the same file).
    func finished() -> Data {
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
        let id = Self.hash(out)
        var trailer = "trailer\n<< /Size \(nextNumber) /Root \(root) 0 R"
        if let info { trailer += " /Info \(info) 0 R" }
        trailer += " /Prev \(previousXref) /ID [<\(id)> <\(id)>] >>\nstartxref\n\(xrefAt)\n%%EOF\n"
        out.append(contentsOf: Array((xref + trailer).utf8))
        return out
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
        return CFormat.hex(a, 16) + CFormat.hex(b, 16)
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
