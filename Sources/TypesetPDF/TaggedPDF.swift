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
    /// Per page, the sequences (by MCID) in another language than their element's, with that language.
    var languages: [[Int: String]] = []
    /// Threads that rewrite and compress page contents (`--jobs`).
    var jobs = 1
    /// Per page, the link annotations this stage writes.
    var links = RecordedLinks()
    /// For link rectangles: PDF's y axis points up from the page's bottom edge.
    var pageHeight: Double = 0
}

enum TaggedPDF {
    /// `memo`: rewritten content streams of earlier builds (`--watch`), nil for a clean build.
    /// `input.pages` is taken (each page's records are released as the structure tree reads them).
    static func finish(path: String, _ input: inout TaggingInput, memo: PageStreamMemo? = nil) throws {
        var update: IncrementalUpdate
        let cairo: CairoPages
        do {
            let pdf = try QPDFFile(path: path)
            update = try IncrementalUpdate(replacing: path, hashInBackground: input.jobs > 1)
            // Read before the catalog loses the key (CairoPages).
            let cairosTree = pdf.objectNumber(pdf.key(pdf.root, "/StructTreeRoot"))
            cairo = try rewritePages(pdf, input, &update, memo: memo)
            leaveOutCairosTree(root: cairosTree, &update)
        }  // qpdf is closed: its table of cairo's objects (a million for a long table) is not held from here
        var pages: [PageMarks] = []
        swap(&pages, &input.pages)
        var links = RecordedLinks()
        swap(&links, &input.links)
        let root = try writeTree(StructureTree(pages: consume pages, links: links, continuations: cairo.continuations),
                                 links: &links, pageHeight: input.pageHeight, cairo, &update)
        var catalog = [
            "/StructTreeRoot \(PDFSyntax.ref(root))", "/MarkInfo << /Marked true >>",
            "/Lang \(PDFSyntax.text(input.language))", "/ViewerPreferences << /DisplayDocTitle true >>",
            "/Version /1.7",
        ]
        if let number = update.info, let info = cairo.info { try update.put(number, info.with(infoKeys(input))) }
        let metadata = update.reserve()
        try update.putStream(metadata, "/Type /Metadata /Subtype /XML",
                         Data(XMPMetadata(input: input, producer: cairo.producer).packet.utf8))
        catalog.append("/Metadata \(PDFSyntax.ref(metadata))")
        if input.standards.contains(where: \.isPDFA) { catalog.append(try outputIntent(&update)) }
        try update.put(update.root, cairo.catalog.with(catalog))
        try update.finish()
    }

    /// cairo's structure tree is not copied: the catalog names the one written here (CairoStructureTree.swift).
    static func leaveOutCairosTree(root: Int, _ update: inout IncrementalUpdate) {
        guard root > 0 else { return }
        let read = update.objectReader()
        let objects = CairoStructureTree.objects(root: root, heads: { update.forEachObjectHead(64, $0) }, bytes: read)
        update.leaveOut(objects)
    }

    /// The catalog's keys this stage writes.
    static func catalogKeys(_ input: TaggingInput) -> [String] {
        ["/StructTreeRoot", "/MarkInfo", "/Lang", "/ViewerPreferences", "/Version", "/Metadata"]
            + (input.standards.contains(where: \.isPDFA) ? ["/OutputIntents"] : [])
    }

    /// Rewrites every page's content (a few pages at a time: memory stays flat), compresses cairo's other
    /// streams, and keeps what the rest of the stage needs of cairo's file.
    static func rewritePages(_ pdf: QPDFFile, _ input: TaggingInput, _ update: inout IncrementalUpdate,
                             memo: PageStreamMemo?) throws -> CairoPages {
        let pages = pdf.pagesReadInTurn() ?? (0..<pdf.pageCount).map(pdf.page)
        pdf.dropMappedPages()
        guard pages.count == input.pages.count else {
            throw QPDFError(description: "\(pages.count) pages written but \(input.pages.count) recorded")
        }
        var continuations: [PageContinuations] = []
        // Read with qpdf here (it is not thread-safe), rewritten and compressed on `jobs` threads, written in
        // page order (the same bytes with any number of threads).
        let batch = max(input.jobs, 1) * 8
        for start in stride(from: 0, to: pages.count, by: batch) {
            let range = start..<min(start + batch, pages.count)
            let streams = try range.map { try contentStreams(of: pages[$0], pdf, memo: memo) }
            update.leaveOut(streams.flatMap { $0.map(\.lengthObject) })
            pdf.dropMappedPages()  // read: the file's pages need not stay resident (QPDFFile)
            let marks = range.map { input.pages[$0].count }
            let silent = range.map { $0 < input.actualTexts.count ? input.actualTexts[$0] : [] }
            let languages = range.map { $0 < input.languages.count ? input.languages[$0] : [:] }
            let done = PageRewrites(count: range.count)
            let rewriteOne: @Sendable (Int) -> Void = { k in
                done.set(k, rewrite(streams[k], marks: marks[k], silent: silent[k], languages: languages[k], memo: memo))
            }
            // One page is rewritten here: Dispatch would start its worker threads for it (0.16 ms of a one-page
            // build).
            if input.jobs > 1 && range.count > 1 {
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
        pdf.dropMappedPages()
        let cairo = CairoPages(pdf, pages: pages, input, info: update.info != nil, continuations: continuations)
        pdf.dropMappedPages()
        return cairo
    }

    /// The page's content with artifacts marked and cairo's spans lifted out (ContentRewrite.swift); the stream
    /// replaces cairo's under the same number, compressed quickly (zlib level 1). Returns the continuations.
    /// `memo` (`--watch`): a stream rewritten in an earlier build under the same key is taken as it was.
    static func rewrite(_ streams: [ContentStream], marks: Int, silent: Set<Int>, languages: [Int: String] = [:],
                        memo: PageStreamMemo?) -> PageRewrite {
        var page = PageRewrite()
        var next = marks
        for stream in streams {
            let key = stream.stored.map {
                PageStreamMemo.Key(raw: $0.raw, filter: $0.filter, firstFreeMCID: next, silent: silent,
                                   languages: languages)
            }
            let entry: PageStreamMemo.Entry
            if let key, let kept = memo?.entry(for: key) {
                entry = kept
            } else {
                // Not read for a stream the memo is likely to hold; decoded here from its stored bytes when it
                // was not (only cairo's own unfiltered content reaches this stage tagged: see PDFRenderer).
                let data = stream.data ?? stream.stored?.raw ?? Data()
                let result = ContentRewrite.rewrite(data, firstFreeMCID: next, silent: silent, languages: languages)
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
        /// cairo's object holding the stream's /Length (0: none), unused once the stream is replaced.
        var lengthObject = 0
    }

    /// The page's content streams with their object numbers: decoded, or with a memo their stored bytes (an
    /// unfiltered stream, cairo's tagged output, is not read a second time to decode it).
    static func contentStreams(of page: qpdf_oh, _ pdf: QPDFFile, memo: PageStreamMemo?) throws -> [ContentStream] {
        let contents = pdf.key(page, "/Contents")
        let streams = pdf.isStream(contents) ? [contents] : (0..<pdf.count(contents)).map { pdf.item(contents, $0) }
        return try streams.map { stream in
            let stored = memo == nil ? nil : pdf.rawStreamData(stream).map { ($0, pdf.filter(stream)) }
            if let stored, stored.1 == "null" {
                return ContentStream(number: pdf.objectNumber(stream), data: nil, stored: stored,
                                     lengthObject: pdf.lengthObject(stream))
            }
            guard let data = pdf.streamData(stream) else { throw QPDFError(description: "a page's content cannot be read") }
            return ContentStream(number: pdf.objectNumber(stream), data: data, stored: stored,
                                 lengthObject: pdf.lengthObject(stream))
        }
    }

    /// cairo's other streams written uncompressed (it compresses no content: see PDFRenderer), compressed here.
    static func compressRest(_ pdf: QPDFFile, _ update: inout IncrementalUpdate) throws {
        for (k, number) in update.unfilteredStreams().filter({ !update.replaces($0) }).enumerated() {
            if k % 16 == 15 { pdf.dropMappedPages() }  // fonts and images read: not kept resident (QPDFFile)
            let stream = pdf.object(number)
            guard pdf.isStream(stream), let data = pdf.streamData(stream), let packed = Deflate.fast(data) else { continue }
            let dictionary = qpdf_oh_get_dict(pdf.q, stream)
            let length = pdf.lengthObject(stream)  // before `unparse` takes the key out
            var entries = pdf.unparse(dictionary, replacing: ["/Filter /FlateDecode", "/Length 0"])
            guard entries.hasPrefix("<<"), entries.hasSuffix(" /Length 0 >>") else { continue }
            entries = String(entries.dropFirst(2).dropLast(" /Length 0 >>".count))
            try update.putStream(number, entries, packed)
            update.leaveOut([length])
        }
    }

    /// The structure tree root, the Document element, every element (children in source order after the
    /// element's own content), the parent tree, the link annotations; pages get their keys. Returns the root.
    /// `links` are released page by page as their annotations are written.
    static func writeTree(_ tree: StructureTree, links: inout RecordedLinks, pageHeight: Double, _ cairo: CairoPages,
                          _ update: inout IncrementalUpdate) throws -> Int {
        // The tree, the pages and the annotations go into compressed object streams (ObjectStreams.swift).
        update.startPacking()
        let root = update.reserve(), document = update.reserve(), parentTree = update.reserve()
        // Element of rank r (its place in id order) -> object firstNumber + r.
        let firstNumber = update.nextNumber
        update.reserve(count: tree.count)
        func number(_ rank: Int) -> Int { firstNumber + rank }
        let pageNumbers = cairo.numbers
        let annotations = AnnotationNumbers(counts: pageNumbers.indices.map { links.count(page: $0) }, &update)
        let numbers = ElementNumbers(first: firstNumber, document: document, pages: pageNumbers, annotations: annotations)
        for r in 0 ..< tree.count { try writeElement(r, of: tree, numbers, &update) }
        var top: [UInt8] = []
        top.appendWriting(maximum: 64 + 24 * tree.topRanks.count) { out in
            out.put("<< /Type /StructElem /S /Document /P ")
            out.putRef(root)
            out.put(" /K [")
            for (k, r) in tree.topRanks.enumerated() {
                if k > 0 { out.put(0x20) }
                out.putRef(number(Int(r)))
            }
            out.put("] >>")
        }
        try update.put(document, bytes: top)

        // Parent tree: page p's key is p (an array indexed by MCID), then one key per link annotation.
        for p in tree.owners.indices {
            var keys = ["/StructParents \(p)", "/Tabs /S"]
            let own = annotations.of(page: p)
            if !own.isEmpty {
                keys.append(annotsKey(cairo.annotations[p], own))
            }
            try update.put(pageNumbers[p], cairo.dictionaries[p].with(keys))
        }
        var key = tree.owners.count
        // `linkElements` are in page order (StructureTree.init reads the pages in turn).
        var released = 0
        for link in tree.linkElements {
            while released < link.page {
                links.release(page: released)
                released += 1
            }
            let recorded = links.area(page: link.page, index: link.index)
            try update.begin(annotations[link.page, link.index], maximum: PDFLinks.annotationMaximum(recorded) + 8) { out in
                PDFLinks.putAnnotation(recorded, structParent: key, pageHeight: pageHeight, to: &out)
                out.put("\nendobj\n")
            }
            key += 1
        }
        try writeParentTree(parentTree, owners: tree.owners, links: tree.linkElements, firstElement: firstNumber, &update)
        try update.put(root, "<< /Type /StructTreeRoot /K [\(PDFSyntax.ref(document))] /ParentTree \(PDFSyntax.ref(parentTree))"
                   + " /ParentTreeNextKey \(key) >>")
        try update.stopPacking()
        return root
    }

    /// The Info dictionary's keys this stage writes: title and `D:` dates (the XMP repeats them).
    static func infoKeys(_ input: TaggingInput) -> [String] {
        var keys = ["/Title \(PDFSyntax.text(input.title))"]
        if let seconds = input.metadata.creationDate {
            let date = PDFSyntax.ascii("D:" + PDFDates.compact(seconds) + "Z")
            keys += ["/CreationDate \(date)", "/ModDate \(date)"]
        }
        return keys
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
