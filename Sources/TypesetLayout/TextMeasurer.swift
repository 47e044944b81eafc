// Pango measurement for lowering (TypesetIR.TextMeasurer): list markers get their real width in their font.

import CPangoCairo
import TypesetIR

public struct PangoTextMeasurer: TextMeasurer {
    private let given: LayoutEngine?
    /// The shared engine is made on first use, not with the measurer: making it waits for fontconfig's set-up,
    /// which then runs on while a document without list markers or heading numbers is lowered (issue 14).
    var engine: LayoutEngine { given ?? .shared }

    public init(engine: LayoutEngine? = nil) { given = engine }

    public func width(of text: String, attributes: CharacterAttributes) -> Double {
        engine.withLock {
            let layout = LayoutHandle(engine: engine)
            pango_layout_set_font_description(layout.layout, engine.fontDescription(FontKey(attributes)))
            text.withCString { pango_layout_set_text(layout.layout, $0, -1) }
            var logical = PangoRectangle()
            pango_layout_get_extents(layout.layout, nil, &logical)
            return fromPango(logical.width)
        }
    }

    public func useFonts(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        _ = engine.withLock { engine.loadFonts(paths) }
    }
}
