// Footnotes (contract section 4): numbered 1, 2, 3 in order of first reference; the mark is a superscript
// number linking to its note.
// The notes are lowered into `TypesetDocument.footnotes` (style `footnote`, each starting with its number
// and carrying the link target); layout sets each at the foot of the column where its mark lands, under a
// short rule (TypesetLayout/FootnoteArea.swift).

import RTSyntax

struct FootnoteState {
    enum Mark {
        case label(String)
        case inline([Inline])
    }

    struct Definition {
        var blocks: [Block]
        var location: SourceLocation
    }

    enum Note {
        case defined([Block], location: SourceLocation)
        case inline([Inline], location: SourceLocation)
    }

    /// By case-folded label; the first definition of a label wins.
    var definitions: [String: Definition] = [:]
    var numbers: [String: Int] = [:]
    /// Notes by number - 1, in the order they are first referenced.
    var notes: [Note] = []
    /// The notes lowered, by number - 1 (`setFootnotes`).
    var bodies: [FootnoteBody] = []

    /// Finds every `[^label]: text` in the document, wherever it is nested.
    mutating func collect(_ blocks: [Block], diagnostics: inout [Diagnostic]) {
        for block in blocks {
            switch block.kind {
            case .footnoteDefinition(let label, let inner):
                if definitions[label] != nil {
                    diagnostics.append(.warning("footnote [^\(label)] is defined twice: the first definition is used",
                                                at: block.range.start))
                } else {
                    definitions[label] = Definition(blocks: inner, location: block.range.start)
                }
                collect(inner, diagnostics: &diagnostics)
            case .list(let list):
                for item in list.items { collect(item.blocks, diagnostics: &diagnostics) }
            case .blockQuote(let inner), .div(let inner):
                collect(inner, diagnostics: &diagnostics)
            default:
                break
            }
        }
    }

    static func anchor(_ number: Int) -> String { "footnote-\(number)" }
    /// The destination at the mark a note's number links back to (placed by layout).
    static func backAnchor(_ number: Int) -> String { "fnref-\(number)" }
}

extension DocumentLowerer {
    /// Sets the superscript number of `mark` (numbering its note on first use) as a link to the note.
    mutating func appendFootnoteMark(_ mark: FootnoteState.Mark, _ attributes: CharacterAttributes,
                                     at location: SourceLocation, into builder: inout ParagraphBuilder) {
        if inRunningText {
            diagnostics.append(.warning("a footnote in a header or footer is not set", at: location))
            return
        }
        let number: Int
        switch mark {
        case .label(let label):
            if let known = footnotes.numbers[label] {
                number = known
            } else if let definition = footnotes.definitions[label] {
                footnotes.notes.append(.defined(definition.blocks, location: definition.location))
                number = footnotes.notes.count
                footnotes.numbers[label] = number
            } else {
                diagnostics.append(.error("footnote [^\(label)] has no definition: add a paragraph "
                    + "'[^\(label)]: text' (at the start of a line)", at: location))
                return
            }
        case .inline(let content):
            footnotes.notes.append(.inline(content, location: location))
            number = footnotes.notes.count
        }
        var a = attributes
        a.baselineShift += attributes.fontSize * Self.superscriptRaise
        a.fontSize = attributes.fontSize * Self.superscriptScale
        a.link = .destination(FootnoteState.anchor(number))
        internalLinks.append((FootnoteState.anchor(number), location))
        builder.footnoteMarks.append(number)
        let start = builder.length
        builder.append(String(number), a)
        builder.footnoteMarkRanges.append(start..<builder.length)
    }

    /// Lowers every referenced note into `footnotes.bodies` (layout sets them at the foot of the column where
    /// their marks land) and warns about definitions never referenced. Notes referenced from notes are
    /// numbered after them.
    mutating func setFootnotes(body: StyleState) {
        var state = body
        sheet.apply("footnote", to: &state)
        var k = 0
        while k < footnotes.notes.count {
            let number = k + 1
            let paragraphs: [AttributedParagraph]
            switch footnotes.notes[k] {
            case .defined(let blocks, let location):
                paragraphs = lowerNote(number, blocks: blocks, state: state, location: location)
            case .inline(let content, let location):
                paragraphs = lowerNote(number, blocks: [Block(.paragraph(content), range: SourceRange(at: location))],
                                       state: state, location: location)
            }
            footnotes.bodies.append(FootnoteBody(number: number, paragraphs: paragraphs))
            k += 1
        }
        let unused = footnotes.definitions.filter { footnotes.numbers[$0.key] == nil }
        for (label, definition) in unused.sorted(by: { $0.value.location < $1.value.location }) {
            diagnostics.append(.warning("footnote [^\(label)] is defined but never referenced: it is not set",
                                        at: definition.location))
        }
    }

    /// `N. ` then the note's first paragraph, which carries the anchor the mark links to; then the note's
    /// other blocks as paragraphs (lists, quotes and code are paragraphs; a table or float is not set here).
    private mutating func lowerNote(_ number: Int, blocks: [Block], state: StyleState,
                                    location: SourceLocation) -> [AttributedParagraph] {
        openStructure("Note")
        defer { closeStructure(1) }
        let body = output
        output = []
        var builder = ParagraphBuilder()
        var numberAttributes = state.character
        numberAttributes.link = .destination(FootnoteState.backAnchor(number))  // layout places it at the mark
        definedAnchors.insert(FootnoteState.backAnchor(number))
        builder.append("\(number).", numberAttributes)
        builder.append(" ", state.character)
        builder.anchors.append(FootnoteState.anchor(number))
        definedAnchors.insert(FootnoteState.anchor(number))
        var rest = blocks[...]
        var at = location
        if let first = rest.first, case .paragraph(let content) = first.kind {
            let paragraphState = applying(first.attributes, to: state)
            lowerParagraphInlines(content, state: paragraphState, into: &builder)
            at = first.range.start
            rest = rest.dropFirst()
        }
        emitParagraph(builder, style: state.paragraphStyle(), base: state.character, location: at)
        lowerBlocks(Array(rest), in: state)
        var paragraphs: [AttributedParagraph] = []
        var warned = false
        for block in output {
            switch block {
            case .paragraph(let p): paragraphs.append(p)
            case .tocEntry(let entry): paragraphs.append(entry.paragraph)
            case .table, .float:
                if !warned {
                    diagnostics.append(.warning("a table or float in footnote \(number) is not set: a footnote "
                        + "holds paragraphs, lists, quotes and code", at: location))
                    warned = true
                }
            default:
                break  // rules, breaks, column sets, shapes and box edges do not apply at a column's foot
            }
        }
        output = body
        return paragraphs
    }
}

extension ParagraphBuilder {
    /// The text without its footnote marks (a heading's title in bookmarks, `@toc` and `{{section}}`).
    var textWithoutFootnoteMarks: String {
        guard !footnoteMarkRanges.isEmpty else { return text }
        var bytes = Array(text.utf8)
        for r in footnoteMarkRanges.reversed() where r.upperBound <= bytes.count { bytes.removeSubrange(r) }
        return String(decoding: bytes, as: UTF8.self)
    }
}
