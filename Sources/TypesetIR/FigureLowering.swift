// Numbered figures, table captions, heading numbers and `[](#id)` cross-references (contract sections 4, 5).

import RTSyntax

/// Counters and labels while lowering; the index (built first) knows every label, forward ones too.
struct NumberingState {
    var index: ReferenceIndex
    var headings: HeadingCounter
    var figures = 0
    var tables = 0
    var words: ReferenceLabels
    /// Parses a caption's inline markup (the pipeline's `RTParser.parseInlines`).
    var parseInlines: ((String, SourceLocation) -> ([Inline], [Diagnostic]))?
    /// `[](#id)` written, with where, checked once every id is known.
    var crossReferences: [(id: String, location: SourceLocation)] = []

    init(_ blocks: [Block] = [], numbering: HeadingNumbering? = nil, words: ReferenceLabels = ReferenceLabels(language: "en"),
         parseInlines: ((String, SourceLocation) -> ([Inline], [Diagnostic]))? = nil, smartLanguage: String? = nil) {
        index = ReferenceIndex.build(blocks, numbering: numbering, words: words, smartLanguage: smartLanguage)
        headings = HeadingCounter(numbering)
        self.words = words
        self.parseInlines = parseInlines
    }
}

extension DocumentLowerer {
    // MARK: Figures

    /// An image block with `caption=` or a `#fig-` id: the image centred, kept with `Figure N: caption` below it.
    /// Anything else lowered as content + `emitCaption(.figure, ...)` (charts) is numbered and kept the same way.
    mutating func lowerFigure(_ image: ImageReference, block: Block, context: StyleState) {
        var state = context
        state.paragraph.alignment = .center
        state.indent = 0
        state = applying(block.attributes, to: state)
        var builder = ParagraphBuilder()
        appendImage(image, state.character, state: state, into: &builder)
        guard !builder.attachments.isEmpty else { return }  // the image failed: reported at it
        var style = state.paragraphStyle()
        // A figure fits its column: a wide plot is scaled down rather than run into the next column.
        builder.attachments[builder.attachments.count - 1].image.maxWidth =
            max(state.columnWidth - style.headIndent - style.tailIndent, 1)
        style.keepWithNext = true
        style.spaceAfter = 0.4 * state.character.fontSize
        emitParagraph(builder, style: style, base: state.character, location: block.range.start)
        let caption = image.attributes["caption"]
        emitCaption(.figure, text: caption?.value, at: caption?.valueRange.start ?? block.range.start,
                    contentBlocks: 1, context: context)
    }

    /// `Figure N: text` (or `Table N: text`) in style `caption`; a figure's follows its content, a table's
    /// precedes the table. `inlines` wins over `text` (a table caption is already parsed).
    mutating func emitCaption(_ kind: CaptionInfo.Kind, text: String? = nil, inlines: [Inline]? = nil,
                              at location: SourceLocation, contentBlocks: Int, anchors: [String] = [],
                              context: StyleState) {
        let number: Int
        switch kind {
        case .figure: numbering.figures += 1; number = numbering.figures
        case .table: numbering.tables += 1; number = numbering.tables
        }
        let label = "\(kind == .figure ? numbering.words.figure : numbering.words.table) \(number)"
        var state = context
        state.indent = 0
        sheet.apply("caption", to: &state)
        var content = inlines ?? []
        if inlines == nil, let text, !text.isEmpty {
            if let parse = numbering.parseInlines {
                let (parsed, problems) = parse(text, location)
                content = parsed
                diagnostics += problems
            } else {
                content = [Inline(.text(text), range: SourceRange(at: location))]
            }
        }
        var builder = ParagraphBuilder()
        builder.anchors = anchors
        anchors.forEach { definedAnchors.insert($0) }
        builder.append(content.isEmpty ? label : label + ": ", state.character)
        // A `caption="..."` value is an attribute value: set as written, without smart punctuation (RT section
        // 5); a `Table: ...` caption paragraph is text like any other.
        let wasSmart = smart
        if inlines == nil { smart = false }
        lowerParagraphInlines(content, state: state, into: &builder)
        smart = wasSmart
        var style = state.paragraphStyle()
        style.keepTogether = true
        if kind == .figure {
            style.spaceBefore = 0
            style.spaceAfter = max(style.spaceAfter, state.character.fontSize)
        } else {
            style.keepWithNext = true
            style.spaceAfter = 0.3 * state.character.fontSize
        }
        var paragraph = builder.finish(style: style, emptyAttributes: state.character, location: location)
        paragraph.caption = CaptionInfo(kind: kind, number: number, label: label, contentBlocks: contentBlocks)
        if kind == .figure, !pendingAnchors.isEmpty {
            paragraph.anchors.insert(contentsOf: pendingAnchors, at: 0)
            pendingAnchors.removeAll()
        }
        // Read where it is set: after its figure, before its table (it had no element of its own, so the tagging
        // stage gathered every caption into one paragraph at the end of the document).
        tag(&paragraph, as: "Caption")
        output.append(.paragraph(paragraph))
    }

    // MARK: Tables

    /// Lowers sibling blocks; a pipe table with a `Table: ...` paragraph next to it (or a `#tbl-` id) gets
    /// `Table N: caption` above it, and the caption paragraph is not set where it was written.
    mutating func lowerSiblings(_ blocks: [Block], in context: StyleState) {
        guard blocks.contains(where: { if case .table = $0.kind { true } else { false } }) else {
            for block in blocks { lowerBlock(block, in: context) }
            return
        }
        let captions = TableCaptions(blocks)
        for (i, block) in blocks.enumerated() where !captions.isCaption(i) {
            lowerSibling(block, caption: captions.caption(ofTable: i).flatMap { TableCaption(blocks[$0]) }, in: context)
        }
    }

    /// One sibling that is not a caption: a captioned or `#tbl-` table gets `Table N: caption` above it.
    /// A table this call holds the only copy of has its rows' syntax released as they are lowered.
    mutating func lowerSibling(_ block: consuming Block, caption: TableCaption?, in context: StyleState) {
        guard case .table(var table) = block.kind else { return lowerBlock(block, in: context) }
        block.kind = .paragraph([])   // `table` is now the rows' only holder when `block` was
        if caption != nil || FigureRules.isNumberedTable(block.attributes) {
            let anchors = [caption?.id, block.attributes.id].compactMap { $0 }
            block.attributes.id = nil
            emitCaption(.table, inlines: caption?.content ?? [], at: caption?.location ?? block.range.start,
                        contentBlocks: 0, anchors: anchors, context: context)
        }
        lowerTable(&table, block: block, context: context)
    }

    // MARK: Headings

    /// `2.1 ` before a heading's text when `numbering` covers its level.
    mutating func headingNumber(level: Int) -> String? { numbering.headings.next(level: level) }

    // MARK: Cross-references

    /// `[](#id)`: the target's label as an internal link; with `page`, its page number (filled in by layout).
    mutating func appendCrossReference(_ id: String, page: Bool, _ attributes: CharacterAttributes, state: StyleState,
                                       at location: SourceLocation, into builder: inout ParagraphBuilder) {
        var inner = state
        inner.character = attributes
        sheet.apply("link", to: &inner, scope: .character)
        inner.character.link = .destination(id)
        numbering.crossReferences.append((id, location))
        if page && inRunningText {
            diagnostics.append(.warning("a page reference in a header or footer is not supported (use {{page}}): "
                + "the target's label is set", at: location))
        } else if page {
            let start = builder.length
            builder.append(Self.pagePlaceholder, inner.character)
            builder.pageReferences.append(PageReference(range: start..<builder.length, target: id))
            return
        }
        if let label = numbering.index.label(id) {
            builder.appendCollapsingSpaces(label, inner.character)
        } else if numbering.index.unlabelled.contains(id) {
            diagnostics.append(.warning("'#\(id)' has no number, heading or text to show: its id is set; "
                + "write the text yourself ([text](#\(id)))", at: location))
            builder.append(id, inner.character)
        } else {
            builder.append(id, inner.character)   // unknown or defined later in a way the index cannot see
        }
    }

    /// What a page reference holds until layout knows the page (two figures: most documents' page numbers).
    static let pagePlaceholder = "00"

    /// `[](#x){ref=page}` arrives as a span around the link; nil when the span is something else.
    static func crossReferenceSpan(_ content: [Inline], _ attributes: Attributes) -> String? {
        guard content.count == 1, case .link(let destination, let inner) = content[0].kind, inner.isEmpty,
              destination.hasPrefix("#"), destination.count > 1 else { return nil }
        return String(destination.dropFirst())
    }

    /// A cross-reference to an id that nothing in the document defines is an error at the reference.
    mutating func checkCrossReferences() {
        for reference in numbering.crossReferences where !definedAnchors.contains(reference.id) {
            diagnostics.append(.error("cross-reference to '#\(reference.id)', which no heading, figure, table or "
                + "#id in this document defines", at: reference.location))
        }
    }
}
