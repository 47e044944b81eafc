// The tagging stage's output: an incremental update appended to cairo's file (PDF 1.7, 7.5.6) holding the
// objects it changes (catalog, Info, pages, link annotations, rewritten content streams) and the ones it adds
// (structure tree, parent tree, XMP, output intent), with a cross-reference section and a trailer pointing
// back at cairo's. Nothing of cairo's file is parsed or rewritten beyond the objects named here, which keeps the
// stage cheap; the price is that cairo's superseded content streams and its own structure tree stay in the
// file, unreferenced.

import Foundation

struct IncrementalUpdate {
    /// cairo's file, appended to as objects are put: neither it nor the update is ever held in memory whole
    /// (a 3,000-page document of narrow columns is a 300 MB file).
    private let file: FileHandle
    private var pending: [UInt8] = []
    /// Bytes in the file so far, written or pending.
    private var length: Int
    private var hash = FNV128()
    /// Object number -> offset of its new version in the finished file.
    private var offsets: [Int: Int] = [:]
    private(set) var nextNumber: Int
    private let previousXref: Int
    let root: Int
    let info: Int?

    /// `path` is cairo's complete file; its trailer gives /Size, /Root, /Info and the xref offset.
    init(appendingTo path: String) throws {
        file = try FileHandle(forUpdating: URL(fileURLWithPath: path))
        let size = Int(try file.seekToEnd())
        try file.seek(toOffset: UInt64(max(size - 1024, 0)))
        let tail = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
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
        // The /ID hashes the whole file: cairo's part is read once, in chunks.
        try file.seek(toOffset: 0)
        length = 0
        while let chunk = try file.read(upToCount: 1 << 20), !chunk.isEmpty {
            hash.add(chunk)
            length += chunk.count
        }
        try file.seekToEnd()
        try append([0x0A])
    }

    mutating func reserve() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    /// Object `number` (new or replacing cairo's) as `syntax`.
    mutating func put(_ number: Int, _ syntax: String) throws {
        try begin(number)
        try write(syntax)
        try end()
    }

    /// A stream object: `dictionary` entries (without /Length) and its data.
    mutating func putStream(_ number: Int, _ dictionary: String, _ data: Data) throws {
        try begin(number)
        try append(Array("<< \(dictionary) /Length \(data.count) >>\nstream\n".utf8))
        try append(data)
        try append(Array("\nendstream\nendobj\n".utf8))
    }

    /// Object `number` written in parts (`write`, then `end`): an element with a million kids is never one string.
    mutating func begin(_ number: Int) throws {
        offsets[number] = length
        try append(Array("\(number) 0 obj\n".utf8))
    }

    mutating func write(_ syntax: String) throws { try append(syntax.utf8) }

    mutating func end() throws { try append(Array("\nendobj\n".utf8)) }

    private mutating func append<Bytes: Collection>(_ bytes: Bytes) throws where Bytes.Element == UInt8 {
        hash.add(bytes)
        pending.append(contentsOf: bytes)
        length += bytes.count
        if pending.count >= 1 << 20 { try flush() }
    }

    private mutating func append(_ data: Data) throws {
        hash.add(data)
        pending.append(contentsOf: data)
        length += data.count
        if pending.count >= 1 << 20 { try flush() }
    }

    private mutating func flush() throws {
        try file.write(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
    }

    /// Ends the file: one cross-reference subsection per run of numbers, and a trailer with a deterministic
    /// /ID (a hash of the bytes before the xref, so the same input gives the same file).
    mutating func finish() throws {
        let xrefAt = length
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
        let id = hash.hex
        var trailer = "trailer\n<< /Size \(nextNumber) /Root \(root) 0 R"
        if let info { trailer += " /Info \(info) 0 R" }
        trailer += " /Prev \(previousXref) /ID [<\(id)> <\(id)>] >>\nstartxref\n\(xrefAt)\n%%EOF\n"
        pending.append(contentsOf: Array((xref + trailer).utf8))
        try flush()
        try file.close()
    }
}

/// 128 bits of FNV-1a (two lanes) as hex, fed in pieces: an identifier, not a checksum anyone relies on.
struct FNV128 {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4

    mutating func add<Bytes: Collection>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var a = self.a, b = self.b
        let done: Void? = bytes.withContiguousStorageIfAvailable { raw in
            for byte in raw {
                a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
            }
        }
        if done == nil {
            for byte in bytes {
                a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
                b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
            }
        }
        self.a = a
        self.b = b
    }

    mutating func add(_ data: Data) {
        data.withUnsafeBytes { add($0) }
    }

    var hex: String { String(format: "%016llx%016llx", a, b) }
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
