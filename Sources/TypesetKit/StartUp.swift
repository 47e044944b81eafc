// Work a build will wait for, started as soon as the CLI knows there is a build (issue 14, start-up).

import TypesetLayout
import TypesetPDF

extension Typesetter {
    /// Starts fontconfig's set-up, which lowering (list markers, heading numbers) and layout wait for, and for a
    /// tagged PDF the loading of libqpdf, so both run while the input is read, parsed and lowered. In this
    /// order: while libqpdf is relocated glibc lets no thread start (its TLS lock), and Pango starts fontconfig
    /// on a thread. The thread that reads hyphenation patterns starts before libqpdf loads too, for the same reason.
    /// `output`: the `-o` path (nil: a PDF named after the input); `jobs`: `--jobs` (nil: the cores).
    public static func startLoads(output: String?, jobs: Int?) {
        // Before any thread starts (arenas made already stay), and before libqpdf holds the loader's lock that
        // its dlsym takes.
        let threads = jobs ?? TypesetRequest.coreCount
        if threads > 1 { MallocArenas.limit(toJobs: threads) }
        MallocArenas.fixThresholds()
        LayoutEngine.startFontconfig()
        HyphenationDictionaries.startLoader()
        LayoutEngine.prepareFontClass()
        BackgroundLoads.startTagging(pdf: output.map { OutputFormat(path: $0) == .pdf } ?? true)
    }
}
