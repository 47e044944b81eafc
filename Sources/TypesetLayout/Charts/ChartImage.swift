// A chart ready to draw: its geometry, measured with the document's body font through Pango, and one Pango
// layout per text, which the PDF stage shows as real (extractable) text.

import CPangoCairo
import TypesetIR

public final class ChartImage {
    public let geometry: ChartGeometry
    public let spec: ChartSpec
    private let layouts: [LayoutHandle]
    /// Logical size of each text, points (parallel to `geometry.texts`).
    public let textSizes: [(width: Double, height: Double)]

    init(spec: ChartSpec, width: Double, height: Double, engine: LayoutEngine) {
        self.spec = spec
        let measure: ChartGeometry.Measure = { text, role in
            let layout = ChartImage.layout(text, role: role, spec: spec, engine: engine)
            return ChartImage.size(layout)
        }
        let geometry = engine.withLock { ChartGeometry(spec: spec, width: width, height: height, measure: measure) }
        let layouts = engine.withLock { geometry.texts.map { ChartImage.layout($0.string, role: $0.role, spec: spec, engine: engine) } }
        self.geometry = geometry
        self.layouts = layouts
        textSizes = layouts.map(ChartImage.size)
    }

    /// The Pango layout of text `index`.
    public func layout(_ index: Int) -> OpaquePointer { layouts[index].layout }

    static func layout(_ text: String, role: ChartGeometry.TextRole, spec: ChartSpec, engine: LayoutEngine) -> LayoutHandle {
        var attributes = spec.font
        attributes.fontSize = ChartGeometry.fontSize(role, body: spec.font.fontSize)
        if role == .title { attributes.weight = 700 }
        let handle = LayoutHandle(engine: engine)
        pango_layout_set_font_description(handle.layout, engine.fontDescription(FontKey(attributes)))
        text.withCString { pango_layout_set_text(handle.layout, $0, -1) }
        return handle
    }

    static func size(_ handle: LayoutHandle) -> (width: Double, height: Double) {
        var logical = PangoRectangle()
        pango_layout_get_extents(handle.layout, nil, &logical)
        return (fromPango(logical.width), fromPango(logical.height))
    }
}
