// What typeset loads only when a document needs it, so a simple document starts fast (issue 14): hyphenation
// patterns when a paragraph hyphenates, librsvg when there is an SVG image. `--verbose` lists what a build
// loaded; the end-to-end tests check that a document needing neither loads neither.

import CRsvg

public enum LazyLoads {
    /// Pattern files (full paths) and "librsvg", in that order.
    public static var loaded: [String] {
        HyphenationDictionaries.loadedPatternFiles() + (typeset_svg_loaded() != 0 ? ["librsvg"] : [])
    }
}
