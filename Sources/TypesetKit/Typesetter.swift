// The whole pipeline as one call: read -> expand and parse -> lower -> lay out and render -> atomically publish.
// The CLI is a thin shell over this; tests and other tools can drive it directly.

import Foundation
import RTSyntax
import TypesetIR
import TypesetLayout
import TypesetPDF

public struct TypesetRequest: Sendable {
    public enum Input: Sendable {
        case file(String)
        /// Bytes already read; diagnostics name them `name`.
        case bytes([UInt8], name: String)
        /// Read (bounded) when the build starts; diagnostics name it `<stdin>`.
        case standardInput
    }

    public enum Output: Sendable {
        case file(String)
        case standardOutput
    }

    public var input: Input
    public var output: Output
    /// `-D name=value`: beats `--data` and front matter `vars`.
    public var variables: [String: String] = [:]
    /// `--data FILE.json|.yaml`, later files win.
    public var dataFiles: [String] = []
    /// `--template NAME|PATH`: beats front matter `template:`.
    public var template: String? = nil
    /// `--root DIR`: files the document names are read only under it. nil: the nearest common folder of the
    /// current directory and the input's folder.
    public var root: String? = nil
    /// `--deps FILE`: write a Makefile rule listing every input.
    public var dependencyFile: String? = nil
    public var allowUndefined = false
    public var sourceDateEpoch: Int64? = nil
    /// `--pdf-standard ua-1,a-2b`: names from `Typesetter.pdfStandardNames`, added to front matter `pdf-standard`.
    public var pdfStandards: [String] = []
    /// Hears the stage and pages done as the build goes (the CLI's progress line on a terminal).
    public var progress: (@Sendable (BuildProgress) -> Void)? = nil
    /// `--jobs N`: threads that shape and break paragraphs (the CLI's default is every core; 1 here).
    public var jobs = 1
    /// Layouts kept between builds (IncrementalBuild); nil: a clean build.
    public var layoutCache: ParagraphCache? = nil
    /// Tagged page content kept between builds (IncrementalBuild); nil: a clean build.
    public var pageStreams: PageStreamMemo? = nil

    public init(input: Input, output: Output) {
        self.input = input
        self.output = output
    }
}

public struct TypesetOutcome: Sendable {
    public var diagnostics: [Diagnostic]
    /// False when any error stopped the build; then no output was written and a stale one was removed.
    public var succeeded: Bool
    /// Seconds per stage (`--verbose`).
    public var timings: [(stage: String, seconds: Double)] = []
    /// Every file read (document, includes, template, data, images, fonts): for `--deps` and `--watch`.
    public var inputs: [String] = []
    /// Pages written, when the build got that far.
    public var pages: Int? = nil
    /// What the process has loaded on demand so far (`LazyLoads`): pattern files, librsvg.
    public var loaded: [String] = []
}

/// Where a build is: `stage` is "reading", "parsing", "lowering", "counting pages", "typesetting" or "writing";
/// `pages` were done in that stage, of `totalPages` when the counting pass has run.
public struct BuildProgress: Sendable, Equatable {
    public var stage: String
    public var pages: Int = 0
    public var totalPages: Int? = nil

    public init(stage: String, pages: Int = 0, totalPages: Int? = nil) {
        self.stage = stage
        self.pages = pages
        self.totalPages = totalPages
    }
}

public enum Typesetter {
    /// True for an output name whose extension typeset knows: `.pdf`, `.png`, `.svg`, or none (PDF).
    /// What `--pdf-standard` accepts.
    public static let pdfStandardNames = PDFStandard.allCases.map(\.rawValue)

    public static func isKnownOutput(_ path: String) -> Bool { OutputFormat.isKnown(path: path) }

    /// Makes SIGTERM, SIGINT, SIGHUP and SIGPIPE remove the temporary files of a build in progress.
    public static func installSignalCleanup() { TemporaryFile.installSignalCleanup() }

    public static func run(_ request: TypesetRequest) -> TypesetOutcome {
        if request.jobs > 1 { MallocArenas.limit(toJobs: request.jobs) }
        MallocArenas.fixThresholds()
        var outcome = TypesetOutcome(diagnostics: [], succeeded: false)
        var diagnostics = DiagnosticList()
        outcome.succeeded = build(request, into: &diagnostics, outcome: &outcome)
        if !outcome.succeeded, case .file(let path) = request.output {
            // A failed build must not leave an older output that looks like this build's result (like ld).
            let format = OutputFormat(path: path)
            for old in format.pageFiles(existingFor: path) { OutputTarget.removeStale(old, format: format) }
        }
        outcome.diagnostics = UnknownGlyphs.summarized(Typesetter.inSourceOrder(GlyphWarningPlaces.located(diagnostics.all)))
        outcome.loaded = LazyLoads.loaded
        return outcome
    }

    /// Diagnostics as a reader wants them: each file in the order it first appears, by line and column within
    /// it, each message once; those without a location keep their order at the end.
    static func inSourceOrder(_ all: [Diagnostic]) -> [Diagnostic] {
        var fileRank: [String: Int] = [:]
        for d in all { if let file = d.location?.file, fileRank[file] == nil { fileRank[file] = fileRank.count } }
        var seen = Set<Diagnostic>()
        let unique = all.filter { seen.insert($0).inserted }
        return unique.enumerated().sorted { a, b in
            func key(_ e: (offset: Int, element: Diagnostic)) -> (Int, Int, Int, Int) {
                guard let l = e.element.location else { return (Int.max, 0, 0, e.offset) }
                return (fileRank[l.file] ?? 0, l.line, l.column, e.offset)
            }
            return key(a) < key(b)
        }.map(\.element)
    }

    /// Reads and lowers the document (no rendering): shared by `run` and `measure`.
    /// `feed`: hears the blocks as they are lowered (the shaping workers start on them meanwhile).
    static func lower(_ request: TypesetRequest, into diagnostics: inout DiagnosticList,
                      outcome: inout TypesetOutcome, feed: LayoutFeed? = nil) -> TypesetDocument? {
        var clock = Date()
        func lap(_ stage: String, _ next: String?) {
            outcome.timings.append((stage, Date().timeIntervalSince(clock)))
            clock = Date()
            if let next { request.progress?(BuildProgress(stage: next)) }
        }
        request.progress?(BuildProgress(stage: "reading"))
        let name: String
        let bytes: [UInt8]
        switch request.input {
        case .bytes(let b, let n):
            bytes = b
            name = n
        case .standardInput:
            name = "<stdin>"
            switch InputReader.standardInput() {
            case .success(let b): bytes = b
            case .failure(let failure):
                diagnostics.error(failure.message(naming: "standard input"), at: SourceLocation(file: name, line: 1, column: 1))
                return nil
            }
        case .file(let path):
            name = path
            outcome.inputs.append(path)
            switch InputReader.contents(ofFile: path) {
            case .success(let b): bytes = b
            case .failure(.unreadable(let reason)):
                diagnostics.error("cannot read '\(path)': \(reason)", at: nil)
                return nil
            case .failure(let failure):
                diagnostics.error(failure.message(naming: "the input"), at: SourceLocation(file: path, line: 1, column: 1))
                return nil
            }
        }

        var data = DataValue.map([])
        for file in request.dataFiles {
            outcome.inputs.append(file)
            let contents: [UInt8]
            switch InputReader.contents(ofFile: file) {
            case .success(let b): contents = b
            case .failure(.unreadable(let reason)):
                diagnostics.error("cannot read data file '\(file)': \(reason)", at: nil)
                return nil
            case .failure(let failure):
                diagnostics.error(failure.message(naming: "the data file"), at: SourceLocation(file: file, line: 1, column: 1))
                return nil
            }
            switch DataValue.parse(contents, file: file) {
            case .success(let value):
                guard case .map = value else {
                    diagnostics.error("data file must hold a mapping of names to values at the top", at: SourceLocation(file: file, line: 1, column: 1))
                    return nil
                }
                data = data.merging(value)
            case .failure(let problem):
                diagnostics.append(problem)
                return nil
            }
        }
        guard let root = readRoot(request, document: name, into: &diagnostics) else { return nil }
        let defines = DataValue.map(request.variables.sorted { $0.key < $1.key }.map { DataEntry(key: $0.key, value: .text($0.value)) })
        data = data.merging(defines)
        lap("read", "parsing")

        let expansion = ExpansionOptions(data: data, allowUndefined: request.allowUndefined, template: request.template,
                                         loadTemplate: { reference, document in
            TemplateLibrary.find(reference, relativeTo: document).map { ($0.file, $0.bytes) }
        })
        var parsed = RTParser.parse(bytes, file: name, options: ParseOptions(readFile: { path in
            switch InputReader.contents(ofFile: path) {
            case .success(let included): return included
            // One byte over the bound (never read in full): the parser reports the size at the @include line.
            case .failure(.tooLarge): return InputReader.overBound
            case .failure: return nil
            }
        }, expansion: expansion, root: root))
        _ = consume bytes  // the tree has what it needs: the source goes before lowering
        diagnostics.append(contentsOf: parsed.diagnostics)
        outcome.inputs += parsed.includedFiles
        if let template = parsed.templateFile { outcome.inputs.append(template) }
        // Expansion runs inside the parser; it reports its own share so the two show apart.
        let parseSeconds = Date().timeIntervalSince(clock)
        outcome.timings.append(("expand", parsed.expansionSeconds))
        outcome.timings.append(("parse", max(0, parseSeconds - parsed.expansionSeconds)))
        clock = Date()
        request.progress?(BuildProgress(stage: "lowering"))
        if diagnostics.hasErrors { return nil }

        // Header and footer lines are expanded by lowering: give it the top-level data values too.
        var variables: [String: String] = [:]
        if case .map(let entries) = data {
            for entry in entries { if case .text(let s) = entry.value { variables[entry.key] = s } }
        }
        var options = LoweringOptions(
            variables: variables,
            allowUndefined: request.allowUndefined,
            sourceDateEpoch: request.sourceDateEpoch,
            now: Int64(Date().timeIntervalSince1970),
            measurer: PangoTextMeasurer()
        )
        options.root = root
        options.pdfStandards = Set(request.pdfStandards.compactMap { PDFStandard(rawValue: $0.lowercased()) })
        options.sink = feed
        // Lowering frees the tree block by block as it goes: nothing here may keep a copy.
        let tree = parsed.document
        parsed.document = RTDocument(file: name)
        var lowered = Lowering.lower(consume tree, options: options, parseInlines: RTParser.parseInlines)
        Lowering.releaseSharedValues()
        MallocArenas.trim()
        lowered.document.sourceName = ((name as NSString).lastPathComponent as NSString).deletingPathExtension
        diagnostics.append(contentsOf: lowered.diagnostics)
        outcome.inputs += lowered.referencedFiles + lowered.document.fontFiles
        lap("lower", nil)
        if diagnostics.hasErrors { return nil }

        let breaks = lowered.document.blocks.reduce(0) { count, block in
            if case .pageBreak = block { return count + 1 }
            if case .columnBreak = block { return count + 1 }
            return count
        } / max(1, lowered.document.page.columns)
        // The same bound pagination enforces on every page (DocumentLayout.maxPages), checked early for breaks.
        if breaks >= DocumentLayout.maxPages {
            diagnostics.error("the document asks for at least \(breaks + 1) pages; the limit is \(DocumentLayout.maxPages) (check @pagebreak / @columnbreak)", at: nil)
            return nil
        }
        return lowered.document
    }

    /// The folder the document's own references must stay in (section 11): `--root`, else the nearest common
    /// folder of the current directory and the input's folder. A template named on the command line is
    /// trusted, and so is its folder (its includes).
    static func readRoot(_ request: TypesetRequest, document: String,
                         into diagnostics: inout DiagnosticList) -> ReadRoot? {
        let cwd = FileManager.default.currentDirectoryPath
        let folder: String
        if let given = request.root {
            folder = given
        } else if case .file(let path) = request.input {
            let parent = (path as NSString).deletingLastPathComponent
            folder = ReadRoot.commonFolder(cwd, parent.isEmpty ? "." : parent)
        } else {
            folder = cwd
        }
        guard var root = ReadRoot(folder) else {
            diagnostics.error("--root '\(folder)' is not a folder that exists", at: nil)
            return nil
        }
        if let template = request.template, template.contains("/") || template.hasSuffix(".rt"),
           let found = TemplateLibrary.find(template, relativeTo: document), !found.file.hasPrefix("<") {
            root.trust(folder: (found.file as NSString).deletingLastPathComponent)
        }
        return root
    }

    private static func build(_ request: TypesetRequest, into diagnostics: inout DiagnosticList,
                              outcome: inout TypesetOutcome) -> Bool {
        if case .file(let target) = request.output {
            if OutputTarget(path: target) == .directory {
                diagnostics.error("cannot write '\(target)': it is a directory; give a file name with -o", at: nil)
                return false
            }
            if case .file(let input) = request.input, OutputTarget.sameFile(input, target) {
                diagnostics.error("the output '\(target)' is the input file; give another name with -o", at: nil)
                return false
            }
        }
        // With more than one job the workers start shaping while the document is lowered (LayoutFeed.swift);
        // not with kept layouts (`--watch`): those are the paginator's to look up.
        let feed = request.jobs > 1 && request.layoutCache == nil && LayoutFeed.enabledByEnvironment
            ? LayoutFeed(jobs: request.jobs) : nil
        defer { feed?.close() }
        // No frame above the renderer keeps a copy of the IR: it is freed once pagination is done.
        guard let handoff = lower(request, into: &diagnostics, outcome: &outcome, feed: feed).map(Handoff.init)
        else { return false }
        var publisher = Publisher(output: request.output, report: request.progress)
        publisher.memo = request.pageStreams
        request.pageStreams?.beginBuild()
        let published = LayoutEngine.shared.withLock {
            // The engine is the process's: these settings hold for this build only.
            let engine = LayoutEngine.shared
            engine.jobs = max(request.jobs, 1)
            engine.paragraphCache = request.layoutCache
            request.layoutCache?.beginBuild()
            feed?.handOver()
            defer { engine.jobs = 1; engine.paragraphCache = nil; feed?.withdraw() }
            guard let document = handoff.take() else { return false }
            return publisher.publish(consume document, diagnostics: &diagnostics)
        }
        outcome.timings.append(("layout+render", publisher.renderSeconds))
        outcome.timings += publisher.stageClock.stages.map { ("  cpu " + $0.name, $0.seconds) }
        outcome.pages = publisher.pages
        defer { outcome.timings.append(("write", publisher.writeSeconds)) }
        guard published else { return false }
        if let depsFile = request.dependencyFile, case .file(let target) = request.output {
            let start = Date()
            defer { publisher.writeSeconds += Date().timeIntervalSince(start) }
            let rule = DependencyRule(target: target, inputs: outcome.inputs).makefileText
            if let failure = writeAtomically(Array(rule.utf8), to: depsFile) {
                diagnostics.error("cannot write dependency file '\(depsFile)': \(InputReader.reason(failure))", at: nil)
                return false
            }
        }
        return true
    }

    /// Holds a value until one taker moves it out (a closure cannot consume what it captures).
    final class Handoff<Value> {
        private var value: Value?
        init(_ value: consuming Value) { self.value = value }
        func take() -> Value? { value.take() }
    }

    static func temporaryPath(near path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let base = (path as NSString).lastPathComponent
        return ((folder.isEmpty ? "." : folder) as NSString).appendingPathComponent(
            ".\(base).\(ProcessInfo.processInfo.processIdentifier).\(UInt32.random(in: 0...UInt32.max)).tmp")
    }

    /// Writes `bytes` to `path` through a temporary file renamed into place; the errno of a failure.
    static func writeAtomically(_ bytes: [UInt8], to path: String) -> Int32? {
        let temporary = TemporaryFile(near: path)
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let code = errno
            temporary.remove()
            return code
        }
        let failure = writeAll(bytes, to: fd)
        let closed = close(fd) == 0 ? nil : errno
        if let code = failure ?? closed {
            temporary.remove()
            return code
        }
        return temporary.rename(to: path)
    }
}

