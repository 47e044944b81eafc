// The `typeset` command: argument parsing, dispatch and exit codes only; the work is TypesetKit's.
// `typeset IN.rt [-o OUT]` builds; `typeset new NAME FILE` and `typeset measure IN.rt --width LEN` are
// subcommands picked by the first word (so a document named `new.rt` still builds).

import ArgumentParser
import Foundation
import TypesetKit

struct Typeset: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeset",
        abstract: "Typeset an RT (.rt) document into a PDF (or SVG/PNG pages).",
        discussion: """
            Subcommands (see typeset new --help, typeset measure --help):
              typeset new TEMPLATE FILE.rt      write a starter document that uses a template
              typeset measure IN.rt --width LEN the content's size at that column width, as JSON
            On a terminal a progress line (stage, pages done) shows while a long build runs.
            Exit status: 0 on success (warnings allowed), 1 when the document has errors \
            (no output file is written), 2 on bad command-line use.
            Diagnostics go to standard error as path:line:column: error|warning: message.
            SOURCE_DATE_EPOCH, when set, fixes the PDF dates so identical inputs give identical bytes.
            Templates are searched: a path relative to the document; $TYPESET_TEMPLATES folders; \
            templates/ next to the executable; ../share/typeset/templates; the built-ins.
            """,
        version: "typeset 0.1.0"
    )

    @Argument(help: "The .rt file to typeset, or - for standard input.")
    var input: String?

    @Option(name: .shortAndLong, help: "Output file: .pdf, or .svg/.png for one file per page (OUT-1.png, ...); - for standard output (PDF). Default: the input with .pdf.")
    var output: String?

    @Option(name: .customShort("D"), help: ArgumentHelp("Set a variable: -D name=value.", valueName: "name=value"))
    var define: [String] = []

    @Option(name: .long, help: ArgumentHelp("Variables from a JSON or YAML file (repeatable; -D wins).", valueName: "file"))
    var data: [String] = []

    @Option(name: .long, help: ArgumentHelp("Template name (see --list-templates) or path to an .rt template; beats front matter 'template:'.", valueName: "name|path"))
    var template: String?

    @Option(name: .long, help: ArgumentHelp("Write a Makefile rule 'OUT: every input' to this file.", valueName: "file"))
    var deps: String?

    @Option(name: .long, help: ArgumentHelp("Files the document names (includes, images, fonts, templates) must be under this folder. Default: the nearest folder holding both the current directory and the input.", valueName: "dir"))
    var root: String?

    @Flag(help: "Undefined {{variables}} become empty instead of an error.")
    var allowUndefined = false

    @Option(name: .long, help: ArgumentHelp("PDF standards to meet, comma-separated: ua-1, a-2b, a-2a, a-2u, a-3b (adds to front matter 'pdf-standard').", valueName: "list"))
    var pdfStandard: [String] = []

    @Flag(help: "List the available templates and where each comes from.")
    var listTemplates = false

    @Flag(name: .shortAndLong, help: "Print errors only: no warnings, no progress line.")
    var quiet = false

    @Flag(name: .shortAndLong, help: "Print the time each stage took (read, expand, parse, lower, layout+render, write), the files read and what was loaded on demand.")
    var verbose = false

    @Flag(help: "Rebuild whenever an input changes (polls once a second; Ctrl-C stops). Paragraphs that did not change are not laid out again.")
    var watch = false

    @Option(name: .long, help: ArgumentHelp("Threads that shape and break paragraphs; 1: a single thread. Default: the number of cores. The output is the same for any N.", valueName: "N"))
    var jobs: Int?

    /// The input with its extension (if any) replaced by `.pdf`: `a.rt`, `a.RT`, `a.md` and `a` give `a.pdf`.
    static func defaultOutput(for input: String) -> String {
        let name = (input as NSString).lastPathComponent
        let ext = (name as NSString).pathExtension
        let stem = ext.isEmpty || name.hasPrefix(".") && name.dropFirst().contains(".") == false
            ? input : String(input.dropLast(ext.count + 1))
        return stem + ".pdf"
    }

    /// The first argument that looks like an option typeset does not have (values of options skipped).
    static func unknownOption(in arguments: [String]) -> String? {
        let flags: Set<String> = ["--allow-undefined", "--list-templates", "-q", "--quiet", "-v", "--verbose", "--watch",
                                  "-h", "--help", "--version"]
        let options: Set<String> = ["-o", "--output", "-D", "--data", "--template", "--deps", "--root", "--pdf-standard", "--jobs"]
        var k = 0
        while k < arguments.count {
            let argument = arguments[k]
            let name = String(argument.prefix { $0 != "=" })
            if argument == "--" { return nil }
            if options.contains(name) || (name.hasPrefix("-D") && name.count > 2) || (name.hasPrefix("-o") && name.count > 2) {
                k += name == argument && (options.contains(name)) ? 2 : 1
                continue
            }
            let shortFlags = !argument.hasPrefix("--") && argument.count > 1 && argument.dropFirst().allSatisfy { "qvh".contains($0) }
            if argument.hasPrefix("-") && argument != "-" && !flags.contains(argument) && !shortFlags { return argument }
            k += 1
        }
        return nil
    }

    /// `--pdf-standard a,b` and repeated options, split and trimmed.
    var pdfStandardList: [String] {
        pdfStandard.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
    }

    func validate() throws {
        if let bad = pdfStandardList.first(where: { !Typesetter.pdfStandardNames.contains($0) }) {
            throw ValidationError("unknown --pdf-standard '\(bad)': use \(Typesetter.pdfStandardNames.joined(separator: ", "))")
        }
        if listTemplates { return }
        guard let input else {
            // ArgumentParser validates before it reports leftovers: name the unknown option, not the input.
            if let unknown = Typeset.unknownOption(in: Array(CommandLine.arguments.dropFirst())) {
                throw ValidationError("unknown option '\(unknown)'")
            }
            throw ValidationError("missing input: typeset IN.rt [-o OUT]")
        }
        if let output, output != "-", !Typesetter.isKnownOutput(output) {
            throw ValidationError("unknown output type '.\((output as NSString).pathExtension)' in '\(output)': use .pdf, .png or .svg")
        }
        for item in define where !item.contains("=") {
            throw ValidationError("-D expects name=value, got '\(item)'")
        }
        if input == "-" && output == nil {
            throw ValidationError("reading standard input needs -o FILE or -o - (standard output)")
        }
        if input != "-" && output == nil && Typeset.defaultOutput(for: input) == input {
            throw ValidationError("'\(input)' already ends in .pdf: give the output name with -o")
        }
        if deps != nil && (output == "-" || input == "-") {
            throw ValidationError("--deps needs a named input and output file")
        }
        if let jobs, jobs < 1 || jobs > 256 {
            throw ValidationError("--jobs expects a number of threads from 1 to 256, got \(jobs)")
        }
        if watch && (output == "-" || input == "-") {
            throw ValidationError("--watch needs a named input and output file")
        }
    }

    func run() throws {
        if listTemplates {
            try printResult(TemplateLibrary.list().map { "\($0.0)\t\($0.1)" }.joined(separator: "\n"))
            return
        }
        if input == "-", let problem = StandardStreams.closedInput {
            printError(problem)
            throw ExitCode(1)
        }
        if output == "-", let problem = StandardStreams.closedOutput {
            printError(problem)
            throw ExitCode(1)
        }
        let request = makeRequest()
        if watch {
            let incremental = IncrementalBuild()
            let document: [String]
            if case .file(let path) = request.input { document = [path] } else { document = [] }
            Watcher.run(first: document) {
                let clock = Date()
                let result = build(request, incremental: incremental)
                if result.succeeded, !quiet, case .file(let out) = request.output {
                    let pages = result.pages.map { "\($0) page\($0 == 1 ? "" : "s"), " } ?? ""
                    printError("typeset: wrote \(out) (\(pages)\(formatDuration(Date().timeIntervalSince(clock))))")
                }
                return result.inputs
            }
        }
        if !build(request).succeeded { throw ExitCode(1) }
    }

    func makeRequest() -> TypesetRequest {
        let input = self.input ?? "-"
        let source: TypesetRequest.Input
        if input == "-" {
            source = .standardInput
        } else {
            source = .file(input)
        }
        let destination: TypesetRequest.Output
        switch output {
        case "-": destination = .standardOutput
        case let path?: destination = .file(path)
        case nil: destination = .file(Typeset.defaultOutput(for: input))
        }
        var request = TypesetRequest(input: source, output: destination)
        for item in define {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            request.variables[String(parts[0])] = String(parts[1])
        }
        request.dataFiles = data
        request.template = template
        request.dependencyFile = deps
        request.root = root
        request.allowUndefined = allowUndefined
        request.pdfStandards = pdfStandardList
        request.jobs = jobs ?? TypesetRequest.coreCount
        if let epoch = getenv("SOURCE_DATE_EPOCH").map({ String(cString: $0) }), let seconds = Int64(epoch) {
            request.sourceDateEpoch = seconds
        }
        return request
    }

    /// One build; prints diagnostics (and timings with --verbose).
    func build(_ request: TypesetRequest,
               incremental: IncrementalBuild? = nil) -> (succeeded: Bool, inputs: [String], pages: Int?) {
        var request = request
        // Only a person at a terminal wants the line; CI logs and pipes would keep every rewrite.
        let progress = ProgressLine(enabled: !quiet && isatty(STDERR_FILENO) == 1)
        request.progress = { progress.update($0) }
        let outcome = incremental?.run(request) ?? Typesetter.run(request)
        progress.clear()
        for diagnostic in outcome.diagnostics where !(quiet && diagnostic.severity != .error) {
            printError(diagnostic.description)
        }
        if verbose {
            for timing in outcome.timings {
                printError("typeset: " + timing.stage.padding(toLength: 14, withPad: " ", startingAt: 0) + formatDuration(timing.seconds))
            }
            printError("typeset: inputs: " + outcome.inputs.joined(separator: " "))
            printError("typeset: loaded on demand: " + (outcome.loaded.isEmpty ? "nothing" : outcome.loaded.joined(separator: " ")))
        }
        return (outcome.succeeded, outcome.inputs, outcome.pages)
    }
}

/// Writes all of `text` to `fd`; the errno of a failure, or nil.
func writeText(_ text: String, to fd: Int32) -> Int32? {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { return errno }
        offset += n
    }
    return nil
}

/// Writes a line to standard error; a full or closed standard error loses the line but never traps.
func printError(_ line: String) {
    _ = writeText(line + "\n", to: STDERR_FILENO)
}

/// Prints a line to standard output and checks that it arrived: `measure > /dev/full` is an error.
func printResult(_ text: String) throws {
    if let failure = writeText(text + "\n", to: STDOUT_FILENO) {
        printError("typeset: error: cannot write standard output: \(String(cString: strerror(failure)))")
        throw ExitCode(1)
    }
}

/// Standard input, output and error closed by the caller (`typeset - <&-`): noted at startup, then each is
/// pointed at /dev/null so no file typeset opens later takes its number and gets read or overwritten.
enum StandardStreams {
    nonisolated(unsafe) static var closedInput: String? = nil
    nonisolated(unsafe) static var closedOutput: String? = nil

    static func check() {
        for fd in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(fd, F_GETFD) == -1 {
            if fd == STDIN_FILENO { closedInput = "<stdin>:1:1: error: cannot read standard input: it is closed" }
            if fd == STDOUT_FILENO { closedOutput = "typeset: error: cannot write standard output: it is closed" }
            let null = open("/dev/null", fd == STDIN_FILENO ? O_RDONLY : O_WRONLY)
            if null >= 0 && null != fd {
                dup2(null, fd)
                close(null)
            }
        }
    }
}

/// `0.42 ms`, `12.3 ms`, `1.25 s`: three significant figures in a unit a person reads at a glance.
func formatDuration(_ seconds: Double) -> String {
    if seconds < 0.001 { return String(format: "%.2f ms", seconds * 1000) }
    if seconds < 1 { return String(format: "%.1f ms", seconds * 1000) }
    return String(format: "%.2f s", seconds)
}

struct NewDocument: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeset new", abstract: "Write a starter document that uses a template.")

    @Argument(help: "Template name (see typeset --list-templates) or path.")
    var template: String
    @Argument(help: "The .rt file to write (refuses to overwrite).")
    var file: String

    func run() throws {
        guard let found = TemplateLibrary.find(template, relativeTo: "./" + file) else {
            printError("typeset: error: template '\(template)' not found (typeset --list-templates lists them)")
            throw ExitCode(1)
        }
        guard !FileManager.default.fileExists(atPath: file) else {
            printError("typeset: error: '\(file)' already exists; not overwriting it")
            throw ExitCode(1)
        }
        let text = TemplateLibrary.starter(for: template, template: found)
        guard FileManager.default.createFile(atPath: file, contents: Data(text.utf8)) else {
            printError("typeset: error: cannot write '\(file)'")
            throw ExitCode(1)
        }
        print("wrote \(file): typeset \(file) makes \(file.hasSuffix(".rt") ? String(file.dropLast(3)) : file).pdf")
    }
}

struct MeasureDocument: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "typeset measure",
        abstract: "Print the size the content needs at a column width, as JSON: {columns, contentWidth, height, lines, pages, width} (points).")

    @Argument(help: "The .rt file, or - for standard input.")
    var input: String
    @Option(help: ArgumentHelp("Width of one column: 12cm, 300pt, 4in (a bare number is points); with columns: N the content box is N columns plus the gaps.", valueName: "len"))
    var width: String
    @Option(name: .customShort("D"), help: ArgumentHelp("Set a variable.", valueName: "name=value"))
    var define: [String] = []
    @Option(help: ArgumentHelp("Variables from a JSON or YAML file.", valueName: "file"))
    var data: [String] = []
    @Option(help: ArgumentHelp("Template name or path.", valueName: "name|path"))
    var template: String?
    @Option(help: ArgumentHelp("Files the document names must be under this folder (see typeset --help).", valueName: "dir"))
    var root: String?
    @Flag(help: "Undefined {{variables}} become empty instead of an error.")
    var allowUndefined = false

    func validate() throws {
        guard let points = Measure.parseWidth(width), points > 0 else {
            throw ValidationError("--width expects a positive length up to \(Int(Measure.maxWidth))pt, like 12cm or 300pt, got '\(width)'")
        }
        for item in define where !item.contains("=") { throw ValidationError("-D expects name=value, got '\(item)'") }
    }

    func run() throws {
        if input == "-", let problem = StandardStreams.closedInput {
            printError(problem)
            throw ExitCode(1)
        }
        let source: TypesetRequest.Input = input == "-" ? .standardInput : .file(input)
        var request = TypesetRequest(input: source, output: .standardOutput)
        for item in define {
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            request.variables[String(parts[0])] = String(parts[1])
        }
        request.dataFiles = data
        request.template = template
        request.allowUndefined = allowUndefined
        request.root = root
        let (measurement, diagnostics) = Measure.run(request, width: Measure.parseWidth(width) ?? 0)
        for diagnostic in diagnostics { printError(diagnostic.description) }
        guard let measurement else { throw ExitCode(1) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try printResult(String(decoding: try encoder.encode(measurement), as: UTF8.self))
    }
}

/// ArgumentParser reports usage errors with EX_USAGE (64); the contract says 2.
/// `parsed`: the command already made from plain arguments (QuickArguments.swift); nil: ArgumentParser parses.
func runCommand<C: ParsableCommand>(_ type: C.Type, _ arguments: [String], parsed: C? = nil) -> Never {
    do {
        var command: ParsableCommand
        if let parsed { command = parsed } else { command = try type.parseAsRoot(arguments) }
        try command.run()
        exit(0)
    } catch {
        let code = type.exitCode(for: error)
        if code == .validationFailure {
            printError(type.fullMessage(for: error))
            exit(2)
        }
        type.exit(withError: error)
    }
}

StandardStreams.check()
Typesetter.installSignalCleanup()
let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "new": runCommand(NewDocument.self, Array(arguments.dropFirst()))
case "measure": runCommand(MeasureDocument.self, Array(arguments.dropFirst()))
default:
    let parsed = Typeset.quickParse(arguments)
    // A build: fontconfig and libqpdf start loading while the input is read (StartUp.swift).
    if let parsed, !parsed.listTemplates { Typesetter.startLoads(output: parsed.output, jobs: parsed.jobs) }
    runCommand(Typeset.self, arguments, parsed: parsed)
}
