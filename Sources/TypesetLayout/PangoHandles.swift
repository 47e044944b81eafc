// Owners of Pango/Cairo C handles. Each frees its handle in deinit, so no C object outlives its Swift owner.

import CPangoCairo
import Foundation
import TypesetIR

/// Pango units per point (PANGO_SCALE; with the context at 72 dpi one device unit is one point).
let pangoScale: Double = 1024

@inline(__always) func toPango(_ points: Double) -> Int32 { Int32((points * pangoScale).rounded()) }
@inline(__always) func fromPango(_ units: Int32) -> Double { Double(units) / pangoScale }

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
    /// Width of "-" per face, for the breaker's hyphen penalties.
    private var hyphenWidths: [FontKey: Double] = [:]

    /// How paragraphs that may be broken either way are broken (see `ParagraphLayout.usesTotalFit`).
    public enum LineBreaking: Sendable { case totalFit, greedy }
    /// Total-fit unless the environment says `TYPESET_LINE_BREAKING=greedy` (for comparisons and benchmarks).
    public var lineBreaking: LineBreaking =
        ProcessInfo.processInfo.environment["TYPESET_LINE_BREAKING"] == "greedy" ? .greedy : .totalFit

    public static let shared = LayoutEngine()

    public init() {
        fontMap = pango_cairo_font_map_new()!
        context = pango_font_map_create_context(fontMap)
        // 72 dpi: a 10pt font is 10 units of PDF user space, not 13.33.
        pango_cairo_context_set_resolution(context, 72)
        // Unhinted, unrounded metrics: positions in a PDF must not snap to a pixel grid.
        let options = cairo_font_options_create()
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        pango_cairo_context_set_font_options(context, options)
        cairo_font_options_destroy(options)
        pango_context_set_round_glyph_positions(context, 0)
    }

    deinit {
        for (_, description) in fontDescriptions { pango_font_description_free(description) }
        g_object_unref(UnsafeMutableRawPointer(context))
        g_object_unref(UnsafeMutableRawPointer(fontMap))
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
        let description = pango_font_description_new()!
        key.family.withCString { pango_font_description_set_family(description, $0) }
        pango_font_description_set_absolute_size(description, Double(toPango(key.size)))
        pango_font_description_set_weight(description, PangoWeight(rawValue: UInt32(key.weight)))
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

    init(engine: LayoutEngine) {
        layout = pango_layout_new(engine.context)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(layout)) }
}

/// Owns a PangoAttrList while it is being filled; the layout takes its own reference.
final class AttributeListHandle {
    let list: OpaquePointer

    init() { list = pango_attr_list_new() }

    deinit { pango_attr_list_unref(list) }

    /// Inserts `attribute` over the UTF-8 byte range; the list takes ownership.
    func insert(_ attribute: UnsafeMutablePointer<PangoAttribute>?, _ range: Range<Int>) {
        guard let attribute else { return }
        attribute.pointee.start_index = UInt32(range.lowerBound)
        attribute.pointee.end_index = UInt32(range.upperBound)
        pango_attr_list_insert(list, attribute)
    }
}

/// Owns a PangoTabArray until it is handed to a layout (which copies it).
final class TabArrayHandle {
    let tabs: OpaquePointer

    init(count: Int) { tabs = pango_tab_array_new(Int32(count), 0) }

    deinit { pango_tab_array_free(tabs) }
}

/// Owns a cairo image surface (a decoded PNG).
public final class ImageSurface {
    let surface: OpaquePointer
    /// Pixel size.
    public let pixelWidth: Int
    public let pixelHeight: Int

    init(surface: OpaquePointer) {
        self.surface = surface
        pixelWidth = Int(cairo_image_surface_get_width(surface))
        pixelHeight = Int(cairo_image_surface_get_height(surface))
    }

    deinit { cairo_surface_destroy(surface) }

    /// The raw cairo surface, for drawing.
    public var cairoSurface: OpaquePointer { surface }
}

/// Decoded images by path: a file used many times is loaded once per document.
public final class ImageCache {
    private var images: [String: ImageSurface?] = [:]

    public init() {}

    /// The image at `path`, or nil (and a message) if it cannot be read as PNG.
    public func image(at path: String) -> Result<ImageSurface, ImageError> {
        if let cached = images[path] {
            if let cached { return .success(cached) }
            return .failure(ImageError(path: path, reason: "cannot be read as PNG"))
        }
        let surface = path.withCString { cairo_image_surface_create_from_png($0) }!
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            images[path] = .some(nil)
            let reason = String(cString: cairo_status_to_string(status))
            return .failure(ImageError(path: path, reason: reason))
        }
        let image = ImageSurface(surface: surface)
        // One unique id per file: cairo's PDF backend then writes the image once however often it is drawn.
        let id = "typeset-image:" + path
        let bytes = Array(id.utf8)
        let copy = malloc(bytes.count)!
        bytes.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
        cairo_surface_set_mime_data(surface, CAIRO_MIME_TYPE_UNIQUE_ID, copy.assumingMemoryBound(to: UInt8.self),
                                    UInt(bytes.count), { free($0) }, copy)
        images[path] = .some(image)
        return .success(image)
    }
}

public struct ImageError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "image '\(path)': \(reason)" }
}
