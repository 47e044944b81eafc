/// Where something is in a source file. Lines and columns are 1-based; columns count Unicode scalars.
public struct SourceLocation: Hashable, Sendable, Comparable, CustomStringConvertible {
    // Held in 32 bits each: every syntax node has two locations, and a document is at most 8 MB, so lines and
    // columns stay far below 2^31; the file is a number in `SourceFiles` (12 bytes a location instead of 32;
    // issue 8: trees of millions of nodes). Equal numbers are equal names, so equality and hashing are unchanged.
    private var storedFile: UInt32
    private var storedLine: Int32
    private var storedColumn: Int32

    /// The path as the user named it (or `<stdin>`), so messages point where the user looks.
    public var file: String {
        get { SourceFiles.name(storedFile) }
        set { storedFile = SourceFiles.number(newValue) }
    }

    /// The file's number in `SourceFiles` (Inline keeps a range's file once).
    var fileNumber: UInt32 { storedFile }

    public var line: Int {
        get { Int(storedLine) }
        set { storedLine = Int32(clamping: newValue) }
    }

    public var column: Int {
        get { Int(storedColumn) }
        set { storedColumn = Int32(clamping: newValue) }
    }

    public init(file: String, line: Int, column: Int) {
        self.init(fileNumber: SourceFiles.number(file), line: line, column: column)
    }

    /// For the parser, which looks its file's number up once (`Source.fileNumber`).
    init(fileNumber: UInt32, line: Int, column: Int) {
        storedFile = fileNumber
        storedLine = Int32(clamping: line)
        storedColumn = Int32(clamping: column)
    }

    public static func < (a: SourceLocation, b: SourceLocation) -> Bool {
        (a.line, a.column) < (b.line, b.column)
    }

    public var description: String { "\(file):\(line):\(column)" }
}

/// A half-open range of source text: `start` is the first character, `end` is just past the last.
public struct SourceRange: Hashable, Sendable {
    public var start: SourceLocation
    public var end: SourceLocation

    public init(start: SourceLocation, end: SourceLocation) {
        self.start = start
        self.end = end
    }

    public init(at location: SourceLocation) {
        self.start = location
        self.end = location
    }
}

public enum Severity: String, Sendable, Hashable {
    case error, warning, note
}

/// One message for the user, printed as `path:line:col: error: message` (swift-format / clang style).
public struct Diagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public var severity: Severity
    public var location: SourceLocation?
    public var message: String

    public init(_ severity: Severity, _ message: String, at location: SourceLocation?) {
        self.severity = severity
        self.message = message
        self.location = location
    }

    public static func error(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.error, message, at: location)
    }

    public static func warning(_ message: String, at location: SourceLocation?) -> Diagnostic {
        Diagnostic(.warning, message, at: location)
    }

    public var description: String {
        if let location { return "\(location): \(severity.rawValue): \(message)" }
        return "typeset: \(severity.rawValue): \(message)"
    }
}

/// Collects diagnostics from every stage; errors stop the build before any output is written.
public struct DiagnosticList: Sendable {
    public private(set) var all: [Diagnostic] = []

    public init() {}

    public mutating func append(_ diagnostic: Diagnostic) { all.append(diagnostic) }
    public mutating func append(contentsOf others: [Diagnostic]) { all.append(contentsOf: others) }
    public mutating func error(_ message: String, at location: SourceLocation?) { all.append(.error(message, at: location)) }
    public mutating func warning(_ message: String, at location: SourceLocation?) { all.append(.warning(message, at: location)) }

    public var hasErrors: Bool { all.contains { $0.severity == .error } }
    public var errors: [Diagnostic] { all.filter { $0.severity == .error } }
    public var warnings: [Diagnostic] { all.filter { $0.severity == .warning } }
}
