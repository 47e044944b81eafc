// `--deps FILE`: a Makefile rule `OUT: IN includes template data images fonts`, plus an empty rule per
// input (like `cc -MD -MP`) so deleting an include does not break `make`.

struct DependencyRule {
    var target: String
    var inputs: [String]

    var makefileText: String {
        var seen = Set<String>()
        let unique = inputs.filter { seen.insert($0).inserted }
        var text = Self.escape(target) + ":"
        for input in unique { text += " \\\n  " + Self.escape(input) }
        text += "\n"
        for input in unique.dropFirst() { text += "\n" + Self.escape(input) + ":\n" }
        return text
    }

    /// Make's quoting: `\ ` for spaces, `\#` for comments, `\:` for colons (else "multiple target
    /// patterns"), `$$` for dollars.
    static func escape(_ path: String) -> String {
        var out = ""
        for c in path {
            switch c {
            case " ": out += "\\ "
            case "#": out += "\\#"
            case ":": out += "\\:"
            case "$": out += "$$"
            default: out.append(c)
            }
        }
        return out
    }
}
