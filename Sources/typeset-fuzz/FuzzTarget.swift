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
        let qpdf = Process()
        qpdf.executableURL = URL(fileURLWithPath: "/usr/bin/qpdf")
        qpdf.arguments = ["--check", out]
        let pipe = Pipe()
        qpdf.standardOutput = pipe
        qpdf.standardError = pipe
        do { try qpdf.run() } catch { fail("cannot run qpdf: \(error)") }
        let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        qpdf.waitUntilExit()
        if qpdf.terminationStatus != 0 || report.contains("WARNING") {
            fail("qpdf --check rejects the PDF:\n\(report)")
        }
        if PlainText.isPlain(bytes) {
            let shown = tool("/usr/bin/pdftotext", ["-enc", "UTF-8", out, "-"])
            if let lost = PlainText.missing(from: shown, input: bytes) { fail("text lost with exit 0: \(lost)") }
        }
    }

    /// Runs a checking tool and returns its standard output.
    func tool(_ path: String, _ arguments: [String]) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { fail("cannot run \(path): \(error)") }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if process.terminationStatus != 0 { fail("\(path) failed on the PDF") }
        return output
    }

    func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("typeset-fuzz: \(message)\n".utf8))
        abort()
    }
}
