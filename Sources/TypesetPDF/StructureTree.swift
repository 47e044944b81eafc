// The structure tree as the PDF will hold it, gathered from what the renderer recorded: every element of
// every path once, its parent, its children in source order (ids), and its content: marked-content
// sequences (page, MCID) in drawing order and link annotations (page, index among the page's links).

import TypesetIR

struct StructureTree {
    enum Content: Equatable {
        case mcid(page: Int, mcid: Int)
        case annotation(page: Int, index: Int)
    }

    struct Element {
        var node: StructureNode
        /// nil: a child of the Document element.
        var parent: Int?
        var children: [Int] = []
        var content: [Content] = []
    }

    private(set) var elements: [Int: Element] = [:]
    /// Children of the Document element, in reading order.
    private(set) var top: [Int] = []
    /// For each page, the element each MCID belongs to (nil: an artifact).
    private(set) var owners: [[Int?]] = []
    /// For each link annotation in page order, its Link element.
    private(set) var linkElements: [(page: Int, index: Int, element: Int, contents: String)] = []

    /// Link elements are made here; their ids come after every id lowering hands out.
    private var nextLinkID = 1 << 41

    /// `continuations[page][mcid]`: further MCIDs the sequence `mcid` continues under (ContentRewrite.swift).
    /// `links[page]`: the page's link annotations, each a Link element of its own under the element that owns it.
    init(pages: [[MarkedContent]], links: [[RecordedLink]] = [], continuations: [[Int: [Int]]] = []) {
        for (page, marks) in pages.enumerated() {
            let pageContinuations = page < continuations.count ? continuations[page] : [:]
            let last = pageContinuations.values.joined().max() ?? -1
            var pageOwners = [Int?](repeating: nil, count: max(marks.count, last + 1))
            for (mcid, mark) in marks.enumerated() {
                switch mark {
                case .artifact:
                    break
                case .content(let nodes):
                    let owner = add(nodes)
                    for m in [mcid] + (pageContinuations[mcid] ?? []) {
                        owner.map { elements[$0]?.content.append(.mcid(page: page, mcid: m)) }
                        pageOwners[m] = owner
                    }
                }
            }
            owners.append(pageOwners)
            for (index, recorded) in (page < links.count ? links[page] : []).enumerated() {
                let link = StructureNode(id: nextLinkID, type: "Link")
                nextLinkID += 1
                _ = add(recorded.owner + [link])
                elements[link.id]?.content = [.annotation(page: page, index: index)]
                linkElements.append((page, index, link.id, recorded.contents))
            }
        }
        // Over a copy of the keys: iterating `elements.keys` while changing `elements` copies the whole tree.
        for id in Array(elements.keys) { elements[id]?.children.sort() }
        top.sort()
    }

    /// Adds the elements of a path not seen yet; returns the owner's id.
    private mutating func add(_ nodes: [StructureNode]) -> Int? {
        var parent: Int? = nil
        for node in nodes {
            if elements[node.id] == nil {
                elements[node.id] = Element(node: node, parent: parent)
                if let parent { elements[parent]?.children.append(node.id) } else { top.append(node.id) }
            }
            parent = node.id
        }
        return parent
    }
}
