// The one stage that writes PDF structure (README, "Tagged PDF"). cairo has drawn every page with its content
// inside structure tags (TagRecorder.swift); this pass over cairo's finished file, with qpdf, replaces cairo's
// structure tree (drawing order) by one in source order, turns the `Private` sequences into `/Artifact`,
// ties link annotations to Link elements, and writes what cairo 1.16 cannot: /Lang, /MarkInfo,
// /ViewerPreferences, /Alt, /Scope, XMP metadata, the PDF/A output intent and `D:` dates.

import CQpdf
import Foundation
import TypesetIR

struct TaggingInput {
    var pages: [[MarkedContent]]
    var language: String
    var title: String
    var metadata: DocumentMetadata
    var standards: Set<PDFStandard>
}

enum TaggedPDF {
    static func finish(path: String, _ input: TaggingInput) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let pdf = try QPDFFile(data: data, description: path)
        let pages = (0..<pdf.pageCount).map(pdf.page)
        guard pages.count == input.pages.count else {
            throw QPDFError(description: "\(pages.count) pages written but \(input.pages.count) recorded")
        }
        for page in pages { try markArtifacts(on: page, pdf) }
        let tree = StructureTree(pages: input.pages)
        let root = pdf.indirect(pdf.dictionary([("/Type", pdf.name("/StructTreeRoot"))]))
        writeTree(tree, root: root, pages: pages, pdf)
        let catalog = pdf.root
        pdf.set(catalog, "/StructTreeRoot", root)
        pdf.set(catalog, "/MarkInfo", pdf.dictionary([("/Marked", pdf.bool(true))]))
        pdf.set(catalog, "/Lang", pdf.text(input.language))
        pdf.set(catalog, "/ViewerPreferences", pdf.dictionary([("/DisplayDocTitle", pdf.bool(true))]))
        let producer = writeInfo(input, pdf)
        let xmp = XMPMetadata(input: input, producer: producer).packet
        pdf.set(catalog, "/Metadata", pdf.indirect(pdf.stream(Data(xmp.utf8), [
            ("/Type", pdf.name("/Metadata")), ("/Subtype", pdf.name("/XML")),
        ])))
        if input.standards.contains(where: \.isPDFA) { try addOutputIntent(pdf) }
        try pdf.write(to: path)
    }

    /// cairo's `/Private << /MCID n >> BDC` becomes `/Artifact BMC` (cairo writes each on a line of its own).
    /// The rewritten stream is compressed here, quickly (zlib level 1): the file's size hardly changes and
    /// qpdf passes it through.
    static func markArtifacts(on page: qpdf_oh, _ pdf: QPDFFile) throws {
        let contents = pdf.key(page, "/Contents")
        let streams = pdf.isStream(contents) ? [contents] : (0..<pdf.count(contents)).map { pdf.item(contents, $0) }
        for stream in streams {
            guard let data = pdf.streamData(stream) else { throw QPDFError(description: "a page's content cannot be read") }
            guard let rewritten = replacingArtifactTags(data) else { continue }
            if let packed = Deflate.fast(rewritten) {
                pdf.replaceData(stream, packed, filter: pdf.name("/FlateDecode"))
            } else {
                pdf.replaceData(stream, rewritten)
            }
        }
    }

    static let artifactOpening = Array("\n/\(TagRecorder.artifactTag) << /MCID ".utf8)
    static let artifactClosing = Array(" >> BDC".utf8)
    static let artifactTag = Array("/Artifact BMC".utf8)

    /// The content with every artifact sequence's opening rewritten; nil when it has none.
    static func replacingArtifactTags(_ data: Data) -> Data? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Data? in
            guard let base = raw.baseAddress, raw.count > 0 else { return nil }
            var out = Data()
            var at = 0, search = 0
            let opening = artifactOpening.count - 1   // without the newline
            while search < raw.count, let newline = memchr(base + search, 0x0A, raw.count - search) {
                let start = base.distance(to: UnsafeRawPointer(newline)) + 1
                search = start
                guard start + opening <= raw.count,
                      artifactOpening.withUnsafeBytes({ memcmp(base + start, $0.baseAddress! + 1, opening) }) == 0
                else { continue }
                var digitsEnd = start + opening
                while digitsEnd < raw.count, raw[digitsEnd] >= 0x30, raw[digitsEnd] <= 0x39 { digitsEnd += 1 }
                guard digitsEnd + artifactClosing.count <= raw.count,
                      artifactClosing.withUnsafeBytes({ memcmp(base + digitsEnd, $0.baseAddress!, artifactClosing.count) }) == 0
                else { continue }
                if out.isEmpty { out.reserveCapacity(raw.count) }
                out.append(base.assumingMemoryBound(to: UInt8.self) + at, count: start - at)
                out.append(contentsOf: artifactTag)
                at = digitsEnd + artifactClosing.count
                search = at
            }
            if out.isEmpty { return nil }
            out.append(base.assumingMemoryBound(to: UInt8.self) + at, count: raw.count - at)
            return out
        }
    }

    static func writeTree(_ tree: StructureTree, root: qpdf_oh, pages: [qpdf_oh], _ pdf: QPDFFile) {
        let document = pdf.indirect(pdf.dictionary([
            ("/Type", pdf.name("/StructElem")), ("/S", pdf.name("/Document")), ("/P", root),
        ]))
        // Top-down, so each element's dictionary is complete (with its parent) when it becomes an object; the
        // fixed part is parsed in one call, which keeps the number of qpdf calls per element small.
        var objects: [Int: qpdf_oh] = [:]
        let annotations = pages.map { pdf.key($0, "/Annots") }
        var queue: [(id: Int, parent: qpdf_oh)] = tree.top.map { ($0, document) }
        var next = 0
        while next < queue.count {
            let (id, parent) = queue[next]
            next += 1
            guard let element = tree.elements[id] else { continue }
            let node = element.node
            let firstPage = element.content.lazy.compactMap { c -> Int? in
                if case .mcid(let page, _) = c { return page } else { return nil }
            }.first
            var kids: [String] = []
            var later: [qpdf_oh] = []
            for content in element.content {
                switch content {
                case .mcid(let page, let mcid):
                    if page == firstPage { kids.append(String(mcid)) } else {
                        later.append(pdf.dictionary([("/Type", pdf.name("/MCR")), ("/Pg", pages[page]), ("/MCID", pdf.int(mcid))]))
                    }
                case .annotation(let page, let index):
                    guard index < pdf.count(annotations[page]) else { continue }
                    later.append(pdf.dictionary([("/Type", pdf.name("/OBJR")), ("/Pg", pages[page]),
                                                 ("/Obj", pdf.item(annotations[page], index))]))
                }
            }
            var fixed = "<< /Type /StructElem /S /\(node.type) /K [\(kids.joined(separator: " "))]"
            if let scope = node.scope { fixed += " /A << /O /Table /Scope /\(scope) >>" }
            if let numbering = node.listNumbering { fixed += " /A << /O /List /ListNumbering /\(numbering) >>" }
            if node.type == "Note" { fixed += " /ID (note-\(id))" }   // PDF/UA: notes have ids
            let dictionary = pdf.parse(fixed + " >>")
            pdf.set(dictionary, "/P", parent)
            if let firstPage { pdf.set(dictionary, "/Pg", pages[firstPage]) }
            if let alt = node.alt { pdf.set(dictionary, "/Alt", pdf.text(alt)) }
            if let language = node.language { pdf.set(dictionary, "/Lang", pdf.text(language)) }
            let object = pdf.indirect(dictionary)
            objects[id] = object
            let k = pdf.key(object, "/K")
            for item in later { pdf.append(k, item) }
            queue += element.children.map { ($0, object) }
        }
        // Then each parent's children, after its own content, in reading order.
        for (id, element) in tree.elements where !element.children.isEmpty {
            guard let object = objects[id] else { continue }
            let k = pdf.key(object, "/K")
            for child in element.children { if let c = objects[child] { pdf.append(k, c) } }
        }
        pdf.set(document, "/K", pdf.array(tree.top.compactMap { objects[$0] }))
        pdf.set(root, "/K", pdf.array([document]))

        // Parent tree: page p's key is p (an array indexed by MCID), then one key per link annotation.
        let nums = pdf.array()
        for (p, owners) in tree.owners.enumerated() {
            pdf.set(pages[p], "/StructParents", pdf.int(p))
            pdf.set(pages[p], "/Tabs", pdf.name("/S"))   // PDF/UA: annotations in structure order
            pdf.append(nums, pdf.int(p))
            pdf.append(nums, pdf.indirect(pdf.array(owners.map { $0.flatMap { objects[$0] } ?? pdf.null() })))
        }
        var key = tree.owners.count
        for link in tree.linkElements {
            guard link.index < pdf.count(annotations[link.page]), let object = objects[link.element] else { continue }
            let annotation = pdf.item(annotations[link.page], link.index)
            pdf.set(annotation, "/StructParent", pdf.int(key))
            pdf.set(annotation, "/Contents", pdf.text(link.contents))
            pdf.set(annotation, "/F", pdf.int(4))   // printed (PDF/A)
            pdf.append(nums, pdf.int(key))
            pdf.append(nums, object)
            key += 1
        }
        pdf.set(root, "/ParentTree", pdf.indirect(pdf.dictionary([("/Nums", nums)])))
        pdf.set(root, "/ParentTreeNextKey", pdf.int(key))
    }

    /// Title and `D:` dates in the Info dictionary (the XMP repeats them); returns cairo's Producer.
    static func writeInfo(_ input: TaggingInput, _ pdf: QPDFFile) -> String {
        var info = pdf.key(pdf.trailer, "/Info")
        if qpdf_oh_is_dictionary(pdf.q, info) == 0 {
            info = pdf.indirect(pdf.dictionary())
            pdf.set(pdf.trailer, "/Info", info)
        }
        pdf.set(info, "/Title", pdf.text(input.title))
        if let seconds = input.metadata.creationDate {
            let date = "D:" + PDFDates.compact(seconds) + "Z"
            pdf.set(info, "/CreationDate", pdf.ascii(date))
            pdf.set(info, "/ModDate", pdf.ascii(date))
        }
        return pdf.string(pdf.key(info, "/Producer")) ?? "typeset"
    }

    /// PDF/A: an sRGB output intent with its ICC profile (Debian icc-profiles-free, else colord-data).
    static func addOutputIntent(_ pdf: QPDFFile) throws {
        let candidates = ["/usr/share/color/icc/sRGB.icc", "/usr/share/color/icc/colord/sRGB.icc"]
        guard let profile = candidates.lazy.compactMap({ FileManager.default.contents(atPath: $0) }).first else {
            throw QPDFError(description: "PDF/A needs the sRGB ICC profile from icc-profiles-free or colord-data (\(candidates[0]))")
        }
        let icc = pdf.indirect(pdf.stream(profile, [("/N", pdf.int(3))]))
        let intent = pdf.dictionary([
            ("/Type", pdf.name("/OutputIntent")), ("/S", pdf.name("/GTS_PDFA1")),
            ("/OutputConditionIdentifier", pdf.ascii("sRGB IEC61966-2.1")), ("/Info", pdf.ascii("sRGB IEC61966-2.1")),
            ("/DestOutputProfile", icc),
        ])
        pdf.set(pdf.root, "/OutputIntents", pdf.array([intent]))
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
