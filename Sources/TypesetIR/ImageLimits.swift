// Refuses huge images from their header, before anything decodes them: a 20,000 x 20,000 PNG would
// need 1.6 GB as a Cairo surface. The limit is generous for print (12,000 px is 40 in at 300 dpi).

import Foundation

public enum ImageLimits {
    static let maxSide = 12_000
    static let maxPixels = 100_000_000
    /// An SVG is parsed whole (librsvg keeps its own element limits): 16 MB is far beyond any plot or drawing.
    static let maxSVGBytes = 16 << 20

    /// "W x H px; the limit is ..." when an image of that size (CSS px) is too large, else nil.
    public static func sizeProblem(width: Double, height: Double) -> String? {
        guard width > Double(maxSide) || height > Double(maxSide) || width * height > Double(maxPixels) else { return nil }
        return "\(String(format: "%.0f", width)) x \(String(format: "%.0f", height)) px; the limit is \(maxSide) px a side and \(maxPixels / 1_000_000) megapixels (scale it down)"
    }

    /// An error message for an SVG file over the size limit, else nil.
    static func svgProblem(_ path: String, asWritten written: String) -> String? {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        guard size > maxSVGBytes else { return nil }
        return "SVG image '\(written)' is \(String(format: "%.1f", Double(size) / 1_048_576)) MB; the limit is \(maxSVGBytes >> 20) MB"
    }

    /// An error message for an image too large to decode, nil when it is fine or not PNG/JPEG.
    /// Checked while lowering, so the message points at the image's place in the source.
    static func problem(_ path: String, asWritten written: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let head = [UInt8](handle.readData(ofLength: 64 * 1024))
        guard let (w, h) = pngSize(head) ?? jpegSize(head) else { return nil }
        guard w > maxSide || h > maxSide || w * h > maxPixels else { return nil }
        return "image '\(written)' is \(w) x \(h) pixels; the limit is \(maxSide) px a side and \(maxPixels / 1_000_000) megapixels (scale it down)"
    }

    static func pngSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 24, b[0] == 0x89, b[1] == 0x50, b[2] == 0x4E, b[3] == 0x47 else { return nil }
        func u32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        return (u32(16), u32(20))
    }

    static func jpegSize(_ b: [UInt8]) -> (Int, Int)? {
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { return nil }
        var i = 2
        while i + 9 < b.count {
            guard b[i] == 0xFF else { return nil }
            let marker = b[i + 1]
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            if (0xC0 ... 0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(b[i + 7]) << 8 | Int(b[i + 8]), Int(b[i + 5]) << 8 | Int(b[i + 6]))
            }
            i += 2 + length
        }
        return nil
    }
}

/// The files an SVG refers to (`href` values other than `#id` and `data:`), first `limit` of them: librsvg is
/// given no base file, so it loads none of them, and the author should hear so.
func svgExternalReferences(_ path: String, limit: Int = 3) -> [String] {
    guard let data = FileManager.default.contents(atPath: path) else { return [] }
    let bytes = [UInt8](data)
    let key = Array("href=".utf8)
    var found: [String] = []
    var i = 0
    while i + key.count + 1 < bytes.count && found.count < limit {
        guard bytes[i] == key[0], bytes[i ..< i + key.count].elementsEqual(key) else { i += 1; continue }
        let quote = bytes[i + key.count]
        i += key.count + 1
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { continue }
        var end = i
        while end < bytes.count && bytes[end] != quote { end += 1 }
        let value = String(decoding: bytes[i ..< end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        i = end
        if value.isEmpty || value.hasPrefix("#") || value.lowercased().hasPrefix("data:") { continue }
        found.append(value)
    }
    return found
}
