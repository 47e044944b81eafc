// Helpers: parse strings and render trees as compact text so tests can assert whole structures.

import XCTest
@testable import RTSyntax

func parse(_ text: String, file: String = "doc.rt", files: [String: String] = [:]) -> ParseResult {
    let options = ParseOptions(readFile: { path in files[path].map { Array($0.utf8) } })
    return RTParser.parse(Array(text.utf8), file: file, options: options)
}

func blocks(_ text: String) -> [Block] { parse(text).document.blocks }

/// Inlines of the first block (paragraph or heading).
func inlines(_ text: String) -> [Inline] {
    guard let first = blocks(text).first else { return [] }
    switch first.kind {
    case .paragraph(let c): return c
    case .heading(_, let c, _): return c
    default: return []
    }
}

func show(_ text: String) -> String { show(inlines(text)) }

func show(_ inlines: [Inline]) -> String {
    inlines.map(show).joined(separator: " ")
}

func show(_ inline: Inline) -> String {
    switch inline.kind {
    case .text(let s): return "\"\(s)\""
    case .softBreak: return "SB"
    case .hardBreak: return "HB"
    case .tab: return "TAB"
    case .strong(let c): return "strong(\(show(c)))"
    case .emphasis(let c): return "em(\(show(c)))"
    case .underline(let c): return "u(\(show(c)))"
    case .strikethrough(let c): return "del(\(show(c)))"
    case .superscript(let c): return "sup(\(show(c)))"
    case .subscript(let c): return "sub(\(show(c)))"
    case .highlight(let c): return "mark(\(show(c)))"
    case .code(let s): return "code(\(s))"
    case .link(let d, let c): return "link<\(d)>(\(show(c)))"
    case .image(let i): return "img<\(i.path)>(\(i.alt))\(showAttrs(i.attributes))"
    case .span(let c, let a): return "span\(showAttrs(a))(\(show(c)))"
    case .variable(let n): return "var(\(n))"
    case .rawHTML(let t): return "html(\(t.isClosing ? "/" : "")\(t.name))"
    case .footnoteReference(let label): return "fnref(\(label))"
    case .inlineFootnote(let c): return "fn(\(show(c)))"
    }
}

func showAttrs(_ a: Attributes) -> String {
    if a.isEmpty { return "" }
    var parts: [String] = a.styles.map { "." + $0.name }
    if let id = a.id { parts.append("#" + id) }
    parts += a.pairs.map { "\($0.key)=\($0.value)" }
    return "{" + parts.joined(separator: " ") + "}"
}

func show(_ blocks: [Block]) -> String { blocks.map(show).joined(separator: " ") }

func show(_ block: Block) -> String {
    let attrs = showAttrs(block.attributes)
    switch block.kind {
    case .paragraph(let c): return "p\(attrs)[\(show(c))]"
    case .heading(let level, let c, let id): return "h\(level)#\(id)\(attrs)[\(show(c))]"
    case .list(let l):
        let items = l.items.map { "item[\(show($0.blocks))]" }.joined(separator: " ")
        return "list(\(l.style),\(l.start),\(l.delimiter),\(l.isTight ? "tight" : "loose"))\(attrs)[\(items)]"
    case .blockQuote(let b): return "quote\(attrs)[\(show(b))]"
    case .codeBlock(let lang, let t): return "code(\(lang ?? "-"))\(attrs)[\(t)]"
    case .rule: return "hr\(attrs)"
    case .table(let t): return "table\(attrs)(\(t.alignments.count)x\(t.rows.count))"
    case .imageBlock(let i): return "image<\(i.path)>\(attrs)"
    case .div(let b): return "div\(attrs)[\(show(b))]"
    case .directive(let d): return "@\(d)\(attrs)"
    case .footnoteDefinition(let label, let b): return "fndef(\(label))[\(show(b))]"
    }
}

func errors(_ r: ParseResult) -> [Diagnostic] { r.diagnostics.filter { $0.severity == .error } }
func warnings(_ r: ParseResult) -> [Diagnostic] { r.diagnostics.filter { $0.severity == .warning } }

func loc(_ l: SourceLocation?) -> String {
    guard let l else { return "nil" }
    return "\(l.line):\(l.column)"
}
