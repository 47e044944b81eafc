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
    var renderSeconds = 0.0
    var writeSeconds = 0.0

    init(output: TypesetRequest.Output, report: (@Sendable (BuildProgress) -> Void)?) {
        self.output = output
        self.report = report
    }

    /// Turns renderer events into build progress: "counting pages" n, then "typesetting" n of total.
    private func progress(_ event: RenderProgress, total: inout Int?) {
        guard let report else { return }
        switch event {
        case .counted(let n): report(BuildProgress(stage: "counting pages", pages: n))
        case .total(let n):
            total = n
            report(BuildProgress(stage: "typesetting", pages: 0, totalPages: n))
        case .drawn(let n): report(BuildProgress(stage: "typesetting", pages: n, totalPages: total))
        }
    }

    mutating func publish(_ document: TypesetDocument, diagnostics: inout DiagnosticList) -> Bool {
        var total: Int? = nil
        report?(BuildProgress(stage: "typesetting"))
        var clock = Date()
        func lap() -> Double {
            defer { clock = Date() }
            return Date().timeIntervalSince(clock)
        }
        guard case .file(let target) = output else {
            let temporary = Typesetter.temporaryPath(near: NSTemporaryDirectory() + "/typeset.pdf")
            defer { try? FileManager.default.removeItem(atPath: temporary) }
            do {
                diagnostics.append(contentsOf: try PDFRenderer.render(document, to: temporary) { progress($0, total: &total) })
            } catch {
                diagnostics.error("cannot write PDF: \(error)", at: nil)
                return false
            }
            renderSeconds = lap()
            report?(BuildProgress(stage: "writing"))
            defer { writeSeconds = lap() }
            guard !diagnostics.hasErrors, let data = FileManager.default.contents(atPath: temporary) else { return false }
            FileHandle.standardOutput.write(data)
            return true
        }
        let format = OutputFormat(path: target)
        // `-o build/doc.pdf` in a fresh checkout: make the folder, as Make rules expect.
        let folder = (target as NSString).deletingLastPathComponent
        if !folder.isEmpty { try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        var temporaries: [(temporary: String, final: String)] = []
        defer { for t in temporaries { try? FileManager.default.removeItem(atPath: t.temporary) } }
        do {
            switch format {
            case .pdf:
                let temporary = Typesetter.temporaryPath(near: target)
                temporaries.append((temporary, target))
                diagnostics.append(contentsOf: try PDFRenderer.render(document, to: temporary) { progress($0, total: &total) })
            case .svg, .png:
                let kind: PageImageRenderer.Kind = format == .svg ? .svg : .png
                diagnostics.append(contentsOf: try PageImageRenderer.render(document, kind: kind, progress: {
                    progress($0, total: &total)
                }) { number in
                    let final = format.pagePath(target, page: number)
                    let temporary = Typesetter.temporaryPath(near: final)
                    temporaries.append((temporary, final))
                    return temporary
                })
            }
        } catch {
            diagnostics.error("cannot write '\(target)': \(error)", at: nil)
            return false
        }
        renderSeconds = lap()
        if diagnostics.hasErrors { return false }
        report?(BuildProgress(stage: "writing"))
        defer { writeSeconds = lap() }
        // Pages left over from a longer earlier run would look like part of this one.
        let fresh = Set(temporaries.map(\.final))
        for old in format.pageFiles(existingFor: target) where !fresh.contains(old) { OutputTarget.removeStale(old, format: format) }
        for t in temporaries where OutputTarget(path: t.final) == .stream {
            // `-o /dev/null` and friends: write into the device; renaming over it would replace it.
            guard let data = FileManager.default.contents(atPath: t.temporary),
                  let handle = FileHandle(forWritingAtPath: t.final) else {
                diagnostics.error("cannot write '\(t.final)'", at: nil)
                return false
            }
            handle.write(data)
            try? handle.close()
        }
        for t in temporaries where OutputTarget(path: t.final) != .stream && rename(t.temporary, t.final) != 0 {
            diagnostics.error("cannot write '\(t.final)': \(String(cString: strerror(errno)))", at: nil)
            return false
        }
        return true
    }
}
