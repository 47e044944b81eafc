// `--watch` without starting over: one object builds the same document again and again and keeps the
// shaped and broken paragraphs of the last build (ParagraphCache), so an edit lays out only what changed.
// The output is the same bytes as a clean build's: a kept layout is used only for a paragraph equal to the
// one it was made for, at the same width.

import Foundation
import TypesetLayout
import TypesetPDF

public final class IncrementalBuild: @unchecked Sendable {
    /// The layouts kept; its counters show how many were reused (tests count them).
    /// `@unchecked Sendable`: the cache locks itself; `run` is meant to be called from one thread at a time.
    public let cache = ParagraphCache()
    /// Tagged page content streams kept; its counters show how many pages were rewritten anew.
    public let pageStreams = PageStreamMemo()

    public init() {}

    /// One build of `request`, reusing what the previous build laid out.
    public func run(_ request: TypesetRequest) -> TypesetOutcome {
        var request = request
        request.layoutCache = cache
        request.pageStreams = pageStreams
        return Typesetter.run(request)
    }
}

extension TypesetRequest {
    /// The CLI's default for `--jobs`: every core.
    public static var coreCount: Int { CoreCount.available }
}
