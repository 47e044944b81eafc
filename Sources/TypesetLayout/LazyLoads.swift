// What typeset loads only when a document needs it, so a simple document starts fast (issue 14): hyphenation
// patterns when a paragraph hyphenates, librsvg when there is an SVG image. `--verbose` lists what a build
// loaded; the end-to-end tests check that a document needing neither loads neither.

import CRsvg
import TypesetIR

public enum LazyLoads {
    /// Pattern files (full paths) and "librsvg", in that order.
    public static var loaded: [String] {
        HyphenationDictionaries.loadedPatternFiles() + (typeset_svg_loaded() != 0 ? ["librsvg"] : [])
    }

    /// Starts reading the hyphenation patterns the document's first hyphenated paragraph will ask for, on a
    /// thread of its own, so they load while fontconfig starts instead of after it. Only a paragraph that the
    /// total-fit breaker hyphenates asks (ParagraphLayout), so a document without one still loads nothing.
    public static func preload(_ document: TypesetDocument, engine: LayoutEngine) {
        for case .paragraph(let paragraph) in document.blocks
        where hyphenates(paragraph, lineBreaking: engine.lineBreaking) {
            HyphenationDictionaries.preload(paragraph.style.language)
            return
        }
    }

    /// Whether laying `paragraph` out asks for hyphenation patterns.
    static func hyphenates(_ paragraph: AttributedParagraph, lineBreaking: LayoutEngine.LineBreaking) -> Bool {
        let style = paragraph.style
        return style.hyphenate && !paragraph.text.isEmpty && !paragraph.text.utf8.contains(9)
            && ParagraphLayout.usesTotalFit(style, hasTab: false, lineBreaking: lineBreaking)
    }
}
