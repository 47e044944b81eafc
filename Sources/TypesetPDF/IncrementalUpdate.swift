// The tagging stage's output: cairo's file with the objects the stage changes (catalog, Info, pages, link
// annotations, rewritten content streams) replaced and the ones it adds (structure tree, parent tree, XMP, output
// intent) written, under one new cross-reference stream (its elements packed: ObjectStreams.swift). Nothing of
// cairo's file is parsed beyond its cross-reference table and the objects named here: the rest is copied as byte
// ranges, except cairo's own structure tree, which nothing refers to any more (CairoStructureTree.swift).
//
// Memory stays small whatever the page count: the new file is written beside cairo's as the objects are made
// (1 MB at a time: header, new objects, then cairo's kept objects copied in chunks), cairo's file is never held
// whole (qpdf reads it lazily), and the new file replaces it by a rename at the end. When cairo's
// cross-reference table is not the plain one it writes, its whole file is copied first and the new objects
// follow as an incremental update (PDF 1.7, 7.5.6).

import CTempCleanup
import Foundation

struct IncrementalUpdate {
    private let path: String
    private let source: Int32
    private let sourceSize: Int
    private let output: Int32
    private let outputPath: String
    private let cleanupSlot: Int32
    /// cairo's objects as byte ranges in file order; nil: append to a copy of cairo's file instead.
    private let objects: ObjectRanges?
    /// Bytes written to the new file so far.
    private var length = 0
    private var pending: [UInt8] = []
    /// The /ID: a hash of the bytes before the cross-reference table (FileIdentifier.swift).
    private let hash: FileHash
    /// Object number -> offset of its new version in the new file.
    private var offsets = ObjectOffsets()
    private var finished = false
    /// The object stream being filled while packing (ObjectStreams.swift); nil: objects are written plain.
    private var pack: ObjectStreamPack? = nil
    /// While packing, `pending` holds the stream's bodies and this the file's bytes not yet written.
    private var fileBytes: [UInt8] = []
    private var packed = PackedObjects()
    /// While packing: the object being written outgrew a chunk and is written plain (`pending` is the file's
    /// bytes again, `fileBytes` the emptied bodies) until the next object begins.
    private var ejected = false
    /// cairo's objects not copied, a bit per number (a long table's tree has a million).
    private var leftOut: [UInt64] = []
    private(set) var nextNumber: Int
    private let previousXref: Int
    let root: Int
    let info: Int?

    private static let flushSize = 1 << 18

    /// `path` is cairo's complete file; its trailer gives /Size, /Root, /Info and the xref offset.
    /// `hashInBackground`: the /ID's hash is computed on another thread while the file is written.
    init(replacing path: String, hashInBackground: Bool = false) throws {
        self.path = path
        hash = FileHash(background: hashInBackground)
        source = open(path, O_RDONLY | O_CLOEXEC)
        guard source >= 0 else { throw QPDFError(description: "cannot reopen '\(path)': \(Self.reason())") }
        sourceSize = max(0, Int(lseek(source, 0, SEEK_END)))
        let tail = String(decoding: Self.read(source, at: max(0, sourceSize - 1024), count: min(1024, sourceSize)),
                          as: UTF8.self)
        func number(after key: String) -> Int? {
            guard let r = tail.range(of: key, options: .backwards) else { return nil }
            return Int(tail[r.upperBound...].drop { $0 == " " || $0 == "\n" || $0 == "\r" }.prefix { $0.isNumber })
        }
        guard let size = number(after: "/Size"), let root = number(after: "/Root"),
              let xref = number(after: "startxref"), size > 0, xref > 0, xref < sourceSize else {
            close(source)
            throw QPDFError(description: "cairo's trailer is not as expected")
        }
        nextNumber = size
        self.root = root
        info = number(after: "/Info")
        previousXref = xref
        objects = Self.objects(source, xrefAt: xref, fileSize: sourceSize, count: size)
        outputPath = path + ".tagged"
        output = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            close(source)
            throw QPDFError(description: "cannot write beside '\(path)': \(Self.reason())")
        }
        cleanupSlot = typeset_cleanup_remember(outputPath)
        if let first = objects?.first {
            try copy(0 ..< first.range.lowerBound)   // `%PDF-1.x` and the binary comment
        } else {
            try copy(0 ..< sourceSize)
            pending = [0x0A]
        }
    }

    /// Closes both files and removes the new one unless it replaced cairo's.
    private func release() {
        close(source)
        close(output)
        if !finished { unlink(outputPath) }
        typeset_cleanup_forget(cleanupSlot)
    }

    mutating func reserve() -> Int {
        defer { nextNumber += 1 }
        return nextNumber
    }

    /// `count` numbers at once (the structure elements), with room for their offsets made once.
    mutating func reserve(count: Int) {
        nextNumber += max(count, 0)
        offsets.reserve(through: nextNumber)
        if pack != nil { packed.reserve(through: nextNumber) }
    }

    func replaces(_ number: Int) -> Bool { offsets[number] != nil || packed.contains(number) }

    /// Objects begun from here to `stopPacking()` go into compressed object streams (not streams: `putStream`
    /// writes those plain). Only in a new file: an update appended to cairo's keeps its plain table.
    mutating func startPacking() {
        guard objects != nil, pack == nil else { return }
        swap(&pending, &fileBytes)
        pending.removeAll(keepingCapacity: true)
        pack = ObjectStreamPack()
    }

    mutating func stopPacking() throws {
        guard pack != nil else { return }
        if !ejected {
            try closePack()
            swap(&pending, &fileBytes)
        }
        ejected = false
        fileBytes = []
        pack = nil
        try flushIfFull()
    }

    /// Starts object `number` in the stream being filled, closing that stream first when it is full.
    private mutating func packObject(_ number: Int) throws {
        if ejected {
            swap(&pending, &fileBytes)
            pending.removeAll(keepingCapacity: true)
            ejected = false
        }
        ObjectStreamPack.trimEnd(&pending)
        if pack?.isFull == true || pending.count >= ObjectStreamPack.maximumBytes { try closePack() }
        pack?.entries.append((number, pending.count))
    }

    /// Writes the stream being filled as an object of the file, and starts an empty one.
    private mutating func closePack() throws {
        guard let filled = pack, !filled.entries.isEmpty else { return }
        ObjectStreamPack.trimEnd(&pending)
        let (data, first) = filled.data(bodies: pending)
        let number = reserve()
        packed.add(filled.entries.map(\.number), stream: number)
        let compressed = Deflate.fast(Data(data))
        swap(&pending, &fileBytes)
        offsets[number] = length + pending.count
        let filter = compressed == nil ? "" : " /Filter /FlateDecode"
        pending.append(contentsOf: "\(number) 0 obj\n<< /Type /ObjStm /N \(filled.entries.count) /First \(first)\(filter) /Length \(compressed?.count ?? data.count) >>\nstream\n".utf8)
        if let compressed { pending.append(contentsOf: compressed) } else { pending.append(contentsOf: data) }
        pending.append(ascii: "\nendstream\nendobj\n")
        if pending.count >= Self.flushSize { try flush() }
        swap(&pending, &fileBytes)
        pending.removeAll(keepingCapacity: true)
        pack = ObjectStreamPack()
    }

    /// Writes what is pending once it is a chunk's worth. While packing, an object that grows that large (a
    /// parent tree, an element with a million kids) leaves the stream and goes on plain, so that no object is
    /// ever held whole.
    private mutating func flushIfFull() throws {
        guard pending.count >= Self.flushSize else { return }
        if pack == nil || ejected { return try flush() }
        guard let current = pack?.entries.popLast() else { return }
        let body = Array(pending[current.offset...])
        pending.removeSubrange(current.offset...)
        try closePack()
        swap(&pending, &fileBytes)
        ejected = true
        offsets[current.number] = length + pending.count
        pending.append(contentsOf: "\(current.number) 0 obj\n".utf8)
        pending.append(contentsOf: body)
        if pending.count >= Self.flushSize { try flush() }
    }

    /// cairo's stream objects written without a filter (with content compression off: form XObjects, ToUnicode
    /// maps), found by looking at each object's dictionary only.
    func unfilteredStreams() -> [Int] {
        let stream = Array(">>\nstream".utf8), filter = Array("/Filter".utf8)
        var found: [Int] = []
        forEachObjectHead(512) { number, head in
            guard let at = Self.find(stream, in: head) else { return }
            if Self.find(filter, in: head[..<at]) == nil { found.append(number) }
        }
        return found
    }

    /// The first `count` bytes (fewer when the object is shorter) of each of cairo's objects, in file order,
    /// from `N 0 obj`. The file is read in order, a chunk at a time (tens of thousands of small reads cost more).
    func forEachObjectHead(_ count: Int, _ body: (_ number: Int, _ head: ArraySlice<UInt8>) -> Void) {
        guard let objects else { return }
        var chunk: [UInt8] = [], chunkStart = 0
        for object in objects {
            let count = min(object.range.count, count), start = object.range.lowerBound
            if start < chunkStart || start + count > chunkStart + chunk.count {
                chunkStart = start
                chunk = Self.read(source, at: start, count: max(count, 1 << 18))
            }
            let from = start - chunkStart
            guard from + count <= chunk.count else { continue }
            body(object.number, chunk[from ..< from + count])
        }
    }

    /// Reads cairo's objects whole, from `N 0 obj`, by number (nil when cairo's table is not the plain one, or
    /// for no such object). The index it makes, 4 bytes an object, goes with it.
    func objectReader() -> (Int) -> [UInt8]? {
        guard let objects else { return { _ in nil } }
        let index = objects.indexByNumber()
        let source = source
        return { number in
            guard number >= 0, number < index.count, index[number] >= 0 else { return nil }
            let object = objects[Int(index[number])]
            return Self.read(source, at: object.range.lowerBound, count: object.range.count)
        }
    }

    /// cairo's objects that the new file leaves out (they become free entries): nothing refers to them any more.
    mutating func leaveOut(_ numbers: [Int]) {
        for n in numbers where n > 0 && n < nextNumber && !replaces(n) {
            if n / 64 >= leftOut.count { leftOut += repeatElement(0, count: max(n / 64 + 1, nextNumber / 64 + 1) - leftOut.count) }
            leftOut[n / 64] |= 1 << UInt64(n % 64)
        }
    }

    private func isLeftOut(_ n: Int) -> Bool { n / 64 < leftOut.count && leftOut[n / 64] & (1 << UInt64(n % 64)) != 0 }

    static func find(_ needle: [UInt8], in hay: ArraySlice<UInt8>) -> Int? {
        guard hay.count >= needle.count else { return nil }
        var i = hay.startIndex
        while i + needle.count <= hay.endIndex {
            if hay[i] == needle[0] && hay[i ..< i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// Object `number` (new or replacing cairo's) as `syntax`.
    mutating func put(_ number: Int, _ syntax: String) throws {
        try begin(number)
        pending.append(contentsOf: syntax.utf8)
        pending.append(ascii: "\nendobj\n")
    }

    /// Object `number` as bytes already made (PDFBytes.swift).
    mutating func put(_ number: Int, bytes: [UInt8]) throws {
        try begin(number)
        pending.append(contentsOf: bytes)
        pending.append(ascii: "\nendobj\n")
    }

    /// A stream object: `dictionary` entries (without /Length) and its data.
    mutating func putStream(_ number: Int, _ dictionary: String, _ data: Data) throws {
        // Streams are never packed: written plain, with the file's bytes, whatever the mode.
        let packing = pack, bodies = packing != nil && !ejected
        pack = nil
        if bodies { swap(&pending, &fileBytes) }
        try begin(number)
        pending.append(contentsOf: "<< \(dictionary) /Length \(data.count) >>\nstream\n".utf8)
        pending.append(contentsOf: data)
        pending.append(ascii: "\nendstream\nendobj\n")
        if pending.count >= Self.flushSize { try flush() }
        if bodies { swap(&pending, &fileBytes) }
        pack = packing
    }

    /// Object `number` begun with at most `maximum` bytes written through a cursor (then `write`, `end`, or
    /// nothing when `make` wrote its end).
    mutating func begin(_ number: Int, maximum: Int, _ make: (inout ByteCursor) -> Void) throws {
        try write(maximum: maximum, beginning: number, make)
    }

    /// `begin(number, ...)` when `number` is given, else `write(maximum:_:)`.
    mutating func write(maximum: Int, beginning number: Int?, _ make: (inout ByteCursor) -> Void) throws {
        try flushIfFull()
        guard let number else { return pending.appendWriting(maximum: maximum, make) }
        if pack != nil {
            try packObject(number)
            return pending.appendWriting(maximum: maximum, make)
        }
        offsets[number] = length + pending.count
        pending.appendWriting(maximum: maximum + 32) { out in
            out.putInt(number)
            out.put(" 0 obj\n")
            make(&out)
        }
    }

    /// Object `number` written in parts (`write`, then `end`): an element with a million kids is never one string.
    mutating func begin(_ number: Int) throws {
        try flushIfFull()
        if pack != nil { return try packObject(number) }
        offsets[number] = length + pending.count
        pending.appendWriting(maximum: 32) { out in
            out.putInt(number)
            out.put(" 0 obj\n")
        }
    }

    mutating func write(_ syntax: String) throws {
        pending.append(contentsOf: syntax.utf8)
        try flushIfFull()
    }

    /// Appends to the object begun: `make` adds its bytes to the pending buffer directly.
    mutating func write(_ make: (inout [UInt8]) -> Void) throws {
        make(&pending)
        try flushIfFull()
    }

    /// Appends at most `maximum` bytes through a cursor (PDFBytes.swift): no capacity check per byte.
    mutating func write(maximum: Int, _ make: (inout ByteCursor) -> Void) throws {
        pending.appendWriting(maximum: maximum, make)
        try flushIfFull()
    }

    mutating func end() throws { try write("\nendobj\n") }

    private mutating func flush() throws {
        hash.add(pending)
        var done = 0
        while done < pending.count {
            let n = pending.withUnsafeBytes { Glibc.write(output, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw QPDFError(description: "cannot write '\(path)': \(Self.reason())") }
            done += n
        }
        length += pending.count
        if hash.keepsBuffers {
            pending = []
            pending.reserveCapacity(Self.flushSize + (1 << 16))
        } else {
            pending.removeAll(keepingCapacity: true)
        }
    }

    /// Copies cairo's bytes in `range` to the new file, in chunks.
    private mutating func copy(_ range: Range<Int>) throws {
        var at = range.lowerBound
        while at < range.upperBound {
            let chunk = Self.read(source, at: at, count: min(1 << 16, range.upperBound - at))
            guard !chunk.isEmpty else { throw QPDFError(description: "cannot read back '\(path)'") }
            pending.append(contentsOf: chunk)
            at += chunk.count
            if pending.count >= Self.flushSize { try flush() }
        }
    }

    /// Writes cairo's kept objects, the cross-reference section and a trailer with a deterministic /ID (a hash of
    /// the bytes before the table, so the same input gives the same file); the new file then replaces cairo's.
    /// A new file ends in a cross-reference stream; an update appended to cairo's file, in a table.
    mutating func finish() throws {
        defer { release() }
        try stopPacking()
        if let objects {
            for object in objects where offsets[object.number] == nil && object.number < nextNumber
                && !isLeftOut(object.number) && !packed.contains(object.number) {
                offsets[object.number] = length + pending.count
                try copy(object.range)
            }
            return try finishWithStream()
        }
        // An update appended to a copy of cairo's file: a table of the objects written, pointing back to cairo's.
        var xref: [UInt8] = Array("xref\n".utf8)
        let numbers = offsets.keys.sorted()
        var i = 0
        while i < numbers.count {
            var j = i
            while j + 1 < numbers.count && numbers[j + 1] == numbers[j] + 1 { j += 1 }
            xref.append(contentsOf: "\(numbers[i]) \(j - i + 1)\n".utf8)
            for n in numbers[i...j] { xref.appendXrefEntry(offsets[n] ?? 0) }
            i = j + 1
        }
        try flush()
        let xrefAt = length
        let id = hash.hex
        var trailer = "trailer\n<< /Size \(nextNumber) /Root \(root) 0 R"
        if let info { trailer += " /Info \(info) 0 R" }
        trailer += " /Prev \(previousXref) /ID [<\(id)> <\(id)>] >>\nstartxref\n\(xrefAt)\n%%EOF\n"
        pending = xref
        pending.append(contentsOf: trailer.utf8)
        try flush()
        guard rename(outputPath, path) == 0 else {
            throw QPDFError(description: "cannot replace '\(path)': \(Self.reason())")
        }
        finished = true
    }

    /// A new file's end: a cross-reference stream (the packed objects need one) with the trailer's keys, after
    /// the bytes the /ID hashes.
    private mutating func finishWithStream() throws {
        try flush()
        let xrefAt = length, number = reserve()
        offsets[number] = xrefAt
        let offsets = offsets
        let width = CrossReferenceStream.width(largest: max(xrefAt, nextNumber))
        var deflate = DeflateStream()
        // Another level where qpdf would read the stream with a warning (Deflate.readsCleanlyInQPDF).
        for level: Int32 in [1, 2, 4, 6, 9] {
            deflate = DeflateStream(level: level)
            CrossReferenceStream.write(size: nextNumber, width: width, offset: { offsets[$0] }, packed: packed,
                                       into: deflate)
            guard deflate.succeeded else {
                throw QPDFError(description: "zlib cannot compress the cross-reference stream")
            }
            if deflate.output.withUnsafeBytes(Deflate.readsCleanlyInQPDF) { break }
        }
        let id = hash.hex
        var dictionary = "<< /Type /XRef /Size \(nextNumber) /W [1 \(width) 2] /Root \(root) 0 R"
        if let info { dictionary += " /Info \(info) 0 R" }
        dictionary += " /ID [<\(id)> <\(id)>] /Filter /FlateDecode /Length \(deflate.output.count) >>"
        pending.append(contentsOf: "\(number) 0 obj\n\(dictionary)\nstream\n".utf8)
        pending.append(contentsOf: deflate.output)
        pending.append(contentsOf: "\nendstream\nendobj\nstartxref\n\(xrefAt)\n%%EOF\n".utf8)
        try flush()
        guard rename(outputPath, path) == 0 else {
            throw QPDFError(description: "cannot replace '\(path)': \(Self.reason())")
        }
        finished = true
    }

    /// cairo's objects as byte ranges, in file order, from its one-section cross-reference table (`0 N`, every
    /// entry but the first in use): each object runs to the next one or to the table. nil for anything else.
    private static func objects(_ fd: Int32, xrefAt: Int, fileSize: Int, count: Int) -> ObjectRanges? {
        let head = read(fd, at: xrefAt, count: min(40, fileSize - xrefAt))
        guard let text = String(bytes: head, encoding: .ascii), text.hasPrefix("xref\n0 ") else { return nil }
        let header = text.dropFirst(7).prefix { $0 != "\n" }
        guard let size = Int(header.trimmingCharacters(in: .whitespaces)), size > 1, size <= count else { return nil }
        let first = xrefAt + 7 + header.utf8.count + 1
        guard first + 20 * size <= fileSize else { return nil }
        let table = read(fd, at: first, count: 20 * size)
        guard table.count == 20 * size else { return nil }
        // (offset << 32 | number): sorted, they are the objects in file order. Numbers stay below 2^32 (the
        // table's 20 bytes an entry are read whole) and offsets below 4 GB here (else nil: copied whole).
        var entries: [UInt64] = []
        entries.reserveCapacity(size)
        for n in 1 ..< size {
            let e = 20 * n
            guard table[e + 17] == UInt8(ascii: "n"), let offset = Self.decimal(table[e ..< e + 10]),
                  offset > 0, offset < xrefAt, offset < 1 << 32, n < 1 << 32 else { return nil }
            entries.append(UInt64(offset) << 32 | UInt64(n))
        }
        entries.sort()
        return entries.isEmpty ? nil : ObjectRanges(sorted: entries, end: xrefAt)
    }

    /// Ten ASCII digits.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for d in digits {
            guard d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(d - UInt8(ascii: "0"))
        }
        return value
    }

    /// Up to `count` bytes of `fd` at `offset` (fewer at the end of the file or on an error).
    private static func read(_ fd: Int32, at offset: Int, count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, count - got, off_t(offset + got)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { break }
            got += n
        }
        if got < count { bytes.removeSubrange(got...) }  // in place: a copy doubled a 1 MB chunk (issue 14)
        return bytes
    }

    private static func reason() -> String { String(cString: strerror(errno)) }
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

/// Object number -> offset, by number in an array of 32-bit offsets (object numbers are dense: as a dictionary,
/// the million objects of a 212,000-row table's structure took some 40 MB, issue 8; as 64-bit, grown by halves,
/// 19 MB). Offsets past 4 GB go to a dictionary.
struct ObjectOffsets {
    private static let none = UInt32.max, large = UInt32.max - 1
    private var offsets: [UInt32] = []
    private var beyond: [Int: Int] = [:]

    subscript(number: Int) -> Int? {
        get {
            guard number >= 0 && number < offsets.count else { return nil }
            switch offsets[number] {
            case Self.none: return nil
            case Self.large: return beyond[number]
            case let offset: return Int(offset)
            }
        }
        set {
            guard number >= 0 else { return }
            if number >= offsets.count {
                offsets += repeatElement(Self.none, count: Swift.max(number + 1 - offsets.count, offsets.count / 2))
            }
            guard let newValue, newValue >= 0 else { return offsets[number] = Self.none }
            if let small = UInt32(exactly: newValue), small < Self.large {
                offsets[number] = small
            } else {
                offsets[number] = Self.large
                beyond[number] = newValue
            }
        }
    }

    /// Room for numbers below `count` at once.
    mutating func reserve(through count: Int) {
        if count > offsets.count { offsets += repeatElement(Self.none, count: count - offsets.count) }
    }

    /// The numbers that have an offset, in increasing order.
    var keys: [Int] { offsets.indices.filter { offsets[$0] != Self.none } }
}

/// cairo's objects in file order: each runs to the next one, the last to the cross-reference table.
struct ObjectRanges: Sequence {
    /// offset << 32 | number, increasing.
    private let sorted: [UInt64]
    private let end: Int

    init(sorted: [UInt64], end: Int) {
        self.sorted = sorted
        self.end = end
    }

    var first: (number: Int, range: Range<Int>)? { sorted.isEmpty ? nil : self[0] }

    subscript(k: Int) -> (number: Int, range: Range<Int>) {
        let start = Int(sorted[k] >> 32), stop = k + 1 < sorted.count ? Int(sorted[k + 1] >> 32) : end
        return (Int(sorted[k] & 0xFFFF_FFFF), start ..< stop)
    }

    /// Object number -> position in file order (-1: not in the table).
    func indexByNumber() -> [Int32] {
        let largest = sorted.lazy.map { Int($0 & 0xFFFF_FFFF) }.max() ?? -1
        var index = [Int32](repeating: -1, count: largest + 1)
        // Positions stay far below 2^31: each object takes some bytes of a file under 4 GB (`objects`).
        for k in sorted.indices { index[Int(sorted[k] & 0xFFFF_FFFF)] = Int32(truncatingIfNeeded: k) }
        return index
    }

    func makeIterator() -> AnyIterator<(number: Int, range: Range<Int>)> {
        var k = 0
        return AnyIterator {
            guard k < sorted.count else { return nil }
            defer { k += 1 }
            return self[k]
        }
    }
}
