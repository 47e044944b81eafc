// Headers and footers: up to three parts (left, centre, right) set across the content width,
// baseline about half-way into the top or bottom margin, fields expanded per page.

import RTSyntax
import TypesetIR

final class RunningTextLayout {
    private let document: TypesetDocument
    private let engine: LayoutEngine
    private let images: ImageCache
    /// The last layout made for each part, reused while the part's text stays the same (most pages).
    private var cache: [Int: (text: String, layout: ParagraphLayout)] = [:]

    init(document: TypesetDocument, engine: LayoutEngine, images: ImageCache) {
        // Page geometry, header, footer and title only: the blocks are the paginator's to free.
        var running = document
        running.blocks = []
        running.footnotes = []
        self.document = running
        self.engine = engine
        self.images = images
    }

    static func usesPageCount(_ document: TypesetDocument) -> Bool {
        for running in [document.header, document.footer].compactMap({ $0 }) {
            for piece in running.left + running.center + running.right {
                if case .field(.pages, _) = piece { return true }
            }
        }
        return false
    }

    func place(on page: inout Page, totalPages: Int?, diagnostics: inout [Diagnostic]) {
        let geometry = document.page
        if let header = document.header {
            place(header, slot: 0, on: &page, totalPages: totalPages, diagnostics: &diagnostics) { box in
                geometry.margins.top / 2 + box.ascent * 0.35
            }
        }
        if let footer = document.footer {
            place(footer, slot: 3, on: &page, totalPages: totalPages, diagnostics: &diagnostics) { box in
                geometry.height - geometry.margins.bottom / 2 + box.ascent * 0.35
            }
        }
    }

    private func place(_ running: RunningText, slot: Int, on page: inout Page, totalPages: Int?,
                       diagnostics: inout [Diagnostic], baseline: (LineBox) -> Double) {
        let parts: [([RunningText.Piece], TextAlignment)] = [
            (running.left, .left), (running.center, .center), (running.right, .right),
        ]
        for (k, (pieces, alignment)) in parts.enumerated() where !pieces.isEmpty {
            let paragraph = self.paragraph(pieces, alignment: alignment, style: running.style, page: page,
                                           totalPages: totalPages, location: running.location)
            let key = slot + k
            let layout: ParagraphLayout
            if let cached = cache[key], cached.text == paragraph.text {
                layout = cached.layout
            } else {
                layout = ParagraphLayout(paragraph, columnWidth: document.page.contentWidth, engine: engine,
                                         images: images, diagnostics: &diagnostics)
                cache[key] = (paragraph.text, layout)
            }
            guard let first = layout.lines.first else { continue }
            page.runningLines.append(PlacedLine(paragraph: layout, lineIndex: 0,
                                                originX: document.page.margins.left + layout.left,
                                                baseline: baseline(first)))
        }
    }

    /// One part as a one-line paragraph, fields replaced by this page's values.
    private func paragraph(_ pieces: [RunningText.Piece], alignment: TextAlignment, style: ParagraphStyle,
                           page: Page, totalPages: Int?, location: SourceLocation?) -> AttributedParagraph {
        var text = ""
        var runs: [AttributeRun] = []
        for piece in pieces {
            let value: String
            let attributes: CharacterAttributes
            switch piece {
            case .text(let s, let a):
                value = s; attributes = a
            case .field(let field, let a):
                attributes = a
                switch field {
                case .page: value = String(page.number)
                case .pages: value = totalPages.map(String.init) ?? ""
                case .title: value = document.metadata.title ?? ""
                case .section: value = page.section ?? ""
                }
            }
            let start = text.utf8.count
            text += value
            let end = text.utf8.count
            if end > start { runs.append(AttributeRun(range: start..<end, attributes: attributes)) }
        }
        var paragraphStyle = style
        paragraphStyle.alignment = alignment
        paragraphStyle.firstLineHeadIndent = 0
        paragraphStyle.headIndent = 0
        paragraphStyle.tailIndent = 0
        // A width is needed for centre/right alignment; one line, cut with an ellipsis if too long.
        paragraphStyle.wrap = .word
        paragraphStyle.maxLines = 1
        return AttributedParagraph(text: text, runs: runs, style: paragraphStyle, location: location)
    }
}
