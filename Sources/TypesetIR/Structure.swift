// The logical structure of a document (RT section 10): what each paragraph, cell and image *is*, in source
// order, for the tagged PDF. Lowering gives every piece of content a path of structure elements from the
// outermost container down to the element that owns the content; the PDF stage turns the paths into a
// structure tree. Ids are handed out in source order, so sorting siblings by id gives the reading order
// whatever columns, floats and exclusions do to the drawing order.

import RTSyntax

/// One structure element: a standard PDF structure type and the attributes a reader needs.
/// 32 bytes: every paragraph and table cell holds its whole path, so the attributes few elements have live
/// in a shared box (a 50,000-row table has 150,000 cell paths; 88-byte nodes made them 58 MB).
public struct StructureNode: Hashable, Sendable {
    /// Unique per document, increasing in source order.
    public var id: Int
    /// A standard structure type: `P`, `H1`, `L`, `LI`, `Lbl`, `LBody`, `Table`, `TH`, `Figure`, ...
    public var type: String
    private var extras: Extras?

    public init(id: Int, type: String) {
        self.id = id
        self.type = type
    }

    /// Alternate description (`/Alt`) of a figure.
    public var alt: String? {
        get { extras?.alt }
        set { change { $0.alt = newValue } }
    }
    /// Language (`/Lang`) where it differs from the document's.
    public var language: String? {
        get { extras?.language }
        set { change { $0.language = newValue } }
    }
    /// `Row` or `Column` for a header cell (`/Scope`).
    public var scope: String? {
        get { extras?.scope }
        set { change { $0.scope = newValue } }
    }
    /// A list's numbering (`/ListNumbering`): `Disc`, `Decimal`, `LowerAlpha`, `UpperRoman`, ...
    public var listNumbering: String? {
        get { extras?.listNumbering }
        set { change { $0.listNumbering = newValue } }
    }

    /// Copy on write: nodes share their box, so a change makes a new one (nil when nothing is left).
    private mutating func change(_ edit: (inout Attributes) -> Void) {
        var attributes = extras?.attributes ?? Attributes()
        edit(&attributes)
        extras = attributes == Attributes() ? nil : Extras(attributes)
    }

    private struct Attributes: Hashable, Sendable {
        var alt: String?
        var language: String?
        var scope: String?
        var listNumbering: String?
    }

    private final class Extras: Hashable, Sendable {
        let attributes: Attributes
        init(_ attributes: Attributes) { self.attributes = attributes }
        var alt: String? { attributes.alt }
        var language: String? { attributes.language }
        var scope: String? { attributes.scope }
        var listNumbering: String? { attributes.listNumbering }
        static func == (a: Extras, b: Extras) -> Bool { a.attributes == b.attributes }
        func hash(into hasher: inout Hasher) { hasher.combine(attributes) }
    }
}

/// Where a piece of content sits in the structure: outermost element first, the owning element last.
public struct StructurePath: Hashable, Sendable {
    public var nodes: [StructureNode]
    /// A list item's first paragraph: its label's path (`... LI > Lbl`) and text (`1.` and its tab), which
    /// start the paragraph's text.
    public var labelNodes: [StructureNode]? = nil
    public var labelText: String = ""
    public var labelBytes: Int { labelText.utf8.count }
    public init(_ nodes: [StructureNode]) { self.nodes = nodes }
    /// The element the content belongs to.
    public var owner: StructureNode? { nodes.last }
}

/// The PDF standards a document can ask for (front matter `pdf-standard`, `--pdf-standard`).
public enum PDFStandard: String, Hashable, Sendable, CaseIterable {
    case ua1 = "ua-1", a2b = "a-2b", a2a = "a-2a", a2u = "a-2u", a3b = "a-3b"

    public var isPDFA: Bool { self != .ua1 }

    /// A file claims one PDF/A part: asked for two (`a-2b, a-3b`), the lower is kept with a warning. Within a
    /// part the levels nest (2a holds 2u holds 2b), so the strongest asked for is claimed (`claimed`).
    static func oneArchivalPart(_ standards: Set<PDFStandard>, diagnostics: inout [Diagnostic]) -> Set<PDFStandard> {
        let parts = Set(standards.compactMap { $0.pdfaIdentification?.part })
        guard parts.count > 1, let kept = parts.min() else { return standards }
        let dropped = standards.filter { ($0.pdfaIdentification?.part ?? kept) != kept }.map(\.rawValue).sorted()
        diagnostics.append(.warning("a PDF can claim only one PDF/A part: \(dropped.joined(separator: ", ")) dropped, "
                                    + "PDF/A-\(kept) kept", at: nil))
        return standards.filter { ($0.pdfaIdentification?.part ?? kept) == kept }
    }

    /// The PDF/A identification written to the file: the strongest level of the part asked for (A, then U,
    /// then B), whatever order the set holds them in.
    public static func claimed(_ standards: Set<PDFStandard>) -> (part: Int, conformance: String)? {
        let rank = ["A": 0, "U": 1, "B": 2]
        return standards.compactMap(\.pdfaIdentification).min { ($0.part, rank[$0.conformance] ?? 3) < ($1.part, rank[$1.conformance] ?? 3) }
    }
    /// PDF/A part and conformance level (`2`, `B`), nil for PDF/UA.
    public var pdfaIdentification: (part: Int, conformance: String)? {
        switch self {
        case .ua1: return nil
        case .a2b: return (2, "B")
        case .a2a: return (2, "A")
        case .a2u: return (2, "U")
        case .a3b: return (3, "B")
        }
    }
}
