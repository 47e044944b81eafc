// Owners of Pango/Cairo C handles. Each frees its handle in deinit, so no C object outlives its Swift owner.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR

/// Pango units per point (PANGO_SCALE; with the context at 72 dpi one device unit is one point).
let pangoScale: Double = 1024

@inline(__always) func toPango(_ points: Double) -> Int32 { pangoUnits(points) }
@inline(__always) func fromPango(_ units: Int32) -> Double { Double(units) / pangoScale }
@inline(__always) func fromPango(_ units: Int) -> Double { Double(units) / pangoScale }

/// The result of a GLib/Pango constructor, which returns NULL only when memory ran out (GLib aborts first in
/// practice): the process ends with a message that says what could not be made, not an anonymous trap.
func allocated<T>(_ pointer: T?, _ what: String) -> T {
    guard let pointer else { fatalError("typeset: out of memory making \(what)") }
    return pointer
}

/// The font map and Pango context: fontconfig setup is expensive, so one engine lives for the whole process.
///
/// `@unchecked Sendable`: Pango objects are not thread-safe. Every use goes through `withLock`, which
/// serialises whole layout/render jobs on one recursive lock; nothing else touches `fontMap`/`context`.
public final class LayoutEngine: @unchecked Sendable {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer
    private let lock = NSRecursiveLock()
    /// Font descriptions cached by face, so a paragraph's base font is not rebuilt per paragraph.
    private var fontDescriptions: [FontKey: OpaquePointer] = [:]
    /// Lower-cased installed family names (FontSetup), dropped when fonts are loaded.
    var familyNames: Set<String>? = nil
    /// Width of "-" per face, for the breaker's hyphen penalties.
    private var hyphenWidths: [FontKey: Double] = [:]

    /// How paragraphs that may be broken either way are broken (see `ParagraphLayout.usesTotalFit`).
    public enum LineBreaking: Sendable { case totalFit, greedy }
    /// Total-fit unless the environment says `TYPESET_LINE_BREAKING=greedy` (for comparisons and benchmarks).
    public var lineBreaking = LayoutEngine.defaultLineBreaking
    static let defaultLineBreaking: LineBreaking =
        getenv("TYPESET_LINE_BREAKING").map { String(cString: $0) } == "greedy" ? .greedy : .totalFit

    public static let shared = LayoutEngine()

    /// Starts fontconfig's set-up (its XML configuration: some 24M instructions, a third of a one-page build)
    /// without waiting for it. Pango runs it on a thread of its own when the process's first font map is made,
    /// but a font map waits for it as soon as it is configured, as `init` does; this one is only made, and kept
    /// (releasing it could wait too). Called when a build starts, it overlaps reading, parsing and lowering.
    public static func startFontconfig() { _ = fontconfigStarter }

    /// Wraps the font class's metrics before libqpdf starts loading: its lookup takes the dynamic loader's lock,
    /// which that load holds for milliseconds (the first engine would wait there).
    public static func prepareFontClass() { _ = FontMetricsGuard.installed }
    nonisolated(unsafe) private static let fontconfigStarter = pango_cairo_font_map_new()

    /// Threads that shape and break paragraphs (`--jobs`); 1: all on the paginating thread.
    public var jobs = 1
    /// Layouts kept between builds (`--watch`, see ParagraphCache.swift); nil: none kept.
    public var paragraphCache: ParagraphCache? = nil
    /// Fonts loaded so far (see WorkerEngines): a worker's font map made before a load looks again.
    var fontGeneration = 0
    /// A worker's plan for the paragraph about to be laid out (`--jobs`, see PlannedLines); used when it matches.
    var plannedLines: PlannedLines? = nil
    /// A worker engine only plans a total-fit paragraph's lines, into `recordedLines` (for the paginating thread).
    var plansOnly = false
    var recordedLines: PlannedLines? = nil
    /// Set on a worker's engine: its layouts are freed on the worker (see LayoutReleaser).
    var releaser: LayoutReleaser? = nil
    /// Workers started while the document was lowered (LayoutFeed.swift), for the next pagination to take.
    var earlyPrefetch: ParagraphPrefetch? = nil
    /// Missing-glyph warnings of long paragraphs' pieces after the first, which are laid out as the paginator
    /// reaches them (ParagraphPieces.swift); the paginator reports them when its pass ends.
    var pieceWarnings: [Diagnostic] = []

    public init() {
        _ = FontMetricsGuard.installed
        fontMap = allocated(pango_cairo_font_map_new(), "the font map")
        // The font map at 72 dpi too: Pango measures each font's metrics in a context of its own at the font
        // map's resolution, and at 96 dpi that asked fontconfig again for every face (twice the font loads).
        pango_cairo_font_map_set_resolution(OpaquePointer(fontMap), 72)
        context = LayoutEngine.makeContext(fontMap)
    }

    /// Contexts whose base direction is set, for layouts of a part of a paragraph (`BaseDirection`). A layout's
    /// direction comes from its context when it does not guess it; setting it on the shared context would make
    /// every layout made in it lay itself out again.
    private var directedContexts: [BaseDirection: OpaquePointer] = [:]

    func context(_ direction: BaseDirection) -> OpaquePointer {
        if direction == .auto { return context }
        if let made = directedContexts[direction] { return made }
        let made = LayoutEngine.makeContext(fontMap)
        pango_context_set_base_dir(made, direction == .rightToLeft ? PANGO_DIRECTION_RTL : PANGO_DIRECTION_LTR)
        directedContexts[direction] = made
        return made
    }

    private static func makeContext(_ fontMap: UnsafeMutablePointer<PangoFontMap>) -> OpaquePointer {
        let context = allocated(pango_font_map_create_context(fontMap), "a Pango context")
        // The language Pango itemizes with anyway, set: fonts loaded by description (FontSetup's face checks)
        // then share the fontsets paragraphs use instead of asking fontconfig again (issue 14, start-up).
        pango_context_set_language(context, pango_language_get_default())
        // 72 dpi: a 10pt font is 10 units of PDF user space, not 13.33.
        pango_cairo_context_set_resolution(context, 72)
        // Unhinted, unrounded metrics: positions in a PDF must not snap to a pixel grid.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
        return context
    }

    deinit {
        for (_, description) in fontDescriptions { pango_font_description_free(description) }
        for (_, made) in directedContexts { g_object_unref(UnsafeMutableRawPointer(made)) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }

    /// Runs `body` while no other thread measures glyphs through cairo (see `FontMetricsGuard.withCairoFonts`).
    public static func withCairoFonts<T>(_ body: () throws -> T) rethrows -> T {
        try FontMetricsGuard.withCairoFonts(body)
    }

    /// Runs `body` with exclusive use of the engine (see the Sendable note above).
    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// A cached description for the face; owned by the engine, do not free.
    func fontDescription(_ key: FontKey) -> OpaquePointer {
        if let cached = fontDescriptions[key] { return cached }
        let description = allocated(pango_font_description_new(), "a font description")
        key.family.withCString { pango_font_description_set_family(description, $0) }
        pango_font_description_set_absolute_size(description, Double(toPango(key.size)))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(clamping: key.weight)))
        pango_font_description_set_style(description, key.style.pangoStyle)
        fontDescriptions[key] = description
        return description
    }

    /// Advance of "-" in the face, points.
    func hyphenWidth(_ key: FontKey) -> Double {
        if let cached = hyphenWidths[key] { return cached }
        let layout = LayoutHandle(engine: self)
        pango_layout_set_font_description(layout.layout, fontDescription(key))
        pango_layout_set_text(layout.layout, "-", 1)
        var logical = PangoRectangle()
        pango_layout_get_extents(layout.layout, nil, &logical)
        let width = fromPango(logical.width)
        hyphenWidths[key] = width
        return width
    }
}

/// What selects a font face, the part of `CharacterAttributes` that goes into a PangoFontDescription.
struct FontKey: Hashable {
    var family: String
    var size: Double
    var weight: Int
    var style: FontStyle

    init(_ attributes: CharacterAttributes) {
        family = attributes.fontFamily
        size = attributes.fontSize
        weight = min(max(attributes.weight, 100), 1000)
        style = attributes.style
    }
}

extension FontStyle {
    var pangoStyle: PangoStyle {
        switch self {
        case .normal: return PANGO_STYLE_NORMAL
        case .italic: return PANGO_STYLE_ITALIC
        case .oblique: return PANGO_STYLE_OBLIQUE
        }
    }
}

/// Owns one PangoLayout.
final class LayoutHandle {
    let layout: OpaquePointer
    private let releaser: LayoutReleaser?

    init(engine: LayoutEngine, direction: BaseDirection = .auto) {
        if direction == .auto {
            layout = pango_layout_new(engine.context)
        } else {
            layout = pango_layout_new(engine.context(direction))
            pango_layout_set_auto_dir(layout, 0)
        }
        releaser = engine.releaser
        LiveLayouts.made()
    }

    deinit {
        if let releaser { releaser.release(layout) } else { g_object_unref(UnsafeMutableRawPointer(layout)) }
        LiveLayouts.freed()
    }
}

/// Pango layouts made on a worker thread, freed on that thread when the paginating thread is done with them:
/// glibc's malloc locks a thread's arena to free memory from it, so freeing a worker's layouts on the paginating
/// thread made both threads wait on that lock (drawing and showing 8 columns of one long paragraph: twice the
/// time). Once the worker has stopped, layouts are freed where they are dropped.
///
/// `@unchecked Sendable`: `pending` and `open` are only touched holding `lock`.
final class LayoutReleaser: @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [OpaquePointer] = []
    private var open = true

    func release(_ layout: OpaquePointer) {
        let queued = lock.withLock {
            if open { pending.append(layout) }
            return open
        }
        if !queued { g_object_unref(UnsafeMutableRawPointer(layout)) }
    }

    /// Frees the layouts given back so far (on the worker).
    func drain() {
        let layouts = lock.withLock {
            let all = pending
            pending = []
            return all
        }
        for layout in layouts { g_object_unref(UnsafeMutableRawPointer(layout)) }
    }

    /// The worker stops: frees what was given back; layouts dropped later are freed where they are dropped.
    func close() {
        lock.withLock { open = false }
        drain()
    }
}

/// Owns a PangoAttrList while it is being filled; the layout takes its own reference.
final class AttributeListHandle {
    let list: OpaquePointer

    init() { list = pango_attr_list_new() }

    deinit { pango_attr_list_unref(list) }

    /// Inserts `attribute` over the UTF-8 byte range; the list takes ownership.
    func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ range: Range<Int>) {
        guard let attribute else { return }
        attribute.pointee.start_index = UInt32(clamping: range.lowerBound)
        attribute.pointee.end_index = UInt32(clamping: range.upperBound)
        pango_attr_list_insert(list, attribute)
    }
}

/// Owns a PangoTabArray until it is handed to a layout (which copies it).
final class TabArrayHandle {
    let tabs: OpaquePointer

    init(count: Int) { tabs = pango_tab_array_new(Int32(clamping: count), 0) }

    deinit { pango_tab_array_free(tabs) }
}
