// Blocks (RT section 4) -> LayoutBlocks. Each block starts from its container's StyleState, applies its
// style and attributes, and emits paragraphs; containers (quotes, divs, list items) pass a new state down.

import RTSyntax

struct DocumentLowerer {
    let options: LoweringOptions
    var sheet: StyleSheet
    /// Front matter `vars`; `options.variables` (command line, `--data`) take priority.
    let frontMatterVariables: [String: String]
    var diagnostics: [Diagnostic] = []
    var output: [LayoutBlock] = []
    /// Hears the top-level blocks as they are done (`LoweringOptions.sink`); nil when nobody listens.
    var sink: (any LoweredBlockSink)? = nil
    var referencedFiles: [String] = []
    var referencedSet: Set<String> = []
    /// Every `#id` and heading id, and every internal link with where it was written, checked at the end.
    var definedAnchors: Set<String> = []
    /// Where each font family was first named (`font=` on a block or span), for layout's "not installed".
    var familyLocations: [String: SourceLocation] = [:]
    /// GitHub's anchors of the headings so far (a repeat gets `-1`, `-2`, as on github.com).
    var githubSlugs = GitHubSlugs()
    var internalLinks: [(id: String, location: SourceLocation)] = []
    /// Ids of blocks that emitted no paragraph yet; the next paragraph carries them.
    var pendingAnchors: [String] = []
    var listDepth = 0
    /// Whether deep nesting has been reported (NestingLimit.swift: once per document).
    var warnedDeepNesting = false
    /// While lowering a header/footer line, `{{page}}` & co. become fields instead of variables.
    var inRunningText = false
    /// `@toc`s waiting for the headings after them.
    var tocRequests: [TocRequest] = []
    /// Enclosing column sets, the front matter's first (`columns=N` divs push theirs).
    var columnSets: [ColumnSet] = []
    /// The page's content width: what a div's `%` column gap refers to.
    var contentWidth: Double = 481.89
    /// The page's content height: what an `@exclude` shape's `%` y values refer to.
    var contentHeight: Double = 728.5
    /// Containers that drew a bar so far (`Border.group`).
    var borderGroups = 0
    /// Footnote definitions, numbers and notes waiting to be set (FootnoteLowering.swift).
    var footnotes = FootnoteState()
    /// Heading, figure and table numbers and cross-reference labels (FigureLowering.swift).
    var numbering = NumberingState()
    /// Front matter `smart` (RT section 5).
    var smart = true
    /// The last link's states and verdict (InlineLowering.swift): thousands of links in a paragraph share
    /// them, and applying the `link` style and checking the target cost more than comparing.
    var linkStyleMemo: LinkStyleMemo? = nil
    /// Link targets checked against the link policy (tests count them: a repeated destination is checked once).
    var linkChecks = 0
    /// How often the `code` style was applied to inline code (once per run of inlines; tests count it).
    var codeStyleApplications = 0
    /// Open structure elements for the tagged PDF (StructureLowering.swift).
    var structure = StructureState()

    init(options: LoweringOptions, sheet: StyleSheet, variables: [String: String]) {
        self.options = options
        self.sheet = sheet
        self.frontMatterVariables = variables
    }

    mutating func lowerBlocks(_ blocks: [Block], in context: StyleState) {
        lowerSiblings(blocks, in: context)   // table captions pair up with their tables (FigureLowering.swift)
    }

    mutating func lowerBlock(_ block: Block, in context: StyleState) {
        switch block.kind {
        case .paragraph(let inlines):
            let state = applying(block.attributes, to: context)
            var builder = ParagraphBuilder()
            lowerParagraphInlines(inlines, state: state, into: &builder)
            emitParagraph(builder, style: state.paragraphStyle(), base: state.character, location: block.range.start)

        case .heading(let level, let content, let id):
            var state = context
            sheet.apply("h\(min(max(level, 1), 6))", to: &state)
            var attributes = block.attributes
            attributes.id = nil
            state = applying(attributes, to: state)
            var builder = ParagraphBuilder()
            let number = headingNumber(level: level)
            if let number { builder.append(number + " ", state.character) }
            lowerParagraphInlines(content, state: state, into: &builder)
            builder.anchors.append(id)
            if let extra = block.attributes.id, extra != id { builder.anchors.append(extra) }
            // READMEs link to headings by GitHub's anchors (`#vimneovim-plugin` for "Vim/Neovim plugin"):
            // the heading answers to that name too when no other target has it.
            let github = githubSlugs.next(plainText(content))
            if !github.isEmpty, !builder.anchors.contains(github), !definedAnchors.contains(github) {
                builder.anchors.append(github)
            }
            builder.anchors.forEach { definedAnchors.insert($0) }
            var outline = OutlineEntry(level: level, title: outlineTitle(builder.textWithoutFootnoteMarks), id: id)
            outline.number = number
            checkHeadingLevel(level, at: block.range.start)
            emitParagraph(builder, style: state.paragraphStyle(), base: state.character, location: block.range.start,
                          outline: outline, structure: "H\(min(max(level, 1), 6))")

        case .list(let list):
            lowerList(list, block: block, context: context)

        case .blockQuote(let children):
            var state = context
            sheet.apply("quote", to: &state)
            state = applying(block.attributes, to: state)
            withStructure("BlockQuote") { $0.lowerContainer(children, state: state, context: context, at: block.range.start) }

        case .codeBlock(_, let text):
            lowerCodeBlock(text, block: block, context: context)

        case .rule:
            lowerRule(block, context: context)

        case .table(var table):
            lowerTable(&table, block: block, context: context)

        case .imageBlock(let image):
            if !image.isRemote, lowerFloatImage(image, state: applying(block.attributes, to: context)) { break }
            if FigureRules.isFigure(image, blockAttributes: block.attributes) {
                lowerFigure(image, block: block, context: context)
                break
            }
            // Image blocks are centred by default, like LaTeX/Typst figures.
            var state = context
            state.paragraph.alignment = .center
            state.indent = 0
            state = applying(block.attributes, to: state)
            var builder = ParagraphBuilder()
            appendImage(image, state.character, state: state, into: &builder)
            if !builder.attachments.isEmpty || !builder.text.isEmpty {
                emitParagraph(builder, style: state.paragraphStyle(), base: state.character, location: block.range.start)
            }

        case .div(let children):
            lowerDiv(children, block: block, context: context)

        case .directive(let directive):
            lowerDirective(directive, at: block.range.start, context: context)

        case .footnoteDefinition:
            break   // set with the notes (FootnoteLowering.swift)
        }
    }

    /// Applies a block's attribute block (reporting problems) and queues its `#id`.
    mutating func applying(_ attributes: Attributes, to context: StyleState) -> StyleState {
        var state = context
        sheet.apply(attributes, to: &state, scope: .paragraph, diagnostics: &diagnostics)
        if let pair = attributes["indent"], state.limitedIndent != state.indent {
            let problem = state.indent < 0 ? "would start the first line left of the column"
                : "would leave the first line less than half of the paragraph's width"
            let shown = (state.limitedIndent * 10).rounded() / 10
            let text = Int(exactly: shown).map(String.init) ?? "\(shown)"
            diagnostics.append(.warning("this indent \(problem): it is set to \(text)pt",
                                        at: pair.keyRange.start))
        }
        noteFontFamily(attributes)
        if let id = attributes.id { queueAnchor(id) }
        return state
    }

    /// GitHub's heading anchor: lower case, punctuation other than `-` and `_` removed, spaces as `-`.
    static func githubSlug(_ text: String) -> String { asciiSlug(text) ?? unicodeSlug(text) }

    /// `githubSlug` of any text: lowercased letters, numbers, `-` and `_`, spaces made `-`.
    static func unicodeSlug(_ text: String) -> String {
        var out = ""
        for c in text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased() {
            if c == " " { out.append("-") } else if c == "-" || c == "_" || c.isLetter || c.isNumber { out.append(c) }
        }
        return out
    }

    /// `githubSlug` of ASCII text, byte by byte (the general path's trimming, lowercasing and Unicode properties
    /// cost 12 us a heading, 2 ms of the 35,000-word report's lowering); nil when the text is not ASCII.
    static func asciiSlug(_ text: String) -> String? {
        var bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || (0x09 ... 0x0D).contains(b) }
        let start = bytes.firstIndex { !isSpace($0) } ?? bytes.count
        let end = (bytes.lastIndex { !isSpace($0) } ?? -1) + 1
        var n = 0
        for i in start ..< max(start, end) {
            var b = bytes[i]
            if (0x41 ... 0x5A).contains(b) { b += 0x20 }
            if b == 0x20 { b = 0x2D }
            guard b == 0x2D || b == 0x5F || (0x61 ... 0x7A).contains(b) || (0x30 ... 0x39).contains(b) else { continue }
            bytes[n] = b
            n += 1
        }
        return String(decoding: bytes[..<n], as: UTF8.self)
    }

    mutating func queueAnchor(_ id: String) {
        definedAnchors.insert(id)
        pendingAnchors.append(id)
    }

    mutating func emitParagraph(_ builder: ParagraphBuilder, style: ParagraphStyle, base: CharacterAttributes,
                                location: SourceLocation, outline: OutlineEntry? = nil, structure type: String = "P") {
        var builder = builder
        if !pendingAnchors.isEmpty {
            builder.anchors.insert(contentsOf: pendingAnchors, at: 0)
            pendingAnchors.removeAll()
        }
        var paragraph = builder.finish(style: style, emptyAttributes: base, location: location)
        paragraph.outline = outline
        tag(&paragraph, as: type)
        output.append(.paragraph(paragraph.markingDecimalSeparators()))
    }

    // MARK: Code, rules, divs, directives

    private mutating func lowerCodeBlock(_ text: String, block: Block, context: StyleState) {
        var state = context
        sheet.apply("code", to: &state)
        state = applying(block.attributes, to: state)
        // The code style's background fills the whole block, not just behind the glyphs.
        var style = state.paragraphStyle()
        if let background = state.character.background {
            style.background = background
            state.character.background = nil
            // Inset the text inside its box; the box itself starts at the container's text edge.
            let inset = 0.5 * state.character.fontSize
            style.backgroundPadding = inset
            style.headIndent += inset
            style.firstLineHeadIndent += inset
            style.tailIndent += inset
        }
        var body = Substring(text)
        while body.hasSuffix("\n") || body.hasSuffix("\r") { body = body.dropLast() }
        var builder = ParagraphBuilder()
        builder.append(Self.expandingTabs(body), state.character)
        emitParagraph(builder, style: style, base: state.character, location: block.range.start, structure: "Code")
    }

    /// Tabs in code advance to the next multiple of four characters from the code's own left edge, as an
    /// editor shows them (a tab stop measured from the column edge would ignore the block's inset).
    static func expandingTabs(_ code: Substring) -> String {
        guard code.contains("\t") else { return String(code) }
        var out = ""
        out.reserveCapacity(code.utf8.count)
        var column = 0
        for scalar in code.unicodeScalars {
            switch scalar {
            case "\t":
                let spaces = 4 - column % 4
                out.append(String(repeating: " ", count: spaces))
                column += spaces
            case "\n":
                out.unicodeScalars.append(scalar)
                column = 0
            default:
                out.unicodeScalars.append(scalar)
                column += 1
            }
        }
        return out
    }

    /// A `font=` value: where the family is first named (RT section 6: a warning at the key's location).
    mutating func noteFontFamily(_ attributes: Attributes) {
        guard let pair = attributes["font"] else { return }
        let family = pair.value.trimmingASCIIWhitespace()
        if !family.isEmpty && familyLocations[family] == nil { familyLocations[family] = pair.keyRange.start }
    }

    private mutating func lowerRule(_ block: Block, context: StyleState) {
        // `color`, `space-before` and `space-after` mean the obvious; other keys are checked but have no effect.
        let state = applying(block.attributes, to: context)
        var rule = HorizontalRule()
        if let color = block.attributes["color"].flatMap({ Color.parse($0.value) }) { rule.color = color }
        if block.attributes["space-before"] != nil { rule.spaceBefore = state.paragraph.spaceBefore }
        if block.attributes["space-after"] != nil { rule.spaceAfter = state.paragraph.spaceAfter }
        output.append(.rule(rule))
    }

    private mutating func lowerDiv(_ children: [Block], block: Block, context: StyleState) {
        var attributes = block.attributes
        let box = divBox(attributes, state: context)
        if attributes["box"] != nil { attributes.pairs.removeAll { Self.boxKeys.contains($0.key) } }
        let side = floatSide(attributes)
        // A box with `x=` and `y=` is placed out of the flow as a rectangle (RT section 4, positioned shapes).
        let shape = divShape(attributes, state: context)
            ?? (box != nil && side == nil ? positionedBox(attributes, state: context) : nil)
        let boxed = box != nil && shape != nil && attributes["shape"] == nil
        if box != nil, !boxed, shape != nil, side == nil, let key = block.attributes["box"] {
            diagnostics.append(.warning("box=true on a shaped div is not drawn", at: key.keyRange.start))
        }
        var flowKeys: Set<String> = ["shape", "float", "width", "height", "margin", "x", "y"]
        if shape?.position != nil { flowKeys.insert("wrap") }  // how the page goes around it, not its lines
        let flowAttributes = attributes
        attributes.pairs.removeAll { flowKeys.contains($0.key) }
        let columns = divColumnSet(attributes, state: context)
        attributes.pairs.removeAll { Self.columnDivKeys.contains($0.key) }
        var state = applying(attributes, to: context)
        if let side {
            lowerFloatDiv(children, side: side, attributes: flowAttributes, state: state, context: context, box: box)
            return
        }
        if let shape { output.append(.shapeStart(shape)) }
        if let box, shape == nil || boxed {
            lowerBox(box, children: children, state: state, context: context) { me, inner in
                var inner = inner
                me.inColumns(columns, state: &inner) { me, inner in me.lowerContainer(children, state: inner, context: context, at: block.range.start) }
            }
        } else {
            inColumns(columns, state: &state) { me, inner in
                me.lowerContainer(children, state: inner, context: context, at: block.range.start)
            }
        }
        if shape != nil { output.append(.shapeEnd) }
    }

    /// Children of a quote or div inherit its attributes, except the spacing at its edges: `space-before` and
    /// `break-before` go to its first paragraph only, `space-after` to its last.
    mutating func lowerContainer(_ children: [Block], state: StyleState, context: StyleState,
                                         at location: SourceLocation) {
        var inner = state.enteringContainer()
        limitNesting(&inner, outer: context, at: location)
        // A bar this container draws (a quote's) stands at its text edge beside all it holds: a list inside the
        // quote set its bar beside each item's marker, nested items' further in, a broken line.
        if inner.paragraph.leftBorder != nil && inner.paragraph.leftBorder != context.paragraph.leftBorder {
            // A quote in a quote: the outer one's bar goes on beside it.
            if let outer = context.paragraph.leftBorder, outer.group != 0 { inner.paragraph.outerBorders.append(outer) }
            inner.paragraph.leftBorder?.edge = inner.containerLeft
            borderGroups += 1
            inner.paragraph.leftBorder?.group = borderGroups
        }
        inner.paragraph.spaceBefore = context.paragraph.spaceBefore
        inner.paragraph.spaceAfter = context.paragraph.spaceAfter
        inner.paragraph.breakBefore = context.paragraph.breakBefore
        let first = output.count
        lowerBlocks(children, in: inner)
        applyEdgeSpacing(of: state, context: context, to: first..<output.count)
    }

    mutating func applyEdgeSpacing(of state: StyleState, context: StyleState, to range: Range<Int>) {
        let outer = state.paragraph, inherited = context.paragraph
        if outer.spaceBefore != inherited.spaceBefore || outer.breakBefore != inherited.breakBefore,
           let first = range.first(where: { output[$0].isParagraph }), case .paragraph(var p) = output[first] {
            if outer.spaceBefore != inherited.spaceBefore { p.style.spaceBefore = outer.spaceBefore }
            if outer.breakBefore != inherited.breakBefore { p.style.breakBefore = outer.breakBefore }
            output[first] = .paragraph(p)
        }
        if outer.spaceAfter != inherited.spaceAfter,
           let last = range.last(where: { output[$0].isParagraph }), case .paragraph(var p) = output[last] {
            p.style.spaceAfter = outer.spaceAfter
            output[last] = .paragraph(p)
        }
    }

    private mutating func lowerDirective(_ directive: Directive, at location: SourceLocation, context: StyleState) {
        switch directive {
        case .pageBreak: output.append(.pageBreak)
        case .columnBreak: output.append(.columnBreak)
        case .toc(let options): lowerToc(options, context: context)
        case .exclude(let shape, let options): lowerExclusion(shape: shape, options: options, at: location, context: context)
        case .unknown: break  // the parser has warned at the directive, naming the ones that exist
        }
    }

    // MARK: Finishing

    /// Ids left over at the end go to the last paragraph; internal links to ids that exist nowhere are reported.
    mutating func finish() {
        insertTocs()
        if !pendingAnchors.isEmpty, let last = output.lastIndex(where: \.isParagraph),
           case .paragraph(var paragraph) = output[last] {
            paragraph.anchors.append(contentsOf: pendingAnchors)
            output[last] = .paragraph(paragraph)
            pendingAnchors.removeAll()
        }
        checkCrossReferences()
        aliasLinksThatDifferInCase()
        for link in internalLinks where !definedAnchors.contains(link.id) {
            diagnostics.append(.warning("link to '#\(link.id)', which no heading or #id in this document defines", at: link.location))
        }
    }
}

extension DocumentLowerer {
    /// A link whose id differs from a heading's anchor only in case finds that heading, as on GitHub (a Russian
    /// README links `#Описание` to "Описание", whose anchor is `описание`): the id becomes another name of the
    /// paragraph that holds the anchor.
    mutating func aliasLinksThatDifferInCase() {
        let missing = internalLinks.filter { !definedAnchors.contains($0.id) && definedAnchors.contains($0.id.lowercased()) }
        guard !missing.isEmpty else { return }
        var holder: [String: Int] = [:]
        for (k, block) in output.enumerated() {
            if case .paragraph(let p) = block { for anchor in p.anchors where holder[anchor] == nil { holder[anchor] = k } }
        }
        for link in missing where !definedAnchors.contains(link.id) {
            guard let k = holder[link.id.lowercased()], case .paragraph(var p) = output[k] else { continue }
            p.anchors.append(link.id)
            output[k] = .paragraph(p)
            definedAnchors.insert(link.id)
        }
    }
}

extension LayoutBlock {
    var isParagraph: Bool { if case .paragraph = self { true } else { false } }
}

/// Bookmark text: the heading's text with tabs, line separators and image placeholders made plain.
func outlineTitle(_ text: String) -> String {
    var out = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\u{FFFC}": continue
        case "\t", "\n", "\u{2028}": out.append(" ")
        default: out.append(scalar)
        }
    }
    return String(out).trimmingASCIIWhitespace()
}
