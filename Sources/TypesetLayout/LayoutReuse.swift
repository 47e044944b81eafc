// The counting pass's layouts, kept for the drawing pass (DocumentLayout.paginate).

/// Paragraph layouts made by the page-counting pass, handed to the drawing pass (each taken once).
final class LayoutReuse {
    /// UTF-8 bytes of paragraph text kept at most: about 5,000 words, some 1.5 MB of Pango layouts. Short
    /// documents are laid out once; a long one is laid out again in the drawing pass rather than held
    /// (issue 14: peak memory flat with length, `{{pages}}` and `@toc` included).
    static let textBudget = 32 * 1024
    /// A layout costs at least this much of the budget (its Pango objects), however short its text: a long
    /// table of contents must not fill memory with one-line layouts.
    static let leastCost = 256
    private var layouts: [Int: ParagraphLayout] = [:]
    private var bytes = 0
    var isRecording = true

    func offer(_ layout: ParagraphLayout, at index: Int) {
        let size = max(layout.paragraph.text.utf8.count, LayoutReuse.leastCost)
        guard isRecording, bytes + size <= LayoutReuse.textBudget else { return }
        bytes += size
        layouts[index] = layout
    }

    func take(_ index: Int) -> ParagraphLayout? { layouts.removeValue(forKey: index) }
}
