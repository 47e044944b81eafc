// Tabs in a paragraph's layout (RT sections 5 and 6): stops measured from the column's left edge, decimal stops,
// tabs winning over right or centred alignment, and which TAB is a list item's marker rather than a tab stop.

import CPangoCairo
import Foundation
import TypesetIR

extension ParagraphLayout {
    /// A list item's first line: marker, TAB, text, with the text edge as head indent and first tab stop
    /// (ListLowering). Only there is a TAB before the first space a marker's; `Label<TAB>12.5 words` in a
    /// paragraph of its own is a tabbed line, which justification never stretches (RT section 6).
    static func isListItem(_ style: ParagraphStyle) -> Bool {
        guard let stop = style.tabStops.first else { return false }
        return style.headIndent > style.firstLineHeadIndent && stop.position == style.headIndent && stop.alignment == .left
    }

    /// What a paragraph's TABs decide: whether it has one (Pango wraps it; no optical margins and centred or
    /// right-aligned lines set left in ragged text) and whether its only TAB is a list marker's (it may still be
    /// broken total-fit). The pieces of a long ragged paragraph take the whole paragraph's alignment and margins,
    /// so a line is set the same whichever piece holds it (pieces laid out from a guessed line start,
    /// PieceSpeculation, are cut elsewhere than the true ones). Total-fit breaking, which is never guessed at,
    /// is still decided by each piece's text: a piece without a TAB is not wrapped by Pango.
    struct TabFacts: Equatable {
        var hasTab: Bool
        var onlyMarkerTab: Bool

        static let none = TabFacts(hasTab: false, onlyMarkerTab: false)

        init(hasTab: Bool, onlyMarkerTab: Bool) {
            self.hasTab = hasTab
            self.onlyMarkerTab = onlyMarkerTab
        }

        init(_ bytes: UnsafeBufferPointer<UInt8>, style: ParagraphStyle) {
            hasTab = bytes.contains(9)
            onlyMarkerTab = hasTab && ParagraphLayout.isListItem(style) && ParagraphLayout.tabIsOnlyAMarker(bytes)
        }
    }

    /// True when the text's only TAB follows a marker with no space before it (`•\tText`, `10.\tText`).
    static func tabIsOnlyAMarker(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let tab = bytes.firstIndex(of: 9), !bytes[..<tab].contains(32) else { return false }
        return !bytes[(tab + 1)...].contains(9)
    }

    /// Tab stops relative to the layout's left edge; after the explicit stops, default stops every `tabInterval`.
    /// Decimal stops align on the IR's zero-width decimal mark when the text has one (the separator's left
    /// edge lands on the stop, see DecimalTabs.swift), else on the separator itself (Pango centres it).
    static func tabArray(_ style: ParagraphStyle, layoutLeft: Double, width: Double,
                         decimalMarked: Bool = false) -> TabArrayHandle {
        var stops: [(Double, TabAlignment)] = style.tabStops.sorted { $0.position < $1.position }
            .map { ($0.position - layoutLeft, $0.alignment) }.filter { $0.0 > 0 }
        let interval = style.tabInterval > 0 ? style.tabInterval : 36
        // Default stops: multiples of the interval from the column's left edge, after the last explicit stop.
        let lastExplicit = style.tabStops.map(\.position).max() ?? 0
        var position = (floor(lastExplicit / interval) + 1) * interval
        while position - layoutLeft <= width + interval {
            if position - layoutLeft > 0 { stops.append((position - layoutLeft, .left)) }
            position += interval
        }
        let tabs = TabArrayHandle(count: stops.count)
        let decimalPoint = decimalMarked ? AttributedParagraph.decimalMark.unicodeScalars.first!.value
            : style.decimalSeparator.unicodeScalars.first?.value ?? 46
        for (i, stop) in stops.enumerated() {
            let align: PangoTabAlign
            switch stop.1 {
            case .left: align = PANGO_TAB_LEFT
            case .right: align = PANGO_TAB_RIGHT
            case .center: align = PANGO_TAB_CENTER
            case .decimal: align = PANGO_TAB_DECIMAL
            }
            pango_tab_array_set_tab(tabs.tabs, cInt(i), align, toPango(stop.0))
            if stop.1 == .decimal { pango_tab_array_set_decimal_point(tabs.tabs, cInt(i), decimalPoint) }
        }
        return tabs
    }

    /// Pango gives a hard line break (U+2028) an advance when it sizes the text after a right, centre or
    /// decimal tab, so that text ended some 7pt short of its stop. An empty shape makes the break zero-width;
    /// it still ends the line (breaks come from the text, not from glyphs) and draws nothing, as before.
    static func zeroLineSeparators(in text: String, _ attrs: AttributeListHandle) {
        var offset = 0
        for scalar in text.unicodeScalars {
            let length = UTF8.width(scalar)
            if scalar == "\u{2028}" {
                var ink = PangoRectangle(), logical = PangoRectangle()
                attrs.insert(pango_attr_shape_new(&ink, &logical), offset..<(offset + length))
            }
            offset += length
        }
    }

    /// Tab stops are absolute positions from the column's left edge (as in Word and LibreOffice), so they win
    /// over moving a line as a whole: a right-aligned or centred paragraph with tabs is set left. A justified
    /// one stays justified: only its lines without a tab stretch (see justifyWrappedLines).
    static func alignmentWithTabs(_ alignment: TextAlignment, text: String) -> TextAlignment {
        switch alignment {
        case .left, .start, .justify: return alignment
        case .right, .center: return .left
        }
    }
}
