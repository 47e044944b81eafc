// The whole pipeline as one call: read -> parse -> lower -> lay out and render -> atomically publish.
// The CLI is a thin shell over this; tests and other tools can drive it directly.

import Foundation
import RTSyntax
import TypesetIR
import TypesetPDF

public struct TypesetRequest: Sendable {
    public enum Input: Sendable {
        case file(String)
        /// Bytes already read (standard input); diagnostics name it `<stdin>`.
        case bytes([UInt8], name: String)
    }

    public enum Output: Sendable {
        case file(String)
        case standardOutput
    }

    public var input: Input
    public var output: Output
    public var variables: [String: String] = [:]
    public var allowUndefined = false
    public var sourceDateEpoch: Int64? = nil

    public init(input: Input, output: Output) {
        self.input = input
        self.output = output
    }
}

public struct TypesetOutcome: Sendable {
    public var diagnostics: [Diagnostic]
    /// False when any error stopped the build; then no output was written and a stale one was removed.
    public var succeeded: Bool
}

public enum Typesetter {
    public static func run(_ request: TypesetRequest) -> TypesetOutcome {
        var diagnostics = DiagnosticList()
        let succeeded = build(request, into: &diagnostics)
        if !succeeded, case .file(let path) = request.output {
            // A failed build must not leave an older PDF that looks like this build's result (like ld).
            try? FileManager.default.removeItem(atPath: path)
        }
        return TypesetOutcome(diagnostics: diagnostics.all, succeeded: succeeded)
    }

    private static func build(_ request: TypesetRequest, into diagnostics: inout DiagnosticList) -> Bool {
        let name: String
        let bytes: [UInt8]
        switch request.input {
        case .bytes(let b, let n):
            bytes = b
            name = n
        case .file(let path):
            name = path
            guard let data = FileManager.default.contents(atPath: path) else {
                diagnostics.error("cannot read '\(path)': no such file or not readable", at: nil)
                return false
            }
            bytes = [UInt8](data)
        }

        let parsed = RTParser.parse(bytes, file: name, options: ParseOptions(readFile: { path in
            FileManager.default.contents(atPath: path).map { [UInt8]($0) }
        }))
        diagnostics.append(contentsOf: parsed.diagnostics)
        if diagnostics.hasErrors { return false }

        var options = LoweringOptions(
            variables: request.variables,
            allowUndefined: request.allowUndefined,
            sourceDateEpoch: request.sourceDateEpoch,
            now: Int64(Date().timeIntervalSince1970)
        )
        options.allowUndefined = request.allowUndefined
        let lowered = Lowering.lower(parsed.document, options: options, parseInlines: RTParser.parseInlines)
        diagnostics.append(contentsOf: lowered.diagnostics)
        if diagnostics.hasErrors { return false }

        return publish(lowered.document, to: request.output, diagnostics: &diagnostics)
    }

    /// Renders into a temporary file beside the target and renames it into place, so readers
    /// (and `make`) never see a half-written PDF, and parallel runs never share a temporary name.
    private static func publish(_ document: TypesetDocument, to output: TypesetRequest.Output,
                                diagnostics: inout DiagnosticList) -> Bool {
        let target: String?
        let directory: String
        switch output {
        case .file(let path):
            target = path
            let folder = (path as NSString).deletingLastPathComponent
            directory = folder.isEmpty ? "." : folder
        case .standardOutput:
            target = nil
            directory = NSTemporaryDirectory()
        }
        let base = target.map { ($0 as NSString).lastPathComponent } ?? "typeset"
        let temporary = (directory as NSString).appendingPathComponent(
            ".\(base).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp")
        defer { try? FileManager.default.removeItem(atPath: temporary) }

        do {
            diagnostics.append(contentsOf: try PDFRenderer.render(document, to: temporary))
        } catch {
            diagnostics.error("cannot write PDF: \(error)", at: nil)
            return false
        }
        if diagnostics.hasErrors { return false }

        if let target {
            if rename(temporary, target) != 0 {
                diagnostics.error("cannot write '\(target)': \(String(cString: strerror(errno)))", at: nil)
                return false
            }
        } else {
            guard let data = FileManager.default.contents(atPath: temporary) else {
                diagnostics.error("cannot read back the rendered PDF", at: nil)
                return false
            }
            FileHandle.standardOutput.write(data)
        }
        return true
    }
}
