// `typeset measure IN.rt --width LEN`: the size the content needs at a given text width, for scripts
// that check a layout (does the abstract fit in 6 cm? how many lines is this label?).

import Foundation
import RTSyntax
import TypesetIR
import TypesetLayout

public struct Measurement: Codable, Sendable, Equatable {
    /// The text width asked for, in points: the width of one column (with `columns: 1`, the text width).
    public var width: Double
    /// Height of the content on an endless page, in points (header/footer excluded). With several columns
    /// the columns are balanced, as on a last page, so this is the height of the tallest column. With page or
    /// column breaks, each page before the last counts as a whole page of the document's content height.
    public var height: Double
    /// Lines of text.
    public var lines: Int
    /// Pages with the document's own page height, margins, columns and gap, each column `width` wide.
    public var pages: Int
    /// The document's column count.
    public var columns: Int
    /// The content box that gives `pages`: columns x width plus the gaps between them.
    public var contentWidth: Double
}

public enum Measure {
    /// A very tall page: everything fits in one column so the height is the content's own.
    static let endlessHeight = 1_000_000.0
    /// The widest `--width`: the longest length a document may have.
    public static let maxWidth = Length.maxPoints

    public static func run(_ request: TypesetRequest, width: Double) -> (Measurement?, [Diagnostic]) {
        var diagnostics = DiagnosticList()
        var outcome = TypesetOutcome(diagnostics: [], succeeded: false)
        guard width > 0, width <= maxWidth else {
            return (nil, [.error("--width must be a positive length up to \(Int(maxWidth))pt", at: nil)])
        }
        guard let document = Typesetter.lower(request, into: &diagnostics, outcome: &outcome) else {
            return (nil, diagnostics.all)
        }
        // `--width` is one column's width (what a line is set at); the content box holds them all.
        let columns = max(1, document.page.columns)
        let contentWidth = Double(columns) * width + Double(columns - 1) * document.page.columnGap
        var paged = document
        paged.page.width = contentWidth + document.page.margins.left + document.page.margins.right

        var endless = document
        endless.header = nil
        endless.footer = nil
        endless.page.margins = EdgeInsets(all: 0)
        endless.page.width = contentWidth
        endless.page.height = endlessHeight
        var lines = 0
        var height = 0.0
        var pagesOfEndless = 0
        // A page of the endless layout ends only at `@pagebreak`/`@columnbreak`: then the height comes from the
        // paged layout, every page but the last counting whole (issue 9: not as a million points).
        do {
            let summary = try DocumentLayout.paginate(endless) { page in
                lines += page.lines.count
                height = contentBottom(page)
                pagesOfEndless += 1
            }
            diagnostics.append(contentsOf: summary.diagnostics)
            var pagedLines = 0
            var lastBottom = 0.0
            let pages = try DocumentLayout.paginate(paged) { page in
                pagedLines += page.lines.count
                lastBottom = max(contentBottom(page) - paged.page.margins.top, 0)
            }.pageCount
            if pagesOfEndless > 1 {
                // Page or column breaks: every page but the last counts whole, as in a real render.
                let pageContent = paged.page.height - paged.page.margins.top - paged.page.margins.bottom
                height = Double(pages - 1) * pageContent + lastBottom
                lines = pagedLines
            }
            return (Measurement(width: (width * 100).rounded() / 100, height: (height * 100).rounded() / 100, lines: lines, pages: pages,
                                columns: columns, contentWidth: (contentWidth * 100).rounded() / 100),
                    diagnostics.all)
        } catch {
            diagnostics.error("cannot lay out the document: \(error)", at: nil)
            return (nil, diagnostics.all)
        }
    }

    /// The lowest text line or image on a page, from the page's top edge.
    private static func contentBottom(_ page: Page) -> Double {
        max(page.lines.map { $0.top + $0.box.height }.max() ?? 0, page.images.map { $0.y + $0.height }.max() ?? 0)
    }

    /// Parses `--width` (`12cm`, `300pt`, `4in`; a bare number is points).
    public static func parseWidth(_ text: String) -> Double? {
        Length.points(text, in: LengthContext(fontSize: 10, percentBase: 0))
    }
}
