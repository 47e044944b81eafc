// The one stage that writes PDF structure (README, "Tagged PDF"). cairo has drawn every page with its content
// inside structure tags (TagRecorder.swift); this stage reads the few objects it needs from cairo's finished
// file with qpdf (lazily: nothing else is parsed) and writes the file anew (IncrementalUpdate.swift) with an
// update that replaces cairo's structure tree (drawing order) by one in source order, turns the `Private` sequences
// into `/Artifact`, ties link annotations to Link elements, and adds what cairo 1.16 cannot: /Lang, /MarkInfo,
// /ViewerPreferences, /Alt, /Scope, /ListNumbering, XMP metadata, the PDF/A output intent and `D:` dates.

import CQpdf
import Foundation
import TypesetIR

struct TaggingInput {
    var pages: [PageMarks]
    var language: String
    var title: String
    var metadata: DocumentMetadata
    var standards: Set<PDFStandard>
    /// Per page, the MCIDs whose sequence reads as nothing (`/ActualText ()`): added hyphens.
    var actualTexts = SilentMCIDs()
    /// Threads that rewrite and compress page contents (`--jobs`).
    var jobs = 1
    /// Per page, the link annotations this stage writes.
    var links: [[RecordedLink]] = []
    /// For link rectangles: PDF's y axis points up from the page's bottom edge.
    var pageHeight: Double = 0
}

enum TaggedPDF {
    /// `memo`: rewritten content streams of earlier builds (`--watch`), nil for a clean build.
    static func finish(path: String, _ input: TaggingInput, memo: PageStreamMemo? = nil) throws {
        let pdf = try QPDFFile(path: path)
        var update = try IncrementalUpdate(replacing: path)
        let pages = (0..<pdf.pageCount).map(pdf.page)
        guard pages.count == input.pages.count else {
            throw QPDFError(description: "\(pages.count) pages written but \(input.pages.count) recorded")
        }
        var continuations: [PageContinuations] = []
        // A few pages at a time (memory stays flat): read with qpdf here (it is not thread-safe), rewritten and
        // compressed on `jobs` threads, written in page order (the same bytes with any number of threads).
        let batch = max(input.jobs, 1) * 8
        for start in stride(from: 0, to: pages.count, by: batch) {
            let range = start..<min(start + batch, pages.count)
            let streams = try range.map { try contentStreams(of: pages[$0], pdf, memo: memo) }
            let marks = range.map { input.pages[$0].count }
            let silent = range.map { $0 < input.actualTexts.count ? input.actualTexts[$0] : [] }
            let done = PageRewrites(count: range.count)
            let rewriteOne: @Sendable (Int) -> Void = { k in
                done.set(k, rewrite(streams[k], marks: marks[k], silent: silent[k], memo: memo))
            }
            if input.jobs > 1 {
                DispatchQueue.concurrentPerform(iterations: range.count, execute: rewriteOne)
            } else {
                for k in 0..<range.count { rewriteOne(k) }
            }
            for page in done.all {
                for s in page.streams { try update.putStream(s.number, s.dictionary, s.data) }
                continuations.append(PageContinuations(page.continuations))
            }
        }
        try compressRest(pdf, &update)
        let tree = StructureTree(pages: input.pages, links: input.links, continuations: continuations)
        let root = try writeTree(tree, links: input.links, pageHeight: input.pageHeight, pages: pages, pdf, &update)
        var catalog = [
            "/StructTreeRoot \(PDFSyntax.ref(root))", "/MarkInfo << /Marked true >>",
            "/Lang \(PDFSyntax.text(input.language))", "/ViewerPreferences << /DisplayDocTitle true >>",
            "/Version /1.7",
        ]
        let producer = try writeInfo(input, pdf, &update)
        let metadata = update.reserve()
        try update.putStream(metadata, "/Type /Metadata /Subtype /XML",
                         Data(XMPMetadata(input: input, producer: producer).packet.utf8))
        catalog.append("/Metadata \(PDFSyntax.ref(metadata))")
        if input.standards.contains(where: \.isPDFA) { catalog.append(try outputIntent(&update)) }
        try update.put(update.root, pdf.unparse(pdf.root, replacing: catalog))
        try update.finish()
    }

    /// The page's content with artifacts marked and cairo's spans lifted out (ContentRewrite.swift); the stream
    /// replaces cairo's under the same number, compressed quickly (zlib level 1). Returns the continuations.
    /// `memo` (`--watch`): a stream rewritten in an earlier build under the same key is taken as it was.
    static func rewrite(_ streams: [ContentStream], marks: Int, silent: Set<Int>, memo: PageStreamMemo?) -> PageRewrite {
        var page = PageRewrite()
        var next = marks
        for stream in streams {
            let key = stream.stored.map {
                PageStreamMemo.Key(raw: $0.raw, filter: $0.filter, firstFreeMCID: next, silent: silent)
            }
            let entry: PageStreamMemo.Entry
            if let key, let kept = memo?.entry(for: key) {
                entry = kept
            } else {
                // Not read for a stream the memo is likely to hold; decoded here from its stored bytes when it
                // was not (only cairo's own unfiltered content reaches this stage tagged: see PDFRenderer).
                let data = stream.data ?? stream.stored?.raw ?? Data()
                let result = ContentRewrite.rewrite(data, firstFreeMCID: next, silent: silent)
                let packed = Deflate.fast(result.data)
                entry = PageStreamMemo.Entry(dictionary: packed == nil ? "" : "/Filter /FlateDecode",
                                             data: packed ?? result.data, continuations: result.continuations,
                                             nextMCID: result.nextMCID)
                if let key { memo?.store(entry, for: key) }
            }
            next = entry.nextMCID
            page.continuations.merge(entry.continuations) { $0 + $1 }
            page.streams.append((stream.number, entry.dictionary, entry.data))
        }
        return page
    }

    /// One content stream of a page: its number, its decoded bytes and, for the memo, its bytes as stored.
    struct ContentStream {
        var number: Int
        /// nil: not decoded, as its stored bytes are unfiltered (`stored.filter` is `null`) and are the data.
        var data: Data?
        var stored: (raw: Data, filter: String)?
    }

    /// The page's content streams with their object numbers: decoded, or with a memo their stored bytes (an
    /// unfiltered stream, cairo's tagged output, is not read a second time to decode it).
    static func contentStreams(of page: qpdf_oh, _ pdf: QPDFFile, memo: PageStreamMemo?) throws -> [ContentStream] {
        let contents = pdf.key(page, "/Contents")
        let streams = pdf.isStream(contents) ? [contents] : (0..<pdf.count(contents)).map { pdf.item(contents, $0) }
        return try streams.map { stream in
            let stored = memo == nil ? nil : pdf.rawStreamData(stream).map { ($0, pdf.filter(stream)) }
            if let stored, stored.1 == "null" {
                return ContentStream(number: pdf.objectNumber(stream), data: nil, stored: stored)
            }
            guard let data = pdf.streamData(stream) else { throw QPDFError(description: "a page's content cannot be read") }
            return ContentStream(number: pdf.objectNumber(stream), data: data, stored: stored)
        }
    }

    /// cairo's other streams written uncompressed (it compresses no content: see PDFRenderer), compressed here.
    static func compressRest(_ pdf: QPDFFile, _ update: inout IncrementalUpdate) throws {
        for number in update.unfilteredStreams() where !update.replaces(number) {
            let stream = pdf.object(number)
            guard pdf.isStream(stream), let data = pdf.streamData(stream), let packed = Deflate.fast(data) else { continue }
            let dictionary = qpdf_oh_get_dict(pdf.q, stream)
            var entries = pdf.unparse(dictionary, replacing: ["/Filter /FlateDecode", "/Length 0"])
            guard entries.hasPrefix("<<"), entries.hasSuffix(" /Length 0 >>") else { continue }
            entries = String(entries.dropFirst(2).dropLast(" /Length 0 >>".count))
            try update.putStream(number, entries, packed)
        }
    }

    /// The structure tree root, the Document element, every element (children in source order after the
    /// element's own content), the parent tree, the link annotations; pages get their keys. Returns the root.
    static func writeTree(_ tree: StructureTree, links: [[RecordedLink]], pageHeight: Double, pages: [qpdf_oh],
                          _ pdf: QPDFFile, _ update: inout IncrementalUpdate) throws -> Int {
        let root = update.reserve(), document = update.reserve(), parentTree = update.reserve()
        // Element id -> object number: the ids in order, numbered on from `firstNumber` (as a dictionary, a
        // 212,000-row table's 850,000 elements took some 40 MB).
        let ids = tree.elements.keys, firstNumber = update.nextNumber
        for _ in ids { _ = update.reserve() }
        func number(_ id: Int) -> Int? {
            var lo = 0, hi = ids.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if ids[mid] < id { lo = mid + 1 } else { hi = mid }
            }
            return lo < ids.count && ids[lo] == id ? firstNumber + lo : nil
        }
        let pageNumbers = pages.map(pdf.objectNumber)
        let annotations = pages.indices.map { p in (p < links.count ? links[p] : []).map { _ in update.reserve() } }
        func ref(_ id: Int?) -> String { id.flatMap(number).map(PDFSyntax.ref) ?? PDFSyntax.ref(document) }
        for (k, id) in ids.enumerated() {
            guard let element = tree.elements[id] else { continue }
            let objectNumber = firstNumber + k
            let node = element.node
            let firstPage = element.content.lazy.compactMap { c -> Int? in
                if case .mcid(let page, _) = c { return page } else { return nil }
            }.first
            // Written in parts: a paragraph of a million lines has a million kids.
            try update.begin(objectNumber)
            let parent = element.parent.flatMap(number) ?? document
            // Each part through a cursor into room made for it (the bounds: literals and 20 digits a number).
            try update.write { out in
                out.appendWriting(maximum: 96 + node.type.utf8.count) { out in
                    out.put("<< /Type /StructElem /S /")
                    out.put(utf8: node.type)
                    out.put(" /P ")
                    out.putRef(parent)
                    out.put(" /K [")
                }
            }
            var first = true
            for content in element.content {
                try update.write { out in
                    out.appendWriting(maximum: 128) { out in
                        if !first { out.put(0x20) }
                        switch content {
                        case .mcid(let page, let mcid):
                            if page == firstPage {
                                out.putInt(mcid)
                            } else {
                                out.put("<< /Type /MCR /Pg ")
                                out.putRef(pageNumbers[page])
                                out.put(" /MCID ")
                                out.putInt(mcid)
                                out.put(" >>")
                            }
                        case .annotation(let page, let index):
                            out.put("<< /Type /OBJR /Pg ")
                            out.putRef(pageNumbers[page])
                            out.put(" /Obj ")
                            out.putRef(annotations[page][index])
                            out.put(" >>")
                        }
                    }
                }
                first = false
            }
            for child in element.children {
                let kid = number(child) ?? document
                try update.write { out in
                    out.appendWriting(maximum: 32) { out in
                        if !first { out.put(0x20) }
                        out.putRef(kid)
                    }
                }
                first = false
            }
            try update.write { out in
                out.appendWriting(maximum: 40) { out in
                    out.put(UInt8(ascii: "]"))
                    if let firstPage {
                        out.put(" /Pg ")
                        out.putRef(pageNumbers[firstPage])
                    }
                }
                if let alt = node.alt {
                    out.append(ascii: " /Alt ")
                    out.appendPDFText(alt)
                }
                if let language = node.language {
                    out.append(ascii: " /Lang ")
                    out.appendPDFText(language)
                }
                if let scope = node.scope { out.append(contentsOf: " /A << /O /Table /Scope /\(scope) >>".utf8) }
                if let numbering = node.listNumbering {
                    out.append(contentsOf: " /A << /O /List /ListNumbering /\(numbering) >>".utf8)
                }
                if node.type == "Note" { out.append(contentsOf: " /ID \(PDFSyntax.ascii("note-\(id)"))".utf8) }   // PDF/UA: notes have ids
                out.append(ascii: " >>\nendobj\n")
            }
        }
        try update.put(document, "<< /Type /StructElem /S /Document /P \(PDFSyntax.ref(root)) /K ["
                   + tree.top.map { ref($0) }.joined(separator: " ") + "] >>")

        // Parent tree: page p's key is p (an array indexed by MCID), then one key per link annotation.
        for (p, _) in tree.owners.enumerated() {
            var keys = ["/StructParents \(p)", "/Tabs /S"]
            if !annotations[p].isEmpty { keys.append(annotationArray(annotations[p], kept: pages[p], pdf)) }
            try update.put(pageNumbers[p], pdf.unparse(pages[p], replacing: keys))
        }
        var key = tree.owners.count
        var linkKeys: [UInt8] = []
        for link in tree.linkElements {
            let recorded = links[link.page][link.index]
            try update.begin(annotations[link.page][link.index])
            try update.write { out in
                PDFLinks.appendAnnotation(recorded, structParent: key, pageHeight: pageHeight, to: &out)
                out.append(ascii: "\nendobj\n")
            }
            let owned = number(link.element) ?? document
            linkKeys.appendWriting(maximum: 64) { out in
                if key > tree.owners.count { out.put(0x20) }
                out.putInt(key)
                out.put(0x20)
                out.putRef(owned)
            }
            key += 1
        }
        try update.begin(parentTree)
        try update.write("<< /Nums [")
        var separator = ""
        for (p, owners) in tree.owners.enumerated() {
            try update.write(separator + "\(p) [")
            var inner = false
            for owner in owners {
                let owned = owner.map { number($0) ?? document }
                try update.write { out in
                    if inner { out.append(0x20) }
                    if let owned { out.appendRef(owned) } else { out.append(ascii: "null") }
                }
                inner = true
            }
            try update.write("]")
            separator = " "
        }
        if !linkKeys.isEmpty {
            try update.write(separator)
            try update.write { $0.append(contentsOf: linkKeys) }
        }
        try update.write("] >>")
        try update.end()
        try update.put(root, "<< /Type /StructTreeRoot /K [\(PDFSyntax.ref(document))] /ParentTree \(PDFSyntax.ref(parentTree))"
                   + " /ParentTreeNextKey \(key) >>")
        return root
    }

    /// The page's `/Annots`: any cairo wrote (it writes none for links here), then the link annotations.
    static func annotationArray(_ numbers: [Int], kept page: qpdf_oh, _ pdf: QPDFFile) -> String {
        let existing = pdf.key(page, "/Annots")
        let cairo = (0 ..< pdf.count(existing)).map { pdf.objectNumber(pdf.item(existing, $0)) }.filter { $0 > 0 }
        var out: [UInt8] = []
        out.append(ascii: "/Annots [")
        for (k, n) in (cairo + numbers).enumerated() {
            if k > 0 { out.append(0x20) }
            out.appendRef(n)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// Title and `D:` dates in the Info dictionary (the XMP repeats them); returns cairo's Producer.
    static func writeInfo(_ input: TaggingInput, _ pdf: QPDFFile, _ update: inout IncrementalUpdate) throws -> String {
        let info = pdf.key(pdf.trailer, "/Info")
        var keys = ["/Title \(PDFSyntax.text(input.title))"]
        if let seconds = input.metadata.creationDate {
            let date = PDFSyntax.ascii("D:" + PDFDates.compact(seconds) + "Z")
            keys += ["/CreationDate \(date)", "/ModDate \(date)"]
        }
        let producer = pdf.string(pdf.key(info, "/Producer")) ?? "typeset"
        if let number = update.info, qpdf_oh_is_dictionary(pdf.q, info) != 0 {
            try update.put(number, pdf.unparse(info, replacing: keys))
        }
        return producer
    }

    /// PDF/A: an sRGB output intent with its ICC profile (Debian icc-profiles-free, else colord-data).
    static func outputIntent(_ update: inout IncrementalUpdate) throws -> String {
        let candidates = ["/usr/share/color/icc/sRGB.icc", "/usr/share/color/icc/colord/sRGB.icc"]
        guard let profile = candidates.lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first else {
            throw QPDFError(description: "PDF/A needs the sRGB ICC profile from icc-profiles-free or colord-data (\(candidates[0]))")
        }
        let icc = update.reserve()
        try update.putStream(icc, "/N 3", profile)
        let name = PDFSyntax.ascii("sRGB IEC61966-2.1")
        return "/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier \(name) /Info \(name)"
            + " /DestOutputProfile \(PDFSyntax.ref(icc)) >>]"
    }
}

extension TaggingInput {
    /// The title a viewer shows: the `title` key, else the first level-1 heading, else the file name.
    init(_ document: TypesetDocument, pages: [PageMarks]) {
        let heading = document.blocks.lazy.compactMap { block -> String? in
            if case .paragraph(let p) = block, let o = p.outline, o.level == 1, !o.title.isEmpty { return o.title }
            return nil
        }.first
        let title = document.metadata.title.flatMap { $0.isEmpty ? nil : $0 } ?? heading ?? document.sourceName ?? "Untitled"
        self.init(pages: pages, language: document.language, title: title, metadata: document.metadata,
                  standards: document.pdfStandards)
        pageHeight = document.page.height
    }
}

/// One page's rewritten content streams (object number, dictionary entries, bytes) and its continuations.
struct PageRewrite {
    var streams: [(number: Int, dictionary: String, data: Data)] = []
    var continuations: [Int: [Int]] = [:]
}

/// Pages rewritten on several threads, each into its own slot. `@unchecked Sendable`: `slots` only under `lock`.
final class PageRewrites: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [PageRewrite]

    init(count: Int) { slots = Array(repeating: PageRewrite(), count: count) }

    func set(_ k: Int, _ page: PageRewrite) { lock.withLock { slots[k] = page } }

    var all: [PageRewrite] { lock.withLock { slots } }
}
