// A small Swift face over qpdf's C API (object handles), used only by the tagging stage (TaggedPDF.swift).

import CQpdf
import Foundation

/// The QPDF_ERRORS bit of a qpdf return code (the macro does not import).
private let qpdfErrors: Int32 = 2

struct QPDFError: Error, CustomStringConvertible {
    var description: String
}

/// One PDF opened with qpdf: qpdf reads objects as they are asked for, so a large file is never copied whole.
/// The file is mapped into memory and qpdf reads it from there. Through stdio qpdf seeks and reads 4 KB for every
/// cross-reference entry and object it parses: 21,000 system calls for the 35,000-word report, and 1 s of a
/// 7.6 s build for 380 KB in twelve columns (300,000 lines, issue 8). Mapped pages count as resident once
/// touched, and the kernel maps 64 KB around each object read: listing the pages alone made 9 MB of cairo's
/// 12 MB file for the 350,000-word report resident. So the stage lets the mapped pages go as it moves on
/// (`dropMappedPages`), every few pages where it reads them (`pagesReadInTurn`, CairoPages), and peak memory
/// is what it was through stdio.
final class QPDFFile {
    let q: qpdf_data
    private var mapping: UnsafeMutableRawPointer?
    private var mappedBytes = 0

    init(path: String) throws {
        // libqpdf is loaded with dlopen (Sources/CQpdf): a machine without it fails here, with a reason.
        guard typeset_qpdf_load() != 0 else {
            throw QPDFError(description: typeset_qpdf_unavailable().map { String(cString: $0) } ?? "libqpdf cannot be loaded")
        }
        q = qpdf_init()
        qpdf_silence_errors(q)
        let code: Int32
        if let (base, size) = QPDFFile.map(path) {
            mapping = base
            mappedBytes = size
            code = qpdf_read_memory(q, path, base.assumingMemoryBound(to: CChar.self), UInt64(size), nil)
            dropMappedPages()  // the cross-reference table, read
        } else {
            code = qpdf_read(q, path, nil)
        }
        if code & qpdfErrors != 0 { throw QPDFError(description: lastError() ?? "qpdf cannot read the file") }
    }

    deinit {
        var data: qpdf_data? = q
        qpdf_cleanup(&data)
        if let mapping { munmap(mapping, mappedBytes) }
    }

    /// Whether qpdf reads the file from memory (not through stdio).
    var isMapped: Bool { mapping != nil }

    /// The file read-only in memory; nil when it cannot be mapped (then qpdf reads it itself).
    private static func map(_ path: String) -> (UnsafeMutableRawPointer, Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, let size = Int(exactly: info.st_size),
              let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), base != MAP_FAILED else { return nil }
        return (base, size)
    }

    /// Lets the mapped file's pages go from this process (they are read again from the page cache if qpdf
    /// asks for them): called as the tagging stage moves on, so the file does not add its size to the peak.
    func dropMappedPages() {
        if let mapping { _ = madvise(mapping, mappedBytes, MADV_DONTNEED) }
    }

    func lastError() -> String? {
        guard qpdf_has_error(q) != 0, let e = qpdf_get_error(q), let text = qpdf_get_error_full_text(q, e) else { return nil }
        return String(cString: text)
    }

    // MARK: Reading

    var root: qpdf_oh { qpdf_get_root(q) }
    var trailer: qpdf_oh { qpdf_get_trailer(q) }
    var pageCount: Int { Int(qpdf_get_num_pages(q)) }
    func page(_ n: Int) -> qpdf_oh { qpdf_get_page_n(q, n) }

    /// The pages in order, read from the page tree a few at a time with the mapped file's pages let go in
    /// between (qpdf's own page list reads every page object at once: most of a mapped file resident).
    /// nil when the tree is not one qpdf would list alike (then `page(_:)` is used).
    func pagesReadInTurn() -> [qpdf_oh]? {
        var pages: [qpdf_oh] = []
        var seen = Set<Int>()
        func walk(_ node: qpdf_oh, depth: Int) -> Bool {
            let kids = key(node, "/Kids")
            guard depth < 64, qpdf_oh_is_array(q, kids) != 0 else { return false }
            for i in 0..<count(kids) {
                let kid = item(kids, i)
                let number = objectNumber(kid)
                guard number > 0, seen.insert(number).inserted, qpdf_oh_is_dictionary(q, kid) != 0 else { return false }
                if has(kid, "/Kids") {
                    guard walk(kid, depth: depth + 1) else { return false }
                } else {
                    pages.append(kid)
                    if pages.count % 16 == 0 { dropMappedPages() }
                }
            }
            return true
        }
        guard walk(key(root, "/Pages"), depth: 0) else { return nil }
        return pages
    }

    func key(_ o: qpdf_oh, _ k: String) -> qpdf_oh { qpdf_oh_get_key(q, o, k) }
    func has(_ o: qpdf_oh, _ k: String) -> Bool { qpdf_oh_has_key(q, o, k) != 0 }
    func count(_ array: qpdf_oh) -> Int { qpdf_oh_is_array(q, array) != 0 ? Int(qpdf_oh_get_array_n_items(q, array)) : 0 }
    func item(_ array: qpdf_oh, _ i: Int) -> qpdf_oh { qpdf_oh_get_array_item(q, array, Int32(clamping: i)) }
    func isStream(_ o: qpdf_oh) -> Bool { qpdf_oh_is_stream(q, o) != 0 }
    func string(_ o: qpdf_oh) -> String? {
        guard qpdf_oh_is_string(q, o) != 0, let s = qpdf_oh_get_utf8_value(q, o) else { return nil }
        return String(cString: s)
    }

    /// A stream's data with its filters removed.
    func streamData(_ stream: qpdf_oh) -> Data? {
        var filtered: QPDF_BOOL = 0
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        guard qpdf_oh_get_stream_data(q, stream, qpdf_dl_generalized, &filtered, &buffer, &length) & qpdfErrors == 0,
              let buffer, filtered != 0 else { return nil }
        defer { free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    /// Indirect object `number` (generation 0).
    func object(_ number: Int) -> qpdf_oh { qpdf_get_object_by_id(q, Int32(clamping: number), 0) }

    /// A stream's /Filter as PDF syntax ("null" without one).
    func filter(_ stream: qpdf_oh) -> String {
        qpdf_oh_unparse(q, key(qpdf_oh_get_dict(q, stream), "/Filter")).map { String(cString: $0) } ?? "null"
    }

    /// A stream's data as stored in the file (still compressed).
    func rawStreamData(_ stream: qpdf_oh) -> Data? {
        var buffer: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        guard qpdf_oh_get_stream_data(q, stream, qpdf_dl_none, nil, &buffer, &length) & qpdfErrors == 0,
              let buffer else { return nil }
        defer { free(buffer) }
        return Data(bytes: buffer, count: length)
    }

    /// The number of the object that holds a stream's /Length; 0 when the length is direct.
    func lengthObject(_ stream: qpdf_oh) -> Int {
        objectNumber(key(qpdf_oh_get_dict(q, stream), "/Length"))
    }

    /// The object number of an indirect object.
    func objectNumber(_ o: qpdf_oh) -> Int { Int(qpdf_oh_get_object_id(q, o)) }

    /// A dictionary of cairo's as PDF syntax, with `entries` (`/Key value`) in place of its own for those keys.
    func unparse(_ o: qpdf_oh, replacing entries: [String]) -> String {
        kept(o, removing: entries.map { String($0.prefix { $0 != " " }) }).with(entries)
    }

    /// A dictionary of cairo's as PDF syntax without `keys`, for entries added later (qpdf may be closed then).
    func kept(_ o: qpdf_oh, removing keys: [String]) -> KeptDictionary {
        for key in keys where has(o, key) { qpdf_oh_remove_key(q, o, key) }
        guard let text = qpdf_oh_unparse_resolved(q, o) else { return KeptDictionary(open: nil, verbatim: nil) }
        var syntax = String(cString: text)
        guard syntax.hasSuffix(">>") else { return KeptDictionary(open: nil, verbatim: syntax) }
        syntax.removeLast(2)
        return KeptDictionary(open: syntax, verbatim: nil)
    }
}

/// A dictionary's syntax without its closing `>>`, to which entries are added.
struct KeptDictionary {
    /// nil: qpdf could not write it (`<< entries >>` is written instead).
    var open: String?
    /// Syntax that is not a dictionary's: written as it is, without the entries.
    var verbatim: String?

    func with(_ entries: [String]) -> String {
        if let verbatim { return verbatim }
        guard let open else { return "<< " + entries.joined(separator: " ") + " >>" }
        return open + entries.joined(separator: " ") + " >>"
    }
}

/// zlib, for the content streams the tagging stage rewrites.
enum Deflate {
    /// Level 1: several times faster than the default, a few percent larger. A stream qpdf would read with a
    /// warning (`readsCleanlyInQPDF`) is compressed again at another level.
    static func fast(_ data: Data) -> Data? {
        for level: Int32 in [1, 2, 4, 6, 9] {
            var length = compressBound(uLong(data.count))
            var out = [UInt8](repeating: 0, count: Int(length))
            let status = data.withUnsafeBytes { input in
                compress2(&out, &length, input.bindMemory(to: Bytef.self).baseAddress, uLong(data.count), level)
            }
            guard status == Z_OK else { return nil }
            let packed = out.prefix(Int(length))
            if data.count < qpdfOutputBuffer || packed.withUnsafeBytes(readsCleanlyInQPDF) { return Data(packed) }
        }
        return nil  // never seen: the caller keeps the stream uncompressed
    }

    /// How qpdf 11 inflates a stream: read from the file 10,240 bytes at a time (QPDF::pipeStreamData), each
    /// piece inflated with Z_SYNC_FLUSH into a 64 KB buffer (Pl_Flate).
    static let qpdfReadChunk = 10_240
    static let qpdfOutputBuffer = 65_536

    /// Whether qpdf reads `compressed` without warning "input stream is complete but output may still be valid".
    /// It warns, though the data is whole, when one call of inflate fills its 64 KB buffer exactly as a piece
    /// runs out: it calls zlib once more with nothing to do (Pl_Flate's Z_BUF_ERROR case). `qpdf --check` counts
    /// the warning; fuzzed documents' page streams met it (1 in some thousands of streams over 64 KB). As in
    /// Pl_Flate::handleData, the buffer is emptied after every call that wrote to it, not only when full: a
    /// model that emptied it only when full passed a 376 KB page stream that qpdf warned about (issue 8).
    static func readsCleanlyInQPDF(_ compressed: UnsafeRawBufferPointer) -> Bool {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        defer { stream.deallocate() }
        guard inflateInit_(stream, ZLIB_VERSION, Int32(clamping: MemoryLayout<z_stream>.size)) == Z_OK else { return true }
        defer { inflateEnd(stream) }
        var out = [UInt8](repeating: 0, count: qpdfOutputBuffer)
        return out.withUnsafeMutableBufferPointer { buffer -> Bool in
            guard let input = compressed.bindMemory(to: Bytef.self).baseAddress else { return true }
            stream.pointee.next_out = buffer.baseAddress
            stream.pointee.avail_out = uInt(buffer.count)
            var offset = 0
            while offset < compressed.count {
                let piece = min(qpdfReadChunk, compressed.count - offset)
                stream.pointee.next_in = UnsafeMutablePointer(mutating: input + offset)
                stream.pointee.avail_in = uInt(piece)
                offset += piece
                var done = false
                while !done {
                    let status = inflate(stream, Z_SYNC_FLUSH)
                    if status == Z_BUF_ERROR { return false }
                    guard status == Z_OK || status == Z_STREAM_END else { return true }  // not this warning
                    if status == Z_STREAM_END { return true }
                    done = stream.pointee.avail_in == 0 && stream.pointee.avail_out > 0
                    if stream.pointee.avail_out < uInt(buffer.count) {
                        stream.pointee.next_out = buffer.baseAddress
                        stream.pointee.avail_out = uInt(buffer.count)
                    }
                }
            }
            return true
        }
    }
}

/// zlib's deflate fed a piece at a time, so that a large stream (a cross-reference stream of a million entries)
/// is never held uncompressed whole. The z_stream lives on the heap: zlib's state points back at it.
final class DeflateStream {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var failed: Bool
    private(set) var output: [UInt8] = []
    var succeeded: Bool { !failed }

    init(level: Int32 = 1) {
        stream.initialize(to: z_stream())
        failed = deflateInit_(stream, level, ZLIB_VERSION, Int32(clamping: MemoryLayout<z_stream>.size)) != Z_OK
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    /// Compresses `bytes`; with `finish`, ends the stream. false once zlib failed (then `output` is not used).
    @discardableResult
    func add(_ bytes: [UInt8], finish: Bool = false) -> Bool {
        guard !failed else { return false }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        bytes.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            while true {
                let status: Int32 = chunk.withUnsafeMutableBufferPointer { out in
                    stream.pointee.next_out = out.baseAddress
                    stream.pointee.avail_out = uInt(out.count)
                    return deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH)
                }
                let made = chunk.count - Int(stream.pointee.avail_out)
                output.append(contentsOf: chunk[..<made])
                if status == Z_STREAM_END { return }
                guard status == Z_OK || status == Z_BUF_ERROR else { failed = true; return }
                if !finish && stream.pointee.avail_in == 0 { return }
            }
        }
        stream.pointee.next_in = nil
        return !failed
    }
}
