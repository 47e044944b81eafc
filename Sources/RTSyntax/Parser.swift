// Entry point of the parser. The block and inline grammars live in their own files.

public struct ParseOptions: Sendable {
    /// Reads an `@include`d file by its resolved path (relative paths are resolved against the including
    /// file's folder before this is called). nil: includes are an error ("cannot read").
    public var readFile: (@Sendable (String) -> [UInt8]?)?

    public init(readFile: (@Sendable (String) -> [UInt8]?)? = nil) {
        self.readFile = readFile
    }
}

public struct ParseResult: Sendable {
    public var document: RTDocument
    /// Errors and warnings in source order. A best-effort tree is returned even when there are errors.
    public var diagnostics: [Diagnostic]
    /// Every file pasted in by `@include`, resolved paths, in first-use order (for `--deps`).
    public var includedFiles: [String]

    public init(document: RTDocument, diagnostics: [Diagnostic], includedFiles: [String] = []) {
        self.document = document
        self.diagnostics = diagnostics
        self.includedFiles = includedFiles
    }
}
