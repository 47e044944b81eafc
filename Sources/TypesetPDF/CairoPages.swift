// What the tagging stage needs of cairo's file once its pages are rewritten (TaggedPDF.swift), read before the
// structure tree is built so that qpdf can be closed first: it holds cairo's whole cross-reference table and
// every page it read (issue 8: some 300 bytes a table row).

import CQpdf
import Foundation

struct CairoPages {
    /// Each page's object number.
    var numbers: [Int]
    /// Each page without the keys the stage writes (`/StructParents`, `/Tabs`, and `/Annots` on pages with links).
    var dictionaries: [KeptDictionary]
    /// cairo's own annotations of pages with links (it writes none for links here), listed before the links.
    var annotations: [[Int]]
    /// The catalog without the keys the stage writes.
    var catalog: KeptDictionary
    /// The Info dictionary without the keys the stage writes; nil when there is none to replace.
    var info: KeptDictionary?
    var producer: String
    var continuations: [PageContinuations]

    init(_ pdf: QPDFFile, pages: [qpdf_oh], _ input: TaggingInput, info hasInfo: Bool,
         continuations: [PageContinuations]) {
        numbers = pages.map(pdf.objectNumber)
        var dictionaries: [KeptDictionary] = [], annotations: [[Int]] = []
        for (p, page) in pages.enumerated() {
            let hasLinks = input.links.count(page: p) > 0
            if hasLinks {
                let existing = pdf.key(page, "/Annots")
                annotations.append((0 ..< pdf.count(existing)).map { pdf.objectNumber(pdf.item(existing, $0)) }.filter { $0 > 0 })
            } else {
                annotations.append([])
            }
            dictionaries.append(pdf.kept(page, removing: ["/StructParents", "/Tabs"] + (hasLinks ? ["/Annots"] : [])))
            if p % 16 == 15 { pdf.dropMappedPages() }  // qpdf reads the page's objects again (QPDFFile)
        }
        self.dictionaries = dictionaries
        self.annotations = annotations
        catalog = pdf.kept(pdf.root, removing: TaggedPDF.catalogKeys(input))
        let info = pdf.key(pdf.trailer, "/Info")
        producer = pdf.string(pdf.key(info, "/Producer")) ?? "typeset"
        self.info = hasInfo && qpdf_oh_is_dictionary(pdf.q, info) != 0
            ? pdf.kept(info, removing: TaggedPDF.infoKeys(input).map { String($0.prefix { $0 != " " }) }) : nil
        self.continuations = continuations
    }
}
