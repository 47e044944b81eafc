// The tagging stage's output: an incremental update appended to cairo's file (PDF 1.7, 7.5.6) holding the
// objects it changes (catalog, Info, pages, link annotations, rewritten content streams) and the ones it adds
// (structure tree, parent tree, XMP, output intent), with a cross-reference section and a trailer pointing
// back at cairo's. Nothing of cairo's file is parsed or rewritten beyond the objects named here, which keeps the
// stage cheap; the price is that cairo's superseded content streams and its own structure tree stay in the
// file, unreferenced.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Appends the update to cairo's file in place: cairo's bytes are never held in memory (a 5,000-page file is
/// tens of MB), and the new objects go to the file in chunks as they are made. qpdf keeps reading cairo's
/// objects from the same file meanwhile; appending moves none of them.
struct IncrementalUpdate {
    private let fd: Int32
    private let path: String
    /// Bytes in the file so far (cairo's, the separating newline, then what was flushed).
    private var length: Int
    private var pending: [UInt8] = []
    private var hash = FNV128()
    /// Object number -> offset of its new version in the finished file.
    private var offsets: [Int: Int] = [:]
    private(set) var nextNumber: Int
    private let previousXref: Int
    let root: Int
    let info: Int?

    private static let flushSize = 1 << 20

    /// `path` is cairo's complete file; its trailer gives /Size, /Root, /Info and the xref offset.
    init(appendingTo path: String) throws {
        self.path = path
        let fd = open(path, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw QPDFError(description: "cannot reopen '\(path)': \(String(cString: strerror(errno)))") }
        let size = Int(lseek(fd, 0, SEEK_END))
        guard size > 0 else {
            close(fd)
            throw QPDFError(description: "cairo's file is empty")
        }
        // The identifier hashes every byte of the finished file: cairo's first, read back in chunks.
        var hasher = FNV128()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var at = 0
        while at < size {
            let n = chunk.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(at)) }
            guard n > 0 else {
                close(fd)
                throw QPDFError(description: "cannot read back '\(path)'")
            }
            hasher.add(chunk[0 ..< n])
            at += n
        }
        var tailBytes = [UInt8](repeating: 0, count: min(1024, size))
        let tailRead = tailBytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(size - $0.count)) }
        tailBytes = Array(tailBytes.prefix(max(0, tailRead)))
        let tail = String(decoding: tailBytes, as: UTF8.self)
        func number(after key: String) -> Int? {
            guard let r = tail.range(of: key, options: .backwards) else { return nil }
            return Int(tail[r.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\r" }.prefix { $0.isNumber })
        }
        guard let trailerSize = number(after: "/Size"), let root = number(after: "/Root"),
              let xref = number(after: "startxref") else {
            close(fd)
            throw QPDFError(description: "cairo's trailer is not as expected")
        }
        nextNumber = trailerSize
        self.root = root
        info = number(after: "/Info")
        previousXref = xref
        self.fd = fd
        length = size
        hash = hasher
        pending = [0x0A]
    }

    mutating func reserve() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    /// Object `number` (new or replacing cairo's) as `syntax`.
    mutating func put(_ number: Int, _ syntax: String) throws {
        try begin(number)
        pending.append(contentsOf: syntax.utf8)
        pending.append(contentsOf: "\nendobj\n".utf8)
    }

    /// A stream object: `dictionary` entries (without /Length) and its data.
    mutating func putStream(_ number: Int, _ dictionary: String, _ data: Data) throws {
        try begin(number)
        pending.append(contentsOf: "<< \(dictionary) /Length \(data.count) >>\nstream\n".utf8)
        pending.append(contentsOf: data)
        pending.append(contentsOf: "\nendstream\nendobj\n".utf8)
    }

    private mutating func begin(_ number: Int) throws {
        if pending.count >= Self.flushSize { try flush() }
        offsets[number] = length + pending.count
        pending.append(contentsOf: "\(number) 0 obj\n".utf8)
    }

    private mutating func flush() throws {
        hash.add(pending[...])
        try write(pending)
        pending.removeAll(keepingCapacity: true)
    }

    private mutating func write(_ bytes: [UInt8]) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, bytes.count - done, off_t(length + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw QPDFError(description: "cannot write '\(path)': \(String(cString: strerror(errno)))") }
            done += n
        }
        length += bytes.count
    }

    /// Writes the rest: one cross-reference subsection per run of numbers, and a trailer with a deterministic
    /// /ID (a hash of the bytes before it, so the same input gives the same file). Closes the file.
    mutating func finish() throws {
        defer { close(fd) }
        try flush()
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
        try write(Array((xref + trailer).utf8))
    }
}

/// 128 bits of FNV-1a (two lanes) as hex: an identifier, not a checksum anyone relies on.
struct FNV128 {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325, b: UInt64 = 0x8422_2325_cbf2_9ce4

    mutating func add(_ bytes: ArraySlice<UInt8>) {
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* 0x100_0000_01b3
            b = (b ^ UInt64(byte)) &* 0x100_0000_01b3 &+ 1
        }
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
