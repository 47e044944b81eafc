// `header:` / `footer:` lines -> RunningText: one line of inline markup, split at TABs into parts.
//
// Parts, as the contract reads: TABs split the line into left / centre / right, in that order, so two parts
// are left and centre. One part (no TAB) goes where the `header`/`footer` style's `align` puts it (left by
// default). Empty parts are allowed
// (`"\t\t{{page}}"` puts the page number on the right). More than three: the extra parts join the right one.

import RTSyntax

extension DocumentLowerer {
    mutating func lowerRunningText(_ value: YAMLValue, styleName: String, body: StyleState,
                                   parseInlines: (String, SourceLocation) -> ([Inline], [Diagnostic])) -> RunningText {
        let (inlines, parseDiagnostics) = parseInlines(value.scalar ?? "", value.location)
        diagnostics.append(contentsOf: parseDiagnostics)
        var state = body
        sheet.apply(styleName, to: &state)
        var builder = ParagraphBuilder()
        inRunningText = true
        lowerParagraphInlines(inlines, state: state, into: &builder)
        inRunningText = false

        var parts = splitIntoPieces(builder)
        if parts.count > 3 {
            diagnostics.append(.warning("'\(styleName)' has more than three TAB-separated parts; the rest join the right part",
                                        at: value.location))
            let extra = parts[3...].flatMap { [RunningText.Piece.text(" ", state.character)] + $0 }
            parts = Array(parts[0..<3])
            parts[2] += extra
        }
        var running = RunningText()
        switch parts.count {
        case 1:
            // No TAB: one part, placed by the style's `align` (left unless the header/footer style says otherwise).
            switch state.paragraph.alignment {
            case .center: running.center = parts[0]
            case .right: running.right = parts[0]
            default: running.left = parts[0]
            }
        case 2: running.left = parts[0]; running.center = parts[1]
        default: running.left = parts[0]; running.center = parts[1]; running.right = parts[2]
        }
        running.style = state.paragraphStyle()
        running.style.tabStops = []
        running.location = value.location
        return running
    }

    /// Cuts the builder's text at TABs into parts of pieces, keeping each run's attributes and putting the
    /// zero-width fields where they were recorded.
    private func splitIntoPieces(_ builder: ParagraphBuilder) -> [[RunningText.Piece]] {
        let bytes = Array(builder.text.utf8)
        var parts: [[RunningText.Piece]] = [[]]
        var fieldIndex = 0
        var pending: [UInt8] = []
        var pendingAttributes = CharacterAttributes()

        func flushText() {
            if !pending.isEmpty {
                parts[parts.count - 1].append(.text(String(decoding: pending, as: UTF8.self), pendingAttributes))
                pending.removeAll()
            }
        }
        func emitFields(at offset: Int) {
            while fieldIndex < builder.fields.count, builder.fields[fieldIndex].offset == offset {
                flushText()
                let field = builder.fields[fieldIndex]
                parts[parts.count - 1].append(.field(field.field, field.attributes))
                fieldIndex += 1
            }
        }
        for run in builder.runs {
            for offset in run.range {
                emitFields(at: offset)
                if pendingAttributes != run.attributes { flushText() }
                pendingAttributes = run.attributes
                if bytes[offset] == 0x09 {
                    flushText()
                    parts.append([])
                } else {
                    pending.append(bytes[offset])
                }
            }
        }
        emitFields(at: bytes.count)
        flushText()
        return parts
    }
}
