// Inline image files -> cairo surfaces. PNG through cairo; JPEG through libjpeg, with the original bytes
// attached as JPEG mime data so the PDF embeds the file as-is (DCTDecode) instead of re-encoding pixels;
// SVG through librsvg into a recording surface, which the PDF keeps as vectors (SVGImages.swift).
// Every surface gets a unique id per file, so cairo writes one image object however often it is drawn.

import CPangoCairo
import Foundation
import TypesetIR

/// Owns a cairo surface: a decoded image, or an SVG's drawing recorded as vector operations.
public final class ImageSurface {
    let surface: OpaquePointer?
    /// Set for a chart, which the PDF stage draws from its geometry (there is no surface).
    public let chart: ChartImage?
    /// Size in CSS px (1/96 in): pixels of a raster image, the intrinsic size of an SVG.
    public let pixelWidth: Double
    public let pixelHeight: Double

    init(surface: OpaquePointer) {
        self.surface = surface
        chart = nil
        pixelWidth = Double(cairo_image_surface_get_width(surface))
        pixelHeight = Double(cairo_image_surface_get_height(surface))
    }

    /// A recording surface whose extents are `width` x `height` CSS px.
    init(surface: OpaquePointer, width: Double, height: Double) {
        self.surface = surface
        chart = nil
        pixelWidth = width
        pixelHeight = height
    }

    /// A chart drawn at its geometry's size (points; CSS px are 0.75 pt).
    init(chart: ChartImage) {
        surface = nil
        self.chart = chart
        pixelWidth = chart.geometry.width / 0.75
        pixelHeight = chart.geometry.height / 0.75
    }

    deinit { if let surface { cairo_surface_destroy(surface) } }

    /// The raw cairo surface, for drawing (nil for a chart).
    public var cairoSurface: OpaquePointer? { surface }
}

/// Decoded images by path: a file used many times is loaded once per document.
public final class ImageCache {
    private var images: [String: Result<ImageSurface, ImageError>] = [:]
    private var charts: [ImageAttachment: ImageSurface] = [:]
    /// Images decoded by earlier builds (`--watch`); nil: decode every file.
    var kept: KeptImages? = nil

    public init() {}

    /// The picture of an attachment: its image file, or its chart drawn at the attachment's size.
    public func image(for attachment: ImageAttachment, engine: LayoutEngine) -> Result<ImageSurface, ImageError> {
        guard let spec = attachment.chart else { return image(at: attachment.path) }
        if let cached = charts[attachment] { return .success(cached) }
        let width = attachment.width ?? 300, height = attachment.height ?? width * 0.4
        let chart = ImageSurface(chart: ChartImage(spec: spec, width: width, height: height, engine: engine))
        charts[attachment] = chart
        return .success(chart)
    }

    /// The image at `path`, or why it cannot be used.
    public func image(at path: String) -> Result<ImageSurface, ImageError> {
        if let cached = images[path] { return cached }
        let result = kept?.image(at: path) ?? ImageCache.load(path)
        images[path] = result
        return result
    }

    static func load(_ path: String) -> Result<ImageSurface, ImageError> {
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(ImageError(path: path, reason: "cannot be read"))
        }
        let bytes = [UInt8](data)
        let surface: OpaquePointer
        var recorded: ImageSurface? = nil
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            surface = path.withCString { cairo_image_surface_create_from_png($0) }!
            let status = cairo_surface_status(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                cairo_surface_destroy(surface)
                return .failure(ImageError(path: path, reason: "is not a readable PNG (\(String(cString: cairo_status_to_string(status))))"))
            }
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            var message = [CChar](repeating: 0, count: 256)
            guard let decoded = bytes.withUnsafeBufferPointer({
                typeset_jpeg_decode($0.baseAddress, UInt($0.count), &message, message.count)
            }) else {
                let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return .failure(ImageError(path: path, reason: "is not a readable JPEG (\(reason))"))
            }
            surface = decoded
            attach(bytes, as: CAIRO_MIME_TYPE_JPEG, to: surface)
        } else if looksLikeSVG(bytes) {
            switch SVGImages.load(bytes, path: path) {
            case .failure(let error): return .failure(error)
            case .success(let image):
                guard let recording = image.surface else { return .success(image) }
                surface = recording; recorded = image
            }
        } else {
            return .failure(ImageError(path: path, reason: "is not a PNG or JPEG image"))
        }
        // One unique id per file: cairo's PDF backend then writes the image once however often it is drawn.
        attach(Array(("typeset-image:" + path).utf8), as: CAIRO_MIME_TYPE_UNIQUE_ID, to: surface)
        return .success(recorded ?? ImageSurface(surface: surface))
    }

    /// Hands a malloc'd copy of `bytes` to cairo, which frees it with the surface.
    private static func attach(_ bytes: [UInt8], as mimeType: String, to surface: OpaquePointer) {
        // Without memory for the copy cairo just goes without the hint (it encodes the pixels itself).
        guard let copy = malloc(max(bytes.count, 1)) else { return }
        bytes.withUnsafeBytes { if let from = $0.baseAddress { copy.copyMemory(from: from, byteCount: bytes.count) } }
        cairo_surface_set_mime_data(surface, mimeType, copy.assumingMemoryBound(to: UInt8.self),
                                    UInt(bytes.count), { free($0) }, copy)
    }

    private static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        let head = String(decoding: bytes.prefix(1024), as: UTF8.self).lowercased()
        return head.contains("<svg") || head.hasPrefix("<?xml")
    }
}

public struct ImageError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "image '\(path)' \(reason)" }
}
