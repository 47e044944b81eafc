// Libraries and data a build will need later, loaded on other threads from its start (issue 14, start-up): libqpdf
// for the tagging stage (Sources/CQpdf) and the hyphenation patterns of the first hyphenated paragraph
// (LazyLoads), both of which otherwise ran on the paginating thread or the first paragraph's thread.

import CQpdf
import TypesetIR
import TypesetLayout

public enum BackgroundLoads {
    /// `pdf`: the build writes a PDF (tagged unless TYPESET_UNTAGGED=1, which loads no qpdf).
    public static func start(_ document: TypesetDocument, pdf: Bool, engine: LayoutEngine = .shared) {
        startTagging(pdf: pdf)
        LazyLoads.preload(document, engine: engine)
    }

    /// Starts loading libqpdf for a tagged PDF (once per process). While the dynamic loader relocates it (some
    /// 16M instructions) glibc lets no thread start, so the CLI calls this first thing, after fontconfig's
    /// thread has started and before the build's other threads (Typesetter.startLoads).
    public static func startTagging(pdf: Bool) {
        if pdf && TagRecorder.enabledByEnvironment { typeset_qpdf_preload() }
    }
}
