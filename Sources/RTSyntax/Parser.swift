// Entry point of the parser. The block and inline grammars live in their own files.

public struct ParseOptions: Sendable {
    /// Reads an `@include`d file by its resolved path (relative paths are resolved against the including
    /// file's folder before this is called). nil: includes are an error ("cannot read").
    public var readFile: (@Sendable (String) -> [UInt8]?)?
    /// Expand `{{...}}` before parsing (section 7). nil: `{{name}}` stays a `.variable` inline (unit tests,
    /// header/footer lines).
    public var expansion: ExpansionOptions?
    /// Where included files and front matter templates may come from; nil: anywhere (unit tests, library use).
    public var root: ReadRoot?

    public init(readFile: (@Sendable (String) -> [UInt8]?)? = nil, expansion: ExpansionOptions? = nil, root: ReadRoot? = nil) {
        self.readFile = readFile
        self.expansion = expansion
        self.root = root
    }
}

/// Values and template for the expansion pass.
public struct ExpansionOptions: Sendable {
    /// `--data` merged with `-D` (which wins); front matter `vars` go beneath both.
    public var data: DataValue
    public var allowUndefined: Bool
    /// `--template NAME|PATH` from the command line; beats front matter `template:`.
    public var template: String?
    /// Finds a template by name or path (relative to the document file given) -> (file name for messages, bytes).
    public var loadTemplate: (@Sendable (_ reference: String, _ relativeTo: String) -> (file: String, bytes: [UInt8])?)?

    public init(data: DataValue = .map([]), allowUndefined: Bool = false, template: String? = nil,
                loadTemplate: (@Sendable (String, String) -> (file: String, bytes: [UInt8])?)? = nil) {
        self.data = data
        self.allowUndefined = allowUndefined
        self.template = template
        self.loadTemplate = loadTemplate
    }
}

public struct ParseResult: Sendable {
    public var document: RTDocument
    /// Errors and warnings in source order. A best-effort tree is returned even when there are errors.
    public var diagnostics: [Diagnostic]
    /// Every file pasted in by `@include`, resolved paths, in first-use order (for `--deps`).
    public var includedFiles: [String]
    /// The template file used, when it was read from disk (for `--deps`).
    public var templateFile: String?
    /// Seconds spent expanding variables, sections and the template (`--verbose` shows it apart from parsing).
    public var expansionSeconds: Double = 0
    /// Template nodes the expansion rendered (main file and includes): work counted, for tests of its bound.
    public var expansionSteps = 0
    /// Work the block and inline parsers did (see `ParseContext.steps`); for tests of linear growth.
    var parseSteps = 0
    /// Bytes the block parser read (after expansion): the measure `parseSteps` is compared with.
    var parsedBytes = 0

    public init(document: RTDocument, diagnostics: [Diagnostic], includedFiles: [String] = [], templateFile: String? = nil) {
        self.document = document
        self.diagnostics = diagnostics
        self.includedFiles = includedFiles
        self.templateFile = templateFile
    }
}
