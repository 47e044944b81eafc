// Maps byte offsets of expanded text (variables and sections substituted, a template wrapped around the
// body) back to the file, line and column where they were written, so diagnostics point at what the user wrote.

struct SourceMap: Sendable {
    /// A run of output bytes: copied from `origin` (verbatim) or inserted by the tag at `originStart`.
    struct Segment: Sendable {
        var outputStart: Int
        var file: Int
        var originStart: Int
        var verbatim: Bool
    }

    /// The original files (without a map of their own).
    var files: [Source]
    private(set) var segments: [Segment] = []

    init(files: [Source]) { self.files = files }

    mutating func add(outputStart: Int, file: Int, originStart: Int, verbatim: Bool) {
        if let last = segments.last {
            // A verbatim run continuing the previous one needs no new segment.
            if verbatim && last.verbatim && last.file == file
                && last.originStart + (outputStart - last.outputStart) == originStart { return }
            if last.outputStart == outputStart { segments.removeLast() }
        }
        segments.append(Segment(outputStart: outputStart, file: file, originStart: originStart, verbatim: verbatim))
    }

    /// Whether the output byte at `offset` was written as a blank line (false: a tag or a section that
    /// expanded to nothing left it blank).
    func isWrittenBlank(_ offset: Int) -> Bool {
        guard let s = segment(at: offset), s.verbatim else { return segments.isEmpty }
        let file = files[s.file]
        let origin = min(s.originStart + max(0, offset - s.outputStart), file.bytes.count)
        guard file.lineCount > 0 else { return true }
        return file.isBlank(file.line(file.lineIndex(of: origin)))
    }

    private func segment(at offset: Int) -> Segment? {
        guard !segments.isEmpty else { return nil }
        var lo = 0
        var hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].outputStart <= offset { lo = mid } else { hi = mid - 1 }
        }
        return segments[lo]
    }

    func location(_ offset: Int) -> SourceLocation {
        guard !segments.isEmpty else { return files[0].location(0) }
        var lo = 0
        var hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].outputStart <= offset { lo = mid } else { hi = mid - 1 }
        }
        let s = segments[lo]
        let origin = s.verbatim ? s.originStart + max(0, offset - s.outputStart) : s.originStart
        return files[s.file].location(min(origin, files[s.file].bytes.count))
    }
}
