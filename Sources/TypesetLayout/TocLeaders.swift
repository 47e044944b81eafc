// The right-hand end of a table-of-contents line: dot leaders and the page number, set after the title's
// last line (at the left-hand end for a right-to-left title). The dots sit on a grid counted from the column's
// left edge, so they line up from entry to entry.

import RTSyntax
import TypesetIR

final class TocDecorator {
    private let engine: LayoutEngine
    private let images: ImageCache
    private struct Key: Hashable { var text: String; var attributes: CharacterAttributes }
    /// One-line layouts by text and attributes (page numbers, runs of dots): few distinct ones per page, and
    /// at most `cacheLimit` kept (page numbers grow with the document; memory must not).
    private var cache: [Key: ParagraphLayout] = [:]
    static let cacheLimit = 64

    init(engine: LayoutEngine, images: ImageCache) {
        self.engine = engine
        self.images = images
    }

    /// Adds the number, the leaders and a link over both to `page`; `x`/`width` are the column's.
    func decorate(_ entry: TocEntry, layout: ParagraphLayout, line box: LineBox, x: Double, width: Double,
                  baseline: Double, page number: Int?, on page: inout Page) {
        guard let number else { return }  // the counting pass: numbers are not known yet
        var attributes = entry.paragraph.runs.first?.attributes ?? CharacterAttributes()
        attributes.link = nil
        let size = attributes.fontSize
        let numberLayout = oneLine(String(number), attributes)
        guard let numberBox = numberLayout.lines.first else { return }
        // A right-to-left title (its box mirrored) is set from the right: the number goes at the left.
        let style = entry.paragraph.style, mirrored = layout.box.mirrored
        let room = mirrored ? style.mirrorEdges?.left ?? 0 : max(style.tailIndent - entry.numberWidth, 0)
        let numberX = mirrored ? x + room : x + width - room - numberBox.width
        page.lines.append(PlacedLine(paragraph: numberLayout, lineIndex: 0,
                                     originX: numberX - numberBox.x + numberLayout.left, baseline: baseline))
        page.lines[page.lines.count - 1].structure = entry.paragraph.structure  // the number is the entry's

        // Leaders, between the title's end and the number: dot k of the grid spans [x + k * pitch, + dot width].
        var dotAttributes = attributes
        dotAttributes.weight = 400
        let pitch = 0.55 * size, pad = 0.4 * size
        let dot = oneLine(".", dotAttributes)
        let dotWidth = dot.lines.first?.width ?? 0.3 * size
        let titleEnd = mirrored ? x + box.x : x + box.x + box.width
        let (gapStart, gapEnd) = mirrored ? (numberX + numberBox.width, titleEnd) : (titleEnd, numberX)
        let first = clampedInt((gapStart + pad - x) / pitch) + 1
        let last = clampedInt(((gapEnd - pad - dotWidth - x) / pitch).rounded(.down))
        if last >= first {
            dotAttributes.letterSpacing = pitch - dotWidth
            let dots = oneLine(String(repeating: ".", count: last - first + 1), dotAttributes)
            // Pango may put part of the letter spacing before the first dot: measure where that dot starts.
            let offset = dots.xRanges(line: 0, range: 0..<1).first?.x ?? 0
            page.lines.append(PlacedLine(paragraph: dots, lineIndex: 0,
                                         originX: x + Double(first) * pitch - offset + dots.left, baseline: baseline))
            page.lines[page.lines.count - 1].isArtifact = true  // leaders are decoration
        }
        let linkStart = mirrored ? numberX : titleEnd, linkEnd = mirrored ? titleEnd : numberX + numberBox.width
        page.links.append(LinkArea(target: .destination(entry.target), x: linkStart, y: baseline - box.ascent,
                                   width: linkEnd - linkStart, height: box.ascent + box.descent))
    }

    private func oneLine(_ text: String, _ attributes: CharacterAttributes) -> ParagraphLayout {
        let key = Key(text: text, attributes: attributes)
        if let done = cache[key] { return done }
        var style = ParagraphStyle()
        style.wrap = .none
        let paragraph = AttributedParagraph(text: text, runs: [AttributeRun(range: 0..<text.utf8.count, attributes: attributes)],
                                            style: style)
        var ignored: [Diagnostic] = []
        let layout = ParagraphLayout(paragraph, columnWidth: 10_000, engine: engine, images: images, diagnostics: &ignored)
        if cache.count >= TocDecorator.cacheLimit { cache.removeAll(keepingCapacity: true) }
        cache[key] = layout
        return layout
    }
}
