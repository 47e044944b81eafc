// The `typeset` command: argument parsing and exit codes only; the work is TypesetKit's.

import ArgumentParser
import Foundation
import TypesetKit

struct Typeset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeset",
        abstract: "Typeset an RT (.rt) document into a PDF.",
        discussion: """
            Exit status: 0 on success (warnings allowed), 1 when the document has errors \
            (no output file is written), 2 on bad command-line use.
            Diagnostics go to standard error as path:line:column: error|warning: message.
            SOURCE_DATE_EPOCH, when set, fixes the PDF dates so identical inputs give identical bytes.
            """,
        version: "typeset 0.1.0"
    )

    @Argument(help: "The .rt file to typeset, or - for standard input.")
    var input: String

    @Option(name: .shortAndLong, help: "Output PDF (default: the input with .pdf; - for standard output).")
    var output: String?

    @Option(name: .customShort("D"), help: ArgumentHelp("Set a variable: -D name=value.", valueName: "name=value"))
    var define: [String] = []

    @Flag(help: "Undefined {{variables}} become empty instead of an error.")
    var allowUndefined = false

    @Flag(name: .shortAndLong, help: "Print errors only, no warnings.")
    var quiet = false

    func validate() throws {
        for item in define where !item.contains("=") {
            throw ValidationError("-D expects name=value, got '\(item)'")
        }
        if input == "-" && output == nil {
            throw ValidationError("reading standard input needs -o FILE or -o - (standard output)")
        }
        if input != "-" && output == nil && !input.hasSuffix(".rt") {
            throw ValidationError("cannot derive an output name from '\(input)': give -o FILE.pdf")
        }
    }

    func run() throws {
        let source: TypesetRequest.Input
        if input == "-" {
            source = .bytes([UInt8](FileHandle.standardInput.readDataToEndOfFile()), name: "<stdin>")
        } else {
            source = .file(input)
        }
        let destination: TypesetRequest.Output
        switch output {
        case "-": destination = .standardOutput
        case let path?: destination = .file(path)
        case nil: destination = .file(String(input.dropLast(3)) + ".pdf")
        }

        var request = TypesetRequest(input: source, output: destination)
        for item in define {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            request.variables[String(parts[0])] = String(parts[1])
        }
        request.allowUndefined = allowUndefined
        if let epoch = ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"], let seconds = Int64(epoch) {
            request.sourceDateEpoch = seconds
        }

        let outcome = Typesetter.run(request)
        for diagnostic in outcome.diagnostics where !(quiet && diagnostic.severity != .error) {
            FileHandle.standardError.write(Data((diagnostic.description + "\n").utf8))
        }
        if !outcome.succeeded { throw ExitCode(1) }
    }
}

// ArgumentParser reports usage errors with EX_USAGE (64); the contract says 2.
do {
    var command = try Typeset.parseAsRoot()
    try command.run()
} catch {
    let code = Typeset.exitCode(for: error)
    if code == .validationFailure {
        FileHandle.standardError.write(Data((Typeset.fullMessage(for: error) + "\n").utf8))
        FileHandle.standardError.write(Data((Typeset.usageString() + "\n").utf8))
        exit(2)
    }
    Typeset.exit(withError: error)
}
