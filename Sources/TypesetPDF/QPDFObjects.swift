// A small Swift face over qpdf's C API (object handles), used only by the tagging stage (TaggedPDF.swift).

import CQpdf
import Foundation

/// The QPDF_ERRORS bit of a qpdf return code (the macro does not import).
private let qpdfErrors: Int32 = 2

struct QPDFError: Error, CustomStringConvertible {
    var description: String
}

/// One PDF opened with qpdf from memory; the bytes stay alive as long as qpdf may read them.
final class QPDFFile {
    let q: qpdf_data
    private let bytes: UnsafeMutableRawBufferPointer

    init(data: Data, description: String) throws {
        q = qpdf_init()
        qpdf_silence_errors(q)
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 1)
        data.copyBytes(to: bytes)
        let code = qpdf_read_memory(q, description, bytes.baseAddress?.assumingMemoryBound(to: CChar.self),
                                    UInt64(data.count), nil)
        if code & qpdfErrors != 0 { throw QPDFError(description: lastError() ?? "qpdf cannot read the file") }
    }

    deinit {
        var data: qpdf_data? = q
        qpdf_cleanup(&data)
        bytes.deallocate()
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

    // MARK: Making

    /// Names are immutable: one handle per name serves every dictionary.
    func name(_ n: String) -> qpdf_oh {
        if let known = names[n] { return known }
        let made = qpdf_oh_new_name(q, n)
        names[n] = made
        return made
    }
    private var names: [String: qpdf_oh] = [:]
    func int(_ v: Int) -> qpdf_oh { qpdf_oh_new_integer(q, Int64(v)) }
    func bool(_ v: Bool) -> qpdf_oh { qpdf_oh_new_bool(q, v ? 1 : 0) }
    func null() -> qpdf_oh { qpdf_oh_new_null(q) }
    func text(_ s: String) -> qpdf_oh { qpdf_oh_new_unicode_string(q, s) }
    /// A byte string as written (ASCII dates, identifiers).
    func ascii(_ s: String) -> qpdf_oh { qpdf_oh_new_string(q, s) }
    func dictionary(_ pairs: [(String, qpdf_oh)] = []) -> qpdf_oh {
        let d = qpdf_oh_new_dictionary(q)
        for (k, v) in pairs { qpdf_oh_replace_key(q, d, k, v) }
        return d
    }
    func array(_ items: [qpdf_oh] = []) -> qpdf_oh {
        let a = qpdf_oh_new_array(q)
        for i in items { qpdf_oh_append_item(q, a, i) }
        return a
    }
    /// A direct object from PDF syntax (no references: those go in with `set`).
    func parse(_ syntax: String) -> qpdf_oh { qpdf_oh_parse(q, syntax) }
    func append(_ array: qpdf_oh, _ item: qpdf_oh) { qpdf_oh_append_item(q, array, item) }
    func set(_ o: qpdf_oh, _ k: String, _ v: qpdf_oh) { qpdf_oh_replace_key(q, o, k, v) }
    func remove(_ o: qpdf_oh, _ k: String) { qpdf_oh_remove_key(q, o, k) }
    func indirect(_ o: qpdf_oh) -> qpdf_oh { qpdf_make_indirect_object(q, o) }

    /// A new stream holding `data` unfiltered (the writer compresses it unless it is metadata).
    func stream(_ data: Data, _ pairs: [(String, qpdf_oh)] = []) -> qpdf_oh {
        let s = qpdf_oh_new_stream(q)
        replaceData(s, data)
        let d = qpdf_oh_get_dict(q, s)
        for (k, v) in pairs { qpdf_oh_replace_key(q, d, k, v) }
        return s
    }

    /// New data for a stream; `filter` names how `data` is already encoded (nil: not at all).
    func replaceData(_ stream: qpdf_oh, _ data: Data, filter: qpdf_oh? = nil) {
        data.withUnsafeBytes { raw in
            qpdf_oh_replace_stream_data(q, stream, raw.bindMemory(to: UInt8.self).baseAddress, data.count,
                                        filter ?? qpdf_oh_new_null(q), qpdf_oh_new_null(q))
        }
    }


    // MARK: Writing

    /// Writes the file to `path`: a deterministic /ID (same input, same bytes) and at least PDF 1.7.
    func write(to path: String) throws {
        guard qpdf_init_write(q, path) & qpdfErrors == 0 else {
            throw QPDFError(description: lastError() ?? "qpdf cannot write")
        }
        qpdf_set_deterministic_ID(q, 1)
        qpdf_set_compress_streams(q, 1)
        qpdf_set_minimum_pdf_version(q, "1.7")
        if qpdf_write(q) & qpdfErrors != 0 { throw QPDFError(description: lastError() ?? "qpdf cannot write") }
    }
}


/// zlib, for the content streams the tagging stage rewrites.
enum Deflate {
    /// Level 1: several times faster than the default, a few percent larger.
    static func fast(_ data: Data) -> Data? {
        var length = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(length))
        let status = data.withUnsafeBytes { input in
            compress2(&out, &length, input.bindMemory(to: Bytef.self).baseAddress, uLong(data.count), 1)
        }
        guard status == Z_OK else { return nil }
        return Data(out.prefix(Int(length)))
    }
}
