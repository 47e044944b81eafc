// Shaped and broken paragraphs kept between builds (`--watch`). A layout depends only on the paragraph's
// text, runs, style and inline images and on the column width and the engine's line breaking, so those make
// the key; the source location, anchors and numbers are not part of it (an edit above a paragraph moves its
// line but not its layout). Page, footnote and figure numbers live in the IR's text, so a changed number is
// a changed key. Kept only: layouts in one piece, without inline images (their files may change) and without
// warnings (a warning names a source location, which the key leaves out).

import Foundation
import TypesetIR

/// What a paragraph's layout depends on.
struct ParagraphKey: Hashable {
    var text: String
    var runs: [AttributeRun]
    var style: ParagraphStyle
    var width: Double
    var maxSpaceFactor: Double
    var lineBreaking: LayoutEngine.LineBreaking

    init(_ p: AttributedParagraph, width: Double, maxSpaceFactor: Double, lineBreaking: LayoutEngine.LineBreaking) {
        text = p.text
        runs = p.runs
        style = p.style
        self.width = width
        self.maxSpaceFactor = maxSpaceFactor
        self.lineBreaking = lineBreaking
    }
}

/// Paragraph layouts from the previous build and this one. `endBuild` drops what this build did not use.
///
/// `@unchecked Sendable`: every access to `entries` and the counters goes through `lock`; the layouts are
/// read only after they are stored.
public final class ParagraphCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [ParagraphKey: (layout: ParagraphLayout, build: Int)] = [:]
    private var build = 0
    /// Layouts taken from the cache / stored into it since the cache was made (for tests: count, don't time).
    public private(set) var hits = 0
    public private(set) var stores = 0

    /// Decoded image files, checked against their size and modification time at each use.
    let images = KeptImages()

    public init() {}

    /// Number of layouts kept.
    public var count: Int { lock.withLock { entries.count } }

    /// A layout for `paragraph` (with its own location and numbers) when an equal one is kept.
    func layout(for paragraph: AttributedParagraph, key: ParagraphKey) -> ParagraphLayout? {
        lock.withLock {
            guard let entry = entries[key] else { return nil }
            entries[key] = (entry.layout, build)
            hits += 1
            return ParagraphLayout(reusing: entry.layout, for: paragraph)
        }
    }

    func contains(_ key: ParagraphKey) -> Bool { lock.withLock { entries[key] != nil } }

    /// Keeps `layout` when it can be reused (see the top of the file).
    func store(_ layout: ParagraphLayout, key: ParagraphKey) {
        guard layout.isReusable else { return }
        lock.withLock {
            entries[key] = (layout, build)
            stores += 1
        }
    }

    /// Called when a build starts: what the build before it did not use is dropped.
    public func beginBuild() {
        lock.withLock {
            let last = build
            entries = entries.filter { $0.value.build == last }
            build += 1
        }
    }
}

extension ParagraphLayout {
    /// Whether a cache may keep this layout: one piece, no inline images, no warnings.
    var isReusable: Bool { pieceSet == nil && paragraph.attachments.isEmpty && warnings.isEmpty }
}

/// Decoded images kept between builds: a file is decoded again only when its size or modification time
/// changed. `@unchecked Sendable`: `entries` is only touched holding `lock`.
final class KeptImages: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: (stamp: [Double], image: Result<ImageSurface, ImageError>)] = [:]
    /// Files decoded through this store (a test counts them).
    private(set) var decoded = 0

    func image(at path: String) -> Result<ImageSurface, ImageError> {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let stamp = [(attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1,
                     Double((attributes?[.size] as? NSNumber)?.int64Value ?? -1)]
        if let entry = lock.withLock({ entries[path] }), entry.stamp == stamp { return entry.image }
        let image = ImageCache.load(path)
        lock.withLock {
            entries[path] = (stamp, image)
            decoded += 1
        }
        return image
    }
}
