// Entry point of lowering: syntax tree + styles + options -> TypesetDocument.

import RTSyntax

public struct LoweringOptions: Sendable {
    /// `-D name=value` from the command line: highest priority over `--data` and front matter `vars`.
    public var variables: [String: String]
    /// `--allow-undefined`: an undefined `{{name}}` becomes empty instead of an error.
    public var allowUndefined: Bool
    /// `SOURCE_DATE_EPOCH` if set; used for the PDF dates when front matter has no `date`.
    public var sourceDateEpoch: Int64?
    /// The current time (seconds since 1970), used when neither `date` nor `SOURCE_DATE_EPOCH` is given.
    public var now: Int64

    public init(variables: [String: String] = [:], allowUndefined: Bool = false, sourceDateEpoch: Int64? = nil, now: Int64 = 0) {
        self.variables = variables
        self.allowUndefined = allowUndefined
        self.sourceDateEpoch = sourceDateEpoch
        self.now = now
    }
}

public struct LoweringResult: Sendable {
    public var document: TypesetDocument
    public var diagnostics: [Diagnostic]
    /// Image files the document uses (resolved paths), for `--deps`.
    public var referencedFiles: [String]

    public init(document: TypesetDocument, diagnostics: [Diagnostic], referencedFiles: [String] = []) {
        self.document = document
        self.diagnostics = diagnostics
        self.referencedFiles = referencedFiles
    }
}
