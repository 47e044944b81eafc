// Entry point of lowering: syntax tree + styles + options -> TypesetDocument.

import RTSyntax

public struct LoweringOptions: Sendable {
    /// `-D name=value` from the command line: highest priority over `--data` and front matter `vars`.
    public var variables: [String: String]
    /// `--allow-undefined`: an undefined `{{name}}` becomes empty instead of an error.
    public var allowUndefined: Bool
    /// `SOURCE_DATE_EPOCH` if set; used for the PDF dates when front matter has no `date`.
    public var sourceDateEpoch: Int64?
    /// The current time (seconds since 1970), used when neither `date` nor `SOURCE_DATE_EPOCH` is given.
    public var now: Int64
    /// Real text widths (list markers); without one, lowering estimates them from the font size.
    public var measurer: (any TextMeasurer)?
    /// Where images and fonts the document names may come from; nil: anywhere.
    public var root: ReadRoot? = nil
    /// `--pdf-standard`: added to the front matter's `pdf-standard`.
    public var pdfStandards: Set<PDFStandard> = []
    /// Hears the body's blocks as they are lowered (the pipeline shapes paragraphs meanwhile); nil: nobody.
    public var sink: (any LoweredBlockSink)? = nil

    public init(variables: [String: String] = [:], allowUndefined: Bool = false, sourceDateEpoch: Int64? = nil, now: Int64 = 0,
                measurer: (any TextMeasurer)? = nil) {
        self.measurer = measurer
        self.variables = variables
        self.allowUndefined = allowUndefined
        self.sourceDateEpoch = sourceDateEpoch
        self.now = now
    }
}

public struct LoweringResult: Sendable {
    public var document: TypesetDocument
    public var diagnostics: [Diagnostic]
    /// Image files the document uses (resolved paths), for `--deps`.
    public var referencedFiles: [String]

    public init(document: TypesetDocument, diagnostics: [Diagnostic], referencedFiles: [String] = []) {
        self.document = document
        self.diagnostics = diagnostics
        self.referencedFiles = referencedFiles
    }
}

/// Measures set text for lowering. The layout stage implements it with Pango, so geometry that depends on
/// real widths (a list's text edge after its widest marker) is fixed once here, where nested content, later
/// paragraphs of an item and tables inside it all take their indents from it; the IR stays free of Pango.
public protocol TextMeasurer: Sendable {
    /// Advance width in points of `text` set with `attributes`.
    func width(of text: String, attributes: CharacterAttributes) -> Double
    /// The document's own font files (front matter `fonts`), to load before measuring.
    func useFonts(_ paths: [String])
}

/// Hears a document's blocks while the rest is still being lowered, so layout can start on them early (issue 14:
/// both cores). A block heard may still change before lowering ends (ids left over go to the last paragraph, a
/// `@toc` inserts blocks): a listener must check what it made against the final document.
public protocol LoweredBlockSink: Sendable {
    /// The document's settings (no blocks yet), before the body is lowered. False: hear no blocks.
    func begin(_ document: TypesetDocument) -> Bool
    /// Block `index` of the document's blocks, lowered.
    func lowered(_ block: LayoutBlock, at index: Int)
}

/// Lowering: syntax tree + front matter + styles + options -> TypesetDocument, with diagnostics.
public enum Lowering {
    /// `parseInlines` parses one line of inline markup (the `header:`/`footer:` values); the pipeline passes
    /// `RTParser.parseInlines`. Errors in the result (a missing image, an undefined variable) mean: write nothing.
    /// `doc` is consumed: a caller that hands over its only copy has each top-level block's syntax tree freed as
    /// soon as the block is lowered, so a long document's tree and IR are never held whole together.
    public static func lower(_ doc: consuming RTDocument, options: LoweringOptions,
                             parseInlines: @escaping (String, SourceLocation) -> ([Inline], [Diagnostic])) -> LoweringResult {
        let frontMatter = FrontMatterReader(doc.frontMatter, options: options)
        let settings = frontMatter.settings
        options.measurer?.useFonts(settings.fontFiles)

        // body: built-in, then front matter `font` & co., then the user's `styles: body:` (later pairs win).
        var sheet = StyleSheet()
        sheet.extend("body", with: settings.bodyPairs)
        for style in settings.styles { sheet.extend(style.name, with: style.pairs) }

        var body = StyleState()
        body.columnWidth = settings.page.columnWidth
        body.paragraph.language = settings.language
        body.paragraph.decimalSeparator = decimalSeparator(forLanguage: settings.language)
        sheet.apply("body", to: &body)

        var lowerer = DocumentLowerer(options: options, sheet: sheet, variables: settings.variables)
        lowerer.diagnostics = frontMatter.diagnostics
        lowerer.smart = settings.smart
        lowerer.columnSets = [ColumnSet(settings.page)]
        lowerer.contentWidth = settings.page.contentWidth
        lowerer.contentHeight = settings.page.contentHeight
        lowerer.structure.documentLanguage = settings.language
        lowerer.structure.standards = PDFStandard.oneArchivalPart(settings.pdfStandards.union(options.pdfStandards),
                                                                   diagnostics: &lowerer.diagnostics)
        var document = TypesetDocument()
        document.metadata = settings.metadata
        document.page = settings.page
        document.language = settings.language
        document.fontFiles = settings.fontFiles
        document.fontLocations = settings.fontLocations
        // Families named in the front matter (the body's `font`, styles) are located there, before the body's.
        for pair in settings.bodyPairs + settings.styles.flatMap(\.pairs) where pair.key == "font" {
            let family = pair.value.trimmingASCIIWhitespace()
            if !family.isEmpty && lowerer.familyLocations[family] == nil { lowerer.familyLocations[family] = pair.valueRange.start }
        }
        document.template = settings.template
        document.pdfStandards = lowerer.structure.standards
        if let header = settings.header {
            document.header = lowerer.lowerRunningText(header, styleName: "header", body: body, parseInlines: parseInlines)
        }
        if let footer = settings.footer {
            document.footer = lowerer.lowerRunningText(footer, styleName: "footer", body: body, parseInlines: parseInlines)
        }
        lowerer.numbering = NumberingState(doc.blocks, numbering: settings.numbering,
                                           words: ReferenceLabels(language: settings.language, figure: settings.figureLabel,
                                                                  table: settings.tableLabel),
                                           parseInlines: parseInlines, smartLanguage: settings.smart ? settings.language : nil)
        lowerer.footnotes.collect(doc.blocks, diagnostics: &lowerer.diagnostics)
        let blocks = doc.blocks
        doc.blocks = []
        if let sink = options.sink, sink.begin(document) { lowerer.sink = sink }
        lowerer.lowerTopLevel(consume blocks, in: body)
        lowerer.setFootnotes(body: body)
        lowerer.finish()
        document.blocks = lowerer.output
        document.footnotes = lowerer.footnotes.bodies
        document.familyLocations = lowerer.familyLocations
        return LoweringResult(document: document, diagnostics: lowerer.diagnostics, referencedFiles: lowerer.referencedFiles)
    }
}

extension DocumentLowerer {
    /// The top-level blocks, each released once lowered (issue 14: peak memory), a table's rows one by one
    /// (issue 8). A table caption (`TableCaptions`) waits for its table, before or after it, then goes too.
    mutating func lowerTopLevel(_ blocks: consuming [Block], in context: StyleState) {
        let captions = TableCaptions(copy blocks)   // indices only: the copy goes when it returns
        // A top-level block may still adjust the blocks it made (list labels, edge spacing): heard once it is done.
        var heard = output.count
        for i in blocks.indices where !captions.isCaption(i) {
            let block = Self.take(&blocks[i])
            var caption: TableCaption? = nil
            if let c = captions.caption(ofTable: i) { caption = TableCaption(Self.take(&blocks[c])) }
            lowerSibling(consume block, caption: caption, in: context)
            guard let sink else { continue }
            while heard < output.count {
                sink.lowered(output[heard], at: heard)
                heard += 1
            }
        }
    }

    /// The block, leaving an empty paragraph in its place: the caller then holds its syntax tree alone.
    static func take(_ slot: inout Block) -> Block {
        var block = Block(.paragraph([]), range: slot.range)
        swap(&block, &slot)
        return block
    }
}
