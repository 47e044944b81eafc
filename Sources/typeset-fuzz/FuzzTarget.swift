// What one fuzz input goes through, and the invariants checked on the way (contract section 11).

import Foundation
import RTSyntax
import TypesetIR
import TypesetKit

final class FuzzTarget: @unchecked Sendable { // set once in main before any input runs; read on that thread only
    nonisolated(unsafe) static var current: FuzzTarget?

    enum Kind { case parser, pipeline, text }
    let kind: Kind
    /// Scratch folder for the pipeline's PDF (the process's own).
    let folder: String

    init(name: String) {
        kind = name == "pipeline" ? .pipeline : name == "text" ? .text : .parser
        folder = NSTemporaryDirectory() + "/typeset-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func run(_ bytes: [UInt8]) {
        switch kind {
        case .parser: parse(bytes)
        case .pipeline: typeset(bytes)
        case .text: typeset(PlainText.map(bytes))
        }
    }

    /// Parses (variables expanded, one fixed included file) and lowers without a text measurer.
    func parse(_ bytes: [UInt8]) {
        let data = DataValue.map([
            DataEntry(key: "xs", value: .list([.text("1"), .map([DataEntry(key: "a", value: .text("*"))])])),
            DataEntry(key: "a", value: .map([DataEntry(key: "b", value: .text("[x]"))])),
        ])
        let options = ParseOptions(readFile: { _ in Array("included {{a.b}}\n".utf8) },
                                   expansion: ExpansionOptions(data: data, allowUndefined: true))
        let parsed = RTParser.parse(bytes, file: "fuzz.rt", options: options)
        for d in parsed.diagnostics {
            guard let at = d.location, at.line >= 1, at.column >= 1 else { fail("diagnostic without a location: \(d.message)") }
        }
        guard !parsed.diagnostics.contains(where: { $0.severity == .error }) else { return }
        _ = Lowering.lower(parsed.document, options: LoweringOptions(allowUndefined: true), parseInlines: RTParser.parseInlines)
    }

    /// The whole pipeline to a PDF; a successful build must leave a PDF that `qpdf --check` accepts.
    func typeset(_ bytes: [UInt8]) {
        let out = folder + "/out.pdf"
        try? FileManager.default.removeItem(atPath: out)
        var request = TypesetRequest(input: .bytes(bytes, name: "fuzz.rt"), output: .file(out))
        request.allowUndefined = true
        request.sourceDateEpoch = 0
        let outcome = Typesetter.run(request)
        let exists = FileManager.default.fileExists(atPath: out)
        if !outcome.succeeded {
            if exists { fail("a failed build left \(out) behind") }
            return
        }
        guard exists else { fail("a successful build wrote no PDF") }
        let qpdf = tool("/usr/bin/qpdf", ["--check", out])
        if qpdf.status != 0 || qpdf.output.contains("WARNING") {
            fail("qpdf --check rejects the PDF:\n\(qpdf.output)")
        }
        if PlainText.isPlain(bytes) {
            // `-raw`: in the order drawn, which is the text's order. pdftotext's default reading order splits a
            // line at a wide gap (a code line's run of spaces) and puts the right part after the next block.
            let shown = tool("/usr/bin/pdftotext", ["-raw", "-enc", "UTF-8", out, "-"])
            if shown.status != 0 { fail("pdftotext cannot read the PDF") }
            if let lost = PlainText.missing(from: shown.output, input: bytes) { fail("text lost with exit 0: \(lost)") }
        }
    }

    /// Runs a checking tool; its exit status and what it printed. The output goes through a file, not a pipe:
    /// libFuzzer's timer signal interrupts reads from a pipe, and Foundation traps on that (EINTR).
    func tool(_ path: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let log = folder + "/tool.out"
        guard FileManager.default.createFile(atPath: log, contents: nil),
              let handle = FileHandle(forWritingAtPath: log) else { fail("cannot create \(log)") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = handle
        process.standardError = handle
        do { try process.run() } catch { fail("cannot run \(path): \(error)") }
        process.waitUntilExit()
        try? handle.close()
        let output = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
        return (process.terminationStatus, output)
    }

    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("typeset-fuzz: \(message)\n".utf8))
        abort()
    }
}
