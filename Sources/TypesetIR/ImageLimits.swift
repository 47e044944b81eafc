// Refuses huge images from their header, before anything decodes them: a 20,000 x 20,000 PNG would
// need 1.6 GB as a Cairo surface. The limit is generous for print (12,000 px is 40 in at 300 dpi).

import Foundation

enum ImageLimits {
    static let maxSide = 12_000
    static let maxPixels = 100_000_000

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
