// Yams configured for what typeset reads from YAML: the node tree with marks, scalars as written.

import Yams

enum YAMLCompose {
    /// No implicit tags and no constructors: Yams's default resolver compiles seven ICU regular expressions
    /// on first use (about a fifth of a one-page document's run) to type scalars as bool/int/float/null/date,
    /// and nothing in typeset reads a node's tag; null is recognised by its text (`Node.null`). UTF-8 always,
    /// so Yams does not read the environment for its encoding. No constructor maps either: typeset converts
    /// nodes itself.
    static func compose(_ yaml: String) throws -> Node? {
        try Yams.compose(yaml: yaml, .basic, Constructor([:], [:], [:]), .utf8)
    }
}
