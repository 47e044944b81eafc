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
}

enum TaggedPDF {
    static func finish(path: String, _ input: TaggingInput) throws {
        // qpdf reads cairo's file lazily while the update is appended to it: neither is held in memory whole.
        let pdf = try QPDFFile(path: path)
        var update = try IncrementalUpdate(appendingTo: path)
        let pages = (0..<pdf.pageCount).map(pdf.page)
        guard pages.count == input.pages.count else {
            throw QPDFError(description: "\(pages.count) pages written but \(input.pages.count) recorded")
        }
        var continuations: [[Int: [Int]]] = []
        for (p, page) in pages.enumerated() {
            let silent = p < input.actualTexts.count ? input.actualTexts[p] : []
            continuations.append(try rewriteContent(of: page, marks: input.pages[p].count, silent: silent, pdf, &update))
        }
        let tree = StructureTree(pages: input.pages, continuations: continuations)
        let root = try writeTree(tree, pages: pages, pdf, &update)
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
    static func rewriteContent(of page: qpdf_oh, marks: Int, silent: Set<Int>, _ pdf: QPDFFile,
                               _ update: inout IncrementalUpdate) throws -> [Int: [Int]] {
        let contents = pdf.key(page, "/Contents")
        let streams = pdf.isStream(contents) ? [contents] : (0..<pdf.count(contents)).map { pdf.item(contents, $0) }
        var continuations: [Int: [Int]] = [:]
        var next = marks
        for stream in streams {
            guard let data = pdf.streamData(stream) else { throw QPDFError(description: "a page's content cannot be read") }
            let result = ContentRewrite.rewrite(data, firstFreeMCID: next, silent: silent)
            next = result.nextMCID
            continuations.merge(result.continuations) { $0 + $1 }
            let rewritten = result.data
            if let packed = Deflate.fast(rewritten) {
                try update.putStream(pdf.objectNumber(stream), "/Filter /FlateDecode", packed)
            } else {
                try update.putStream(pdf.objectNumber(stream), "", rewritten)
            }
        }
        return continuations
    }

    /// The structure tree root, the Document element, every element (children in source order after the
    /// element's own content), the parent tree; pages and link annotations get their keys. Returns the root.
    static func writeTree(_ tree: StructureTree, pages: [qpdf_oh], _ pdf: QPDFFile,
                          _ update: inout IncrementalUpdate) throws -> Int {
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
            // Written in parts: a paragraph of a million lines has a million kids.
            try update.begin(number)
            try update.write("<< /Type /StructElem /S /\(node.type) /P \(ref(element.parent)) /K [")
            var separator = ""
            for content in element.content {
                switch content {
                case .mcid(let page, let mcid):
                    try update.write(separator + (page == firstPage ? String(mcid)
                                     : "<< /Type /MCR /Pg \(PDFSyntax.ref(pageNumbers[page])) /MCID \(mcid) >>"))
                case .annotation(let page, let index):
                    guard index < pdf.count(annotations[page]) else { continue }
                    let annotation = pdf.objectNumber(pdf.item(annotations[page], index))
                    try update.write(separator + "<< /Type /OBJR /Pg \(PDFSyntax.ref(pageNumbers[page])) /Obj \(PDFSyntax.ref(annotation)) >>")
                }
                separator = " "
            }
            for child in element.children {
                try update.write(separator + ref(child))
                separator = " "
            }
            var d = "]"
            if let firstPage { d += " /Pg \(PDFSyntax.ref(pageNumbers[firstPage]))" }
            if let alt = node.alt { d += " /Alt \(PDFSyntax.text(alt))" }
            if let language = node.language { d += " /Lang \(PDFSyntax.text(language))" }
            if let scope = node.scope { d += " /A << /O /Table /Scope /\(scope) >>" }
            if let numbering = node.listNumbering { d += " /A << /O /List /ListNumbering /\(numbering) >>" }
            if node.type == "Note" { d += " /ID \(PDFSyntax.ascii("note-\(id)"))" }   // PDF/UA: notes have ids
            try update.write(d + " >>")
            try update.end()
        }
        try update.put(document, "<< /Type /StructElem /S /Document /P \(PDFSyntax.ref(root)) /K ["
                   + tree.top.map { ref($0) }.joined(separator: " ") + "] >>")

        // Parent tree: page p's key is p (an array indexed by MCID), then one key per link annotation.
        for (p, _) in tree.owners.enumerated() {
            try update.put(pageNumbers[p], pdf.unparse(pages[p], replacing: ["/StructParents \(p)", "/Tabs /S"]))
        }
        var key = tree.owners.count
        var linkKeys: [String] = []
        for link in tree.linkElements {
            guard link.index < pdf.count(annotations[link.page]), numbers[link.element] != nil else { continue }
            let annotation = pdf.item(annotations[link.page], link.index)
            try update.put(pdf.objectNumber(annotation), pdf.unparse(annotation, replacing: [
                "/StructParent \(key)", "/Contents \(PDFSyntax.text(link.contents))", "/F 4",
            ]))
            linkKeys.append("\(key) \(ref(link.element))")
            key += 1
        }
        try update.begin(parentTree)
        try update.write("<< /Nums [")
        var separator = ""
        for (p, owners) in tree.owners.enumerated() {
            try update.write(separator + "\(p) [")
            var inner = ""
            for owner in owners {
                try update.write(inner + (owner.map { ref($0) } ?? "null"))
                inner = " "
            }
            try update.write("]")
            separator = " "
        }
        for entry in linkKeys {
            try update.write(separator + entry)
            separator = " "
        }
        try update.write("] >>")
        try update.end()
        try update.put(root, "<< /Type /StructTreeRoot /K [\(PDFSyntax.ref(document))] /ParentTree \(PDFSyntax.ref(parentTree))"
                   + " /ParentTreeNextKey \(key) >>")
        return root
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
