// The one stage that writes PDF structure (README, "Tagged PDF"). cairo has drawn every page with its content
// inside structure tags (TagRecorder.swift); this stage reads the few objects it needs from cairo's finished
// file with qpdf (lazily: nothing else is parsed) and appends an incremental update (IncrementalUpdate.swift)
// that replaces cairo's structure tree (drawing order) by one in source order, turns the `Private` sequences
// into `/Artifact`, ties link annotations to Link elements, and adds what cairo 1.16 cannot: /Lang, /MarkInfo,
// /ViewerPreferences, /Alt, /Scope, /ListNumbering, XMP metadata, the PDF/A output intent and `D:` dates.

import CQpdf
import Foundation
import TypesetIR

struct TaggingInput {
    var pages: [[MarkedContent]]
    var language: String
    var title: String
    var metadata: DocumentMetadata
    var standards: Set<PDFStandard>
    /// Per page, the MCIDs whose sequence reads as nothing (`/ActualText ()`): added hyphens.
    var actualTexts: [Set<Int>] = []
    /// Threads that rewrite and compress page contents (`--jobs`).
    var jobs = 1
}

enum TaggedPDF {
    static func finish(path: String, _ input: TaggingInput) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let pdf = try QPDFFile(data: data, description: path)
        var update = try IncrementalUpdate(base: data)
        let pages = (0..<pdf.pageCount).map(pdf.page)
        guard pages.count == input.pages.count else {
            throw QPDFError(description: "\(pages.count) pages written but \(input.pages.count) recorded")
        }
        var continuations: [[Int: [Int]]] = []
        // A few pages at a time (memory stays flat): read with qpdf here (it is not thread-safe), rewritten and
        // compressed on `jobs` threads, written in page order (the same bytes with any number of threads).
        let batch = max(input.jobs, 1) * 8
        for start in stride(from: 0, to: pages.count, by: batch) {
            let range = start..<min(start + batch, pages.count)
            let streams = try range.map { try contentStreams(of: pages[$0], pdf) }
            let marks = range.map { input.pages[$0].count }
            let silent = range.map { $0 < input.actualTexts.count ? input.actualTexts[$0] : [] }
            let done = PageRewrites(count: range.count)
            let rewriteOne: @Sendable (Int) -> Void = { k in
                done.set(k, rewrite(streams[k], marks: marks[k], silent: silent[k]))
            }
            if input.jobs > 1 {
                DispatchQueue.concurrentPerform(iterations: range.count, execute: rewriteOne)
            } else {
                for k in 0..<range.count { rewriteOne(k) }
            }
            for page in done.all {
                for s in page.streams { update.putStream(s.number, s.dictionary, s.data) }
                continuations.append(page.continuations)
            }
        }
        let tree = StructureTree(pages: input.pages, continuations: continuations)
        let root = writeTree(tree, pages: pages, pdf, &update)
        var catalog = [
            "/StructTreeRoot \(PDFSyntax.ref(root))", "/MarkInfo << /Marked true >>",
            "/Lang \(PDFSyntax.text(input.language))", "/ViewerPreferences << /DisplayDocTitle true >>",
            "/Version /1.7",
        ]
        let producer = writeInfo(input, pdf, &update)
        let metadata = update.reserve()
        update.putStream(metadata, "/Type /Metadata /Subtype /XML",
                         Data(XMPMetadata(input: input, producer: producer).packet.utf8))
        catalog.append("/Metadata \(PDFSyntax.ref(metadata))")
        if input.standards.contains(where: \.isPDFA) { catalog.append(try outputIntent(&update)) }
        update.put(update.root, pdf.unparse(pdf.root, replacing: catalog))
        try update.finished().write(to: URL(fileURLWithPath: path))
    }

    /// The page's content with artifacts marked and cairo's spans lifted out (ContentRewrite.swift); the stream
    /// replaces cairo's under the same number, compressed quickly (zlib level 1). Returns the continuations.
    static func rewrite(_ streams: [(number: Int, data: Data)], marks: Int, silent: Set<Int>) -> PageRewrite {
        var page = PageRewrite()
        var next = marks
        for stream in streams {
            let result = ContentRewrite.rewrite(stream.data, firstFreeMCID: next, silent: silent)
            next = result.nextMCID
            page.continuations.merge(result.continuations) { $0 + $1 }
            let rewritten = result.data
            if let packed = Deflate.fast(rewritten) {
                page.streams.append((stream.number, "/Filter /FlateDecode", packed))
            } else {
                page.streams.append((stream.number, "", rewritten))
            }
        }
        return page
    }

    /// The page's content streams, decoded, with their object numbers.
    static func contentStreams(of page: qpdf_oh, _ pdf: QPDFFile) throws -> [(number: Int, data: Data)] {
        let contents = pdf.key(page, "/Contents")
        let streams = pdf.isStream(contents) ? [contents] : (0..<pdf.count(contents)).map { pdf.item(contents, $0) }
        return try streams.map { stream in
            guard let data = pdf.streamData(stream) else { throw QPDFError(description: "a page's content cannot be read") }
            return (pdf.objectNumber(stream), data)
        }
    }

    /// The structure tree root, the Document element, every element (children in source order after the
    /// element's own content), the parent tree; pages and link annotations get their keys. Returns the root.
    static func writeTree(_ tree: StructureTree, pages: [qpdf_oh], _ pdf: QPDFFile,
                          _ update: inout IncrementalUpdate) -> Int {
        let root = update.reserve(), document = update.reserve(), parentTree = update.reserve()
        var numbers: [Int: Int] = [:]
        for id in tree.elements.keys.sorted() { numbers[id] = update.reserve() }
        let pageNumbers = pages.map(pdf.objectNumber)
        let annotations = pages.map { pdf.key($0, "/Annots") }
        func ref(_ id: Int?) -> String { id.flatMap { numbers[$0] }.map(PDFSyntax.ref) ?? PDFSyntax.ref(document) }
        for id in tree.elements.keys.sorted() {
            guard let element = tree.elements[id], let number = numbers[id] else { continue }
            let node = element.node
            let firstPage = element.content.lazy.compactMap { c -> Int? in
                if case .mcid(let page, _) = c { return page } else { return nil }
            }.first
            var kids: [String] = []
            for content in element.content {
                switch content {
                case .mcid(let page, let mcid):
                    kids.append(page == firstPage ? String(mcid)
                                : "<< /Type /MCR /Pg \(PDFSyntax.ref(pageNumbers[page])) /MCID \(mcid) >>")
                case .annotation(let page, let index):
                    guard index < pdf.count(annotations[page]) else { continue }
                    let annotation = pdf.objectNumber(pdf.item(annotations[page], index))
                    kids.append("<< /Type /OBJR /Pg \(PDFSyntax.ref(pageNumbers[page])) /Obj \(PDFSyntax.ref(annotation)) >>")
                }
            }
            kids += element.children.map { ref($0) }
            var d = "<< /Type /StructElem /S /\(node.type) /P \(ref(element.parent)) /K [\(kids.joined(separator: " "))]"
            if let firstPage { d += " /Pg \(PDFSyntax.ref(pageNumbers[firstPage]))" }
            if let alt = node.alt { d += " /Alt \(PDFSyntax.text(alt))" }
            if let language = node.language { d += " /Lang \(PDFSyntax.text(language))" }
            if let scope = node.scope { d += " /A << /O /Table /Scope /\(scope) >>" }
            if let numbering = node.listNumbering { d += " /A << /O /List /ListNumbering /\(numbering) >>" }
            if node.type == "Note" { d += " /ID \(PDFSyntax.ascii("note-\(id)"))" }   // PDF/UA: notes have ids
            update.put(number, d + " >>")
        }
        update.put(document, "<< /Type /StructElem /S /Document /P \(PDFSyntax.ref(root)) /K ["
                   + tree.top.map { ref($0) }.joined(separator: " ") + "] >>")

        // Parent tree: page p's key is p (an array indexed by MCID), then one key per link annotation.
        var nums: [String] = []
        for (p, owners) in tree.owners.enumerated() {
            update.put(pageNumbers[p], pdf.unparse(pages[p], replacing: ["/StructParents \(p)", "/Tabs /S"]))
            nums.append("\(p) [" + owners.map { $0.map { ref($0) } ?? "null" }.joined(separator: " ") + "]")
        }
        var key = tree.owners.count
        for link in tree.linkElements {
            guard link.index < pdf.count(annotations[link.page]), numbers[link.element] != nil else { continue }
            let annotation = pdf.item(annotations[link.page], link.index)
            update.put(pdf.objectNumber(annotation), pdf.unparse(annotation, replacing: [
                "/StructParent \(key)", "/Contents \(PDFSyntax.text(link.contents))", "/F 4",
            ]))
            nums.append("\(key) \(ref(link.element))")
            key += 1
        }
        update.put(parentTree, "<< /Nums [" + nums.joined(separator: " ") + "] >>")
        update.put(root, "<< /Type /StructTreeRoot /K [\(PDFSyntax.ref(document))] /ParentTree \(PDFSyntax.ref(parentTree))"
                   + " /ParentTreeNextKey \(key) >>")
        return root
    }

    /// Title and `D:` dates in the Info dictionary (the XMP repeats them); returns cairo's Producer.
    static func writeInfo(_ input: TaggingInput, _ pdf: QPDFFile, _ update: inout IncrementalUpdate) -> String {
        let info = pdf.key(pdf.trailer, "/Info")
        var keys = ["/Title \(PDFSyntax.text(input.title))"]
        if let seconds = input.metadata.creationDate {
            let date = PDFSyntax.ascii("D:" + PDFDates.compact(seconds) + "Z")
            keys += ["/CreationDate \(date)", "/ModDate \(date)"]
        }
        let producer = pdf.string(pdf.key(info, "/Producer")) ?? "typeset"
        if let number = update.info, qpdf_oh_is_dictionary(pdf.q, info) != 0 {
            update.put(number, pdf.unparse(info, replacing: keys))
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
        update.putStream(icc, "/N 3", profile)
        let name = PDFSyntax.ascii("sRGB IEC61966-2.1")
        return "/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFA1 /OutputConditionIdentifier \(name) /Info \(name)"
            + " /DestOutputProfile \(PDFSyntax.ref(icc)) >>]"
    }
}

extension TaggingInput {
    /// The title a viewer shows: the `title` key, else the first level-1 heading, else the file name.
    init(_ document: TypesetDocument, pages: [[MarkedContent]]) {
        let heading = document.blocks.lazy.compactMap { block -> String? in
            if case .paragraph(let p) = block, let o = p.outline, o.level == 1, !o.title.isEmpty { return o.title }
            return nil
        }.first
        let title = document.metadata.title.flatMap { $0.isEmpty ? nil : $0 } ?? heading ?? document.sourceName ?? "Untitled"
        self.init(pages: pages, language: document.language, title: title, metadata: document.metadata,
                  standards: document.pdfStandards)
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
