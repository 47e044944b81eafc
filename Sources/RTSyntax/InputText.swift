// Turns the bytes of a file into the text every later stage reads (contract section 1): BOM removed, UTF-8
// checked, every line ending (LF, CRLF, lone CR) made LF, control characters dropped with a warning.
// Done once here so no construct has to know about CR. Line numbers and columns stay those of the file:
// a line ending is one line break either way, and the dropped characters are remembered so columns after
// them still count them.

/// A file's text after `InputCheck.prepare`.
struct PreparedText {
    var bytes: [UInt8]
    /// Offsets into `bytes` where dropped characters stood (ascending, one entry per character).
    var dropped: [Int] = []
    /// One warning per line with control characters, then one summary.
    var warnings: [Diagnostic] = []
}

extension InputCheck {
    /// Warnings about control characters beyond this many lines are folded into one summary.
    static let maxControlWarnings = 20

    /// The file's text, or the error that stops it (invalid UTF-8, NUL) with its location.
    static func prepare(_ raw: [UInt8], file: String) -> Result<PreparedText, Diagnostic> {
        let body = removingBOM(raw)
        if let problem = firstProblem(body) {
            return .failure(.error(problem.message, at: location(of: problem.offset, in: body, file: file)))
        }
        guard needsCleaning(body) else { return .success(PreparedText(bytes: body)) }
        var cleaner = Cleaner(file: file)
        cleaner.run(body)
        return .success(PreparedText(bytes: cleaner.out, dropped: cleaner.dropped, warnings: cleaner.warnings))
    }

    /// Whether any CR or control character is present (the common case, none, copies nothing).
    private static func needsCleaning(_ b: [UInt8]) -> Bool {
        b.withUnsafeBufferPointer { p in
            for i in 0 ..< p.count {
                let c = p[i]
                if c < 0x20 && c != 0x0A && c != 0x09 { return true }
                if c == 0x7F { return true }
                if c == 0xC2 && i + 1 < p.count && p[i + 1] >= 0x80 && p[i + 1] <= 0x9F { return true }
            }
            return false
        }
    }

    /// The control characters the contract drops: C0 but TAB, LF, CR; DEL; C1.
    static func isDroppedControl(_ scalar: UInt32) -> Bool {
        (scalar < 0x20 && scalar != 0x09 && scalar != 0x0A && scalar != 0x0D) || (scalar >= 0x7F && scalar <= 0x9F)
    }

    static func codepoint(_ scalar: UInt32) -> String {
        let hex = String(scalar, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

/// One pass over valid UTF-8: copies it with LF line ends and without control characters, tracking the
/// line and column of the original for the warnings.
private struct Cleaner {
    let file: String
    var out: [UInt8] = []
    var dropped: [Int] = []
    var warnings: [Diagnostic] = []
    private var line = 1
    private var column = 1
    /// The current line's first control character and how many it has.
    private var lastMoreLine = 0
    /// Past the warning cap: characters, lines and where the first of them is.
    private var moreCharacters = 0
    private var moreLines = 0
    private var moreAt: SourceLocation? = nil

    init(file: String) { self.file = file }

    mutating func run(_ b: [UInt8]) {
        out.reserveCapacity(b.count)
        var i = 0
        let n = b.count
        while i < n {
            let c = b[i]
            if c == 0x0D || c == 0x0A {
                out.append(0x0A)
                i += (c == 0x0D && i + 1 < n && b[i + 1] == 0x0A) ? 2 : 1
                endLine()
                continue
            }
            if c == 0xC2 && i + 1 < n && b[i + 1] >= 0x80 && b[i + 1] <= 0x9F {
                drop(UInt32(b[i + 1]))
                i += 2
                continue
            }
            if c < 0x80 && InputCheck.isDroppedControl(UInt32(c)) {
                drop(UInt32(c))
                i += 1
                continue
            }
            out.append(c)
            if c & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        endLine()
        if moreCharacters > 0 {
            let lines = moreLines == 1 ? "1 more line" : "\(moreLines) more lines"
            warnings.append(.warning("\(moreCharacters) more control character\(moreCharacters == 1 ? "" : "s") on \(lines) "
                + "dropped (the first is here)", at: moreAt))
        }
    }

    /// Each dropped character is a warning at its own place (RT section 1), up to a bound; past it one summary
    /// counts the rest, at the first of them.
    private mutating func drop(_ scalar: UInt32) {
        dropped.append(out.count)
        let at = SourceLocation(file: file, line: line, column: column)
        if warnings.count < InputCheck.maxControlWarnings {
            warnings.append(.warning("control character \(InputCheck.codepoint(scalar)) dropped: "
                + "it has no printed form (remove it from the file)", at: at))
        } else {
            if moreAt == nil { moreAt = at }
            moreCharacters += 1
            if lastMoreLine != line { moreLines += 1; lastMoreLine = line }
        }
        column += 1
    }

    private mutating func endLine() {
        line += 1
        column = 1
    }
}
