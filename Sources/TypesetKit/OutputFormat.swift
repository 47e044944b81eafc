// Output format by the target's extension. SVG and PNG give one file per page: `out.png` -> `out-1.png`,
// `out-2.png`, ... (a single-page document still gets `out-1.png`, so scripts need no special case).

import Foundation

enum OutputFormat: Equatable {
    case pdf, svg, png

    init(path: String) {
        switch (path as NSString).pathExtension.lowercased() {
        case "svg": self = .svg
        case "png": self = .png
        default: self = .pdf
        }
    }

    /// `.pdf`, `.png`, `.svg` (any case), or no extension at all (`-o /dev/null`, `-o build/out`: PDF).
    static func isKnown(path: String) -> Bool {
        ["", "pdf", "png", "svg"].contains((path as NSString).pathExtension.lowercased())
    }

    func pagePath(_ target: String, page: Int) -> String {
        guard self != .pdf else { return target }
        let ext = (target as NSString).pathExtension
        return (target as NSString).deletingPathExtension + "-\(page)." + ext
    }

    /// Files at `target` that an earlier run of this format may have written.
    func pageFiles(existingFor target: String) -> [String] {
        guard self != .pdf else { return [target] }
        var out: [String] = []
        var page = 1
        while FileManager.default.fileExists(atPath: pagePath(target, page: page)) {
            out.append(pagePath(target, page: page))
            page += 1
        }
        return out
    }
}
