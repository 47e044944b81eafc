// Draws laid-out pages into a PDF with Cairo: each page is drawn and dropped as soon as pagination hands it
// over. Fonts are embedded (subset) by Cairo; links, destinations and bookmarks go through cairo tags.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR
import TypesetLayout

public struct PDFRenderError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "cannot write PDF '\(path)': \(reason)" }
}

/// What a renderer reports while it works, for a progress line: pages of the counting pass (only when
/// the document needs its page total), the total, then each page as it is drawn.
public enum RenderProgress: Sendable {
    case counted(Int)
    case total(Int)
    case drawn(Int)
}

public enum PDFRenderer {
    /// Lays out `document` and writes it to `path`. Returns layout warnings; throws if Cairo fails.
    /// `memo`: tagged page content kept from earlier builds (`--watch`); the output is the same without it.
    /// `document` is consumed: a caller that hands over its only copy has the IR freed page by page as pagination goes,
    /// before the tagging stage reads the file back (issue 14: peak memory).
    /// `clock`: CPU seconds per stage are added to it (`--verbose`).
    public static func render(_ document: consuming TypesetDocument, to path: String, memo: PageStreamMemo? = nil,
                              clock: RenderClock? = nil,
                              progress: (RenderProgress) -> Void = { _ in }) throws -> [Diagnostic] {
        try render(consume document, to: path, engine: .shared, memo: memo, clock: clock, progress: progress)
    }

    public static func render(_ document: consuming TypesetDocument, to path: String, engine: LayoutEngine,
                              memo: PageStreamMemo? = nil, clock given: RenderClock? = nil,
                              progress: (RenderProgress) -> Void = { _ in }) throws -> [Diagnostic] {
        let clock = given ?? RenderClock()
        var fontDiagnostics: [Diagnostic] = []
        engine.withLock {
            for failed in engine.loadFonts(document.fontFiles) {
                fontDiagnostics.append(.warning("cannot load font '\(failed)'", at: document.fontLocations[failed]))
            }
            fontDiagnostics += engine.checkFonts(&document)
        }
        let tags = TagRecorder(enabled: TagRecorder.enabledByEnvironment)
        tags.documentLanguage = document.language.lowercased()
        // Tagged, every content stream is rewritten and compressed once by the tagging stage, which drops cairo's:
        // cairo need not compress them first (it reads CAIRO_DEBUG_PDF when the surface is made).
        let surface = try PDFSurface(path: path, width: document.page.width, height: document.page.height,
                                     compressContent: !tags.enabled)
        setMetadata(document.metadata, on: surface.surface)
        let context = CairoContext(surface: surface.surface)
        let cr = context.cr
        var outline = PDFOutline()
        // Cairo 1.16 gives each link a structure element; without an enclosing structure tag it writes a
        // parent tree pointing at objects it never emits (qpdf: "file is damaged"). A Document tag fixes that,
        // as long as nothing on the page is an unclipped `cairo_paint` (see `draw(_ image:)`).
        cairo_tag_begin(cr, "Document", "")
        // With `--jobs` above 1 and TYPESET_PAGE_WRITER=1, each page is written while the next is laid out
        // (PageEmitter.swift; the page is kept alive until written: its images' surfaces must not be destroyed
        // during the write).
        // A `--watch` rebuild (a memo kept from the build before) lays out little: its layout workers are idle,
        // so the second core writes pages while this thread places and draws the next (same calls, same bytes).
        let rebuild = memo?.isRebuild ?? false
        let writer = engine.jobs > 1 && ((rebuild && !PageEmitter.disabledByEnvironment) || PageEmitter.enabledByEnvironment)
        if writer { memo?.notePageWriter() }
        let emitter = PageEmitter(background: writer)
        defer { withExtendedLifetime(context) { _ = try? emitter.wait() } }
        func written(_ number: Int?) { if let number { progress(.drawn(number)) } }
        let summary: PaginationSummary
        // All the tagging stage needs of the IR, taken now: pagination frees the blocks as pages go out.
        var input = TaggingInput(copy document, pages: [])
        let pageWidth = document.page.width, pageHeight = document.page.height
        // PDF/A forbids /Interpolate true on images (ISO 19005-2, 6.2.8), which cairo writes for its default filter.
        let interpolate = !document.pdfStandards.contains(where: \.isPDFA)
        var handed = TypesetDocument()
        swap(&handed, &document)  // the only copy goes to pagination
        let layoutStart = RenderClock.cpuNow()
        var drawing = 0.0, showing = 0.0
        do {
            summary = try DocumentLayout.paginate(consume handed, engine: engine, onCount: { counted, total in
                progress(total.map(RenderProgress.total) ?? .counted(counted))
            }) { page in
                let start = RenderClock.cpuNow()
                defer { drawing += RenderClock.cpuNow() - start }
                written(try emitter.wait())  // the context is the writer's until the page before is written
                if PDFLinks.wantsAnalysisCover(page) {
                    tags.artifact(on: cr) { PDFLinks.analysisCover(width: pageWidth, height: pageHeight, on: cr) }
                }
                if engine.jobs > 1 {
                    LayoutEngine.withCairoFonts { draw(page, on: cr, tags: tags, interpolate: interpolate) }
                } else {
                    draw(page, on: cr, tags: tags, interpolate: interpolate)
                }
                tags.endPage()
                outline.add(page.outline, to: surface.surface)
                let show = RenderClock.cpuNow()
                emitter.showPage(cr, number: page.number, keeping: page)
                showing += RenderClock.cpuNow() - show
            }
            written(try emitter.wait())
        } catch let failed as PageEmitterError {
            throw PDFRenderError(path: path, reason: describe(failed.status))
        }
        clock.add("layout", RenderClock.cpuNow() - layoutStart - drawing)
        clock.add("draw", drawing - showing)
        clock.add("show", showing)
        cairo_tag_end(cr, "Document")
        input.pages = tags.takePages()
        // Pagination interned the attributes of the runs it made (up to the table's 4,096 values): the pages
        // are out, so the table need not stay through the tagging stage, when memory peaks (issue 14).
        Lowering.releaseSharedValues()
        try clock.measure("finish") { try surface.finish(path: path) }
        // A layout error fails the build and the file is removed: tagging the partial file would only hide the
        // located error behind an unlocated one (cairo writes an empty page when no page was finished).
        if summary.diagnostics.contains(where: { $0.severity == .error }) { return fontDiagnostics + summary.diagnostics }
        if tags.enabled {
            do {
                input.actualTexts = tags.actualTexts
                input.languages = tags.languages
                input.links = tags.pageLinks
                input.jobs = engine.jobs
                try clock.measure("tagging") { try TaggedPDF.finish(path: path, &input, memo: memo) }
            } catch {
                throw PDFRenderError(path: path, reason: "tagging: \(error)")
            }
        } else if let seconds = input.metadata.creationDate {
            PDFDates.addPrefix(toPDFAt: path, seconds: seconds)
        }
        return fontDiagnostics + summary.diagnostics
    }

    /// Untagged drawing (PNG and SVG pages).
    static func draw(_ page: Page, on cr: OpaquePointer) { draw(page, on: cr, tags: TagRecorder(enabled: false)) }

    /// Everything drawn goes inside a structure tag (TagRecorder.swift): decoration as artifacts.
    static func draw(_ page: Page, on cr: OpaquePointer, tags: TagRecorder, interpolate: Bool = true) {
        if !page.rects.isEmpty {
            tags.artifact(on: cr) {
                for rect in page.rects {
                    setColor(rect.color, on: cr)
                    cairo_rectangle(cr, rect.x, rect.y, rect.width, rect.height)
                    cairo_fill(cr)
                }
            }
        }
        for image in page.images {
            tags.content(image.isArtifact ? nil : image.structure?.nodes, on: cr) { draw(image, on: cr, interpolate: interpolate) }
        }
        cairo_set_source_rgb(cr, 0, 0, 0)  // text without a colour attribute is black
        tags.lines(page.lines, on: cr) { draw($0, on: cr) }
        if !page.runningLines.isEmpty {
            tags.artifact(on: cr) { for line in page.runningLines { draw(line, on: cr) } }
        }
        if !page.markLines.isEmpty {
            tags.artifact(on: cr) {
                for line in page.markLines {  // outlines, not text: an artifact that copying the text leaves out
                    setColor(line.paragraph.paragraph.runs.first?.attributes.color ?? .black, on: cr)
                    cairo_move_to(cr, line.x, line.baseline)
                    pango_cairo_layout_line_path(cr, line.paragraph.pangoLine(line.lineIndex))
                    cairo_fill(cr)
                }
            }
        }
        PDFLinks.draw(page.destinations, on: cr)
        // Tagged, the tagging stage writes the link annotations (TaggedPDF.swift); cairo's cost a lot per link.
        if tags.enabled { tags.links(page.links, lines: page.lines) } else { PDFLinks.draw(page.links, on: cr) }
    }

    /// Runs `body` with the line's font expansion applied: the whole line (glyphs, underlines) drawn scaled
    /// around its left edge.
    @inline(__always) static func expanded(_ line: PlacedLine, on cr: OpaquePointer, _ body: () -> Void) {
        let scale = line.box.adjustment.scale
        if scale != 1 {
            cairo_save(cr)
            cairo_translate(cr, line.x, 0)
            cairo_scale(cr, scale, 1)
            cairo_translate(cr, -line.x, 0)
        }
        body()
        if scale != 1 { cairo_restore(cr) }
    }

    @inline(__always) static func draw(_ line: PlacedLine, on cr: OpaquePointer) {
        expanded(line, on: cr) { drawUnexpanded(line, on: cr) }
    }

    @inline(__always) private static func drawUnexpanded(_ line: PlacedLine, on cr: OpaquePointer) {
        fillBackgrounds(line, on: cr)
        let effects = RunEffects.runs(of: line)
        if let effects { RunEffects.drawUnder(effects, on: cr) }
        // show_layout_line puts the line's left edge at the current point; alignment and indent are in `x`.
        let show = {
            cairo_move_to(cr, line.x, line.baseline)
            pango_cairo_show_layout_line(cr, line.paragraph.pangoLine(line.lineIndex))
        }
        if let effects {
            RunEffects.hidingOutlineGlyphs(effects, show)
            RunEffects.drawOver(effects, on: cr)
        } else {
            show()
        }
    }

    /// Fills what `line` has behind its text (`background=`, inline code, marks; LineBackgrounds.swift) before
    /// its glyphs: one path per colour, in the colours Pango would set (alpha 0 is opaque, as Pango reads it).
    static func fillBackgrounds(_ line: PlacedLine, on cr: OpaquePointer) {
        let rects = line.paragraph.backgrounds(ofLine: line.lineIndex)
        guard !rects.isEmpty else { return }
        // The line's origin as Pango's renderer takes it: the current point, which cairo keeps in fixed point.
        var x = 0.0, y = 0.0
        cairo_move_to(cr, line.x, line.baseline)
        cairo_get_current_point(cr, &x, &y)
        cairo_new_path(cr)
        cairo_save(cr)
        var filled = [Bool](repeating: false, count: rects.count)
        for (k, first) in rects.enumerated() where !filled[k] {
            let c = first.color
            cairo_set_source_rgba(cr, Double(c.red) / 65535, Double(c.green) / 65535, Double(c.blue) / 65535,
                                  c.alpha == 0 ? 1 : Double(c.alpha) / 65535)
            for j in k..<rects.count where !filled[j] && rects[j].color == c {
                let r = rects[j]
                cairo_rectangle(cr, x + r.x, y + r.y, r.width, r.height)
                cairo_fill(cr)
                filled[j] = true
            }
        }
        cairo_restore(cr)
    }

    static func draw(_ image: PlacedImage, on cr: OpaquePointer, interpolate: Bool = true) {
        if let chart = image.image.chart {
            ChartPainter.draw(chart, x: image.x, y: image.y, width: image.width, height: image.height, on: cr)
            return
        }
        let pw = Double(image.image.pixelWidth), ph = Double(image.image.pixelHeight)
        guard pw > 0, ph > 0, image.width > 0, image.height > 0 else { return }
        var sx = image.width / pw, sy = image.height / ph
        var x = image.x, y = image.y
        if image.fit == .contain {
            let s = min(sx, sy)
            x += (image.width - pw * s) / 2
            y += (image.height - ph * s) / 2
            sx = s; sy = s
        }
        cairo_save(cr)
        // Each use is painted through its own group (a form XObject that refers to the one shared image):
        // cairo 1.16 lists an image painted twice on a page twice in the page's resources, which is invalid.
        cairo_push_group(cr)
        cairo_translate(cr, x, y)
        cairo_scale(cr, sx, sy)
        cairo_set_source_surface(cr, image.image.cairoSurface, 0, 0)
        if !interpolate { cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST) }
        cairo_paint(cr)
        cairo_pop_group_to_source(cr)
        // A fill, not a paint: cairo 1.16 drops every command recorded so far on a page when an unclipped
        // paint comes first, tags included, so the `Document` tag vanished and links pointed into nothing.
        cairo_rectangle(cr, x, y, pw * sx, ph * sy)
        cairo_fill(cr)
        cairo_restore(cr)
    }

    static func setColor(_ c: Color, on cr: OpaquePointer) {
        if c.alpha < 1 { cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha) }
        else { cairo_set_source_rgb(cr, c.red, c.green, c.blue) }
    }

    static func setMetadata(_ metadata: DocumentMetadata, on surface: OpaquePointer) {
        let pairs: [(cairo_pdf_metadata_t, String?)] = [
            (CAIRO_PDF_METADATA_TITLE, metadata.title),
            (CAIRO_PDF_METADATA_AUTHOR, metadata.author),
            (CAIRO_PDF_METADATA_SUBJECT, metadata.subject),
            (CAIRO_PDF_METADATA_KEYWORDS, metadata.keywords),
            (CAIRO_PDF_METADATA_CREATOR, "typeset"),
        ]
        for (key, value) in pairs {
            if let value { cairo_pdf_surface_set_metadata(surface, key, value) }
        }
        // Explicit dates (else Cairo writes the current time): two runs of the same input are byte-identical.
        if let seconds = metadata.creationDate {
            let date = PDFDates.cairoInput(seconds)
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATE_DATE, date)
            cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_MOD_DATE, date)
        }
    }

    static func describe(_ status: cairo_status_t) -> String { String(cString: cairo_status_to_string(status)) }
}

/// Owns the PDF surface; `finish` writes the file's end and reports Cairo's status.
final class PDFSurface {
    let surface: OpaquePointer

    init(path: String, width: Double, height: Double, compressContent: Bool = true) throws {
        let debug = "CAIRO_DEBUG_PDF"
        let given = getenv(debug).map { String(cString: $0) }
        if !compressContent { setenv(debug, "1", 1) } else if given != nil { unsetenv(debug) }
        surface = cairo_pdf_surface_create(path, width, height)
        if let given { setenv(debug, given, 1) } else { unsetenv(debug) }
        let status = cairo_surface_status(surface)
        if status != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(surface)
            throw PDFRenderError(path: path, reason: PDFRenderer.describe(status))
        }
    }

    func finish(path: String) throws {
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        if status != CAIRO_STATUS_SUCCESS { throw PDFRenderError(path: path, reason: PDFRenderer.describe(status)) }
    }

    deinit { cairo_surface_destroy(surface) }
}

/// Owns a cairo drawing context.
final class CairoContext {
    let cr: OpaquePointer

    init(surface: OpaquePointer) { cr = cairo_create(surface) }

    deinit { cairo_destroy(cr) }
}
