// Renders a lowered document and publishes it: into temporary files beside the target, renamed into place,
// so readers (and `make`) never see a half-written file and parallel runs never share a temporary name.
// Times rendering and writing apart for `--verbose`, and passes page progress on.

import Foundation
import RTSyntax
import TypesetIR
import TypesetPDF

struct Publisher {
    let output: TypesetRequest.Output
    let report: (@Sendable (BuildProgress) -> Void)?
    /// Tagged page content of earlier builds (IncrementalBuild); nil: a clean build.
    var memo: PageStreamMemo? = nil
    var renderSeconds = 0.0
    /// CPU seconds per rendering stage (`--verbose`).
    let stageClock = RenderClock()
    var writeSeconds = 0.0
    /// Pages rendered (from the renderer's page count).
    var pages: Int? = nil

    init(output: TypesetRequest.Output, report: (@Sendable (BuildProgress) -> Void)?) {
        self.output = output
        self.report = report
    }

    /// Turns renderer events into build progress: "counting pages" n, then "typesetting" n of total.
    private func progress(_ event: RenderProgress, total: inout Int?, drawn: inout Int) {
        if case .drawn(let n) = event { drawn = max(drawn, n) }
        guard let report else { return }
        switch event {
        case .counted(let n): report(BuildProgress(stage: "counting pages", pages: n))
        case .total(let n):
            total = n
            report(BuildProgress(stage: "typesetting", pages: 0, totalPages: n))
        case .drawn(let n): report(BuildProgress(stage: "typesetting", pages: n, totalPages: total))
        }
    }

    /// `document` is consumed and handed on to the renderer, which frees it once the pages are laid out.
    mutating func publish(_ document: consuming TypesetDocument, diagnostics: inout DiagnosticList) -> Bool {
        var total: Int? = nil
        var drawn = 0
        report?(BuildProgress(stage: "typesetting"))
        // libqpdf and hyphenation patterns load on other threads while the document is laid out.
        var writesPDF = true
        if case .file(let target) = output { writesPDF = OutputFormat(path: target) == .pdf }
        BackgroundLoads.start(document, pdf: writesPDF)
        var clock = Date()
        func lap() -> Double {
            defer { clock = Date() }
            return Date().timeIntervalSince(clock)
        }
        guard case .file(let target) = output else {
            // Standard output: render to a temporary file first, so an error writes nothing at all.
            let temporary = TemporaryFile(near: NSTemporaryDirectory() + "/typeset.pdf")
            defer { temporary.remove() }
            do {
                diagnostics.append(contentsOf: try PDFRenderer.render(consume document, to: temporary.path, memo: memo, clock: stageClock) { progress($0, total: &total, drawn: &drawn) })
            } catch {
                diagnostics.error("cannot write PDF: \(error)", at: nil)
                return false
            }
            renderSeconds = lap()
            report?(BuildProgress(stage: "writing"))
            defer { writeSeconds = lap() }
            guard !diagnostics.hasErrors else { return false }
            if let failure = copyFile(temporary.path, to: STDOUT_FILENO) {
                diagnostics.error("cannot write standard output: \(InputReader.reason(failure))", at: nil)
                return false
            }
            return true
        }
        let format = OutputFormat(path: target)
        // `-o build/doc.pdf` in a fresh checkout: make the folder, as Make rules expect.
        let folder = (target as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var temporaries: [(temporary: TemporaryFile, final: String)] = []
        defer { for t in temporaries { t.temporary.remove() } }
        do {
            switch format {
            case .pdf:
                let temporary = TemporaryFile(near: target)
                temporaries.append((temporary, target))
                diagnostics.append(contentsOf: try PDFRenderer.render(consume document, to: temporary.path, memo: memo, clock: stageClock) { progress($0, total: &total, drawn: &drawn) })
            case .svg, .png:
                let kind: PageImageRenderer.Kind = format == .svg ? .svg : .png
                diagnostics.append(contentsOf: try PageImageRenderer.render(consume document, kind: kind, progress: {
                    progress($0, total: &total, drawn: &drawn)
                }) { number in
                    let final = format.pagePath(target, page: number)
                    let temporary = TemporaryFile(near: final)
                    temporaries.append((temporary, final))
                    return temporary.path
                })
            }
        } catch {
            diagnostics.error("cannot write '\(target)': \(error)", at: nil)
            return false
        }
        renderSeconds = lap()
        pages = drawn
        if diagnostics.hasErrors { return false }
        report?(BuildProgress(stage: "writing"))
        defer { writeSeconds = lap() }
        // Pages left over from a longer earlier run would look like part of this one.
        let fresh = Set(temporaries.map(\.final))
        for old in format.pageFiles(existingFor: target) where !fresh.contains(old) { OutputTarget.removeStale(old, format: format) }
        for t in temporaries where OutputTarget(path: t.final) == .stream {
            // `-o /dev/null` and friends: write into the device; renaming over it would replace it.
            let fd = open(t.final, O_WRONLY | O_CLOEXEC)
            let failure = fd < 0 ? errno : copyFile(t.temporary.path, to: fd)
            if fd >= 0 { close(fd) }
            if let failure {
                diagnostics.error("cannot write '\(t.final)': \(InputReader.reason(failure))", at: nil)
                return false
            }
        }
        for t in temporaries where OutputTarget(path: t.final) != .stream {
            if let failure = t.temporary.rename(to: t.final) {
                diagnostics.error("cannot write '\(t.final)': \(InputReader.reason(failure))", at: nil)
                return false
            }
        }
        return true
    }
}
