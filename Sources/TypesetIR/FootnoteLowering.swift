// Footnotes (contract section 4): numbered 1, 2, 3 in order of first reference; the mark is a superscript
// number linking to its note.
// INTERIM PLACEMENT: the notes are set at the END OF THE DOCUMENT (after a short rule, in style `footnote`,
// each starting with its number and carrying the link target), not yet at the foot of the column where the
// mark lands as the contract asks: that needs the paginator to reserve space per column.

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
        builder.append(String(number), a)
    }

    /// Sets every referenced note after the body (interim placement, see the top of this file) and warns
    /// about definitions never referenced. Notes referenced from notes are numbered and set after them.
    mutating func setFootnotes(body: StyleState) {
        var state = body
        sheet.apply("footnote", to: &state)
        var k = 0
        while k < footnotes.notes.count {
            if k == 0 {
                var rule = HorizontalRule()
                rule.widthFraction = 1.0 / 3.0
                rule.spaceBefore = 12
                rule.spaceAfter = 4
                output.append(.rule(rule))
            }
            let number = k + 1
            switch footnotes.notes[k] {
            case .defined(let blocks, let location):
                setNote(number, blocks: blocks, state: state, location: location)
            case .inline(let content, let location):
                setNote(number, blocks: [Block(.paragraph(content), range: SourceRange(at: location))],
                        state: state, location: location)
            }
            k += 1
        }
        let unused = footnotes.definitions.filter { footnotes.numbers[$0.key] == nil }
        for (label, definition) in unused.sorted(by: { $0.value.location < $1.value.location }) {
            diagnostics.append(.warning("footnote [^\(label)] is defined but never referenced: it is not set",
                                        at: definition.location))
        }
    }

    /// `N. ` then the note's first paragraph; the paragraph carries the anchor the mark links to.
    private mutating func setNote(_ number: Int, blocks: [Block], state: StyleState, location: SourceLocation) {
        openStructure("Note")
        defer { closeStructure(1) }
        var builder = ParagraphBuilder()
        builder.append("\(number). ", state.character)
        builder.anchors.append(FootnoteState.anchor(number))
        definedAnchors.insert(FootnoteState.anchor(number))
        var rest = blocks[...]
        var at = location
        if let first = rest.first, case .paragraph(let content) = first.kind {
            let paragraphState = applying(first.attributes, to: state)
            lowerInlines(content, paragraphState.character, state: paragraphState, into: &builder)
            at = first.range.start
            rest = rest.dropFirst()
        }
        emitParagraph(builder, style: state.paragraphStyle(), base: state.character, location: at)
        lowerBlocks(Array(rest), in: state)
    }
}
