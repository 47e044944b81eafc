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
        var content = ContentList()
    }

    private(set) var elements = ElementStore()
    /// Children of the Document element, in reading order.
    private(set) var top: [Int] = []
    /// For each page, the element each MCID belongs to (nil: an artifact).
    private(set) var owners: [PageOwners] = []
    /// For each link annotation in page order, its Link element.
    private(set) var linkElements: [(page: Int, index: Int, element: Int, contents: String)] = []

    /// Link elements are made here; their ids come after every id lowering hands out.
    private var nextLinkID = ElementStore.linkBase

    /// `continuations[page]`: further MCIDs each sequence continues under (ContentRewrite.swift).
    /// `links[page]`: the page's link annotations, each a Link element of its own under the element that owns it.
    init(pages: [PageMarks], links: [[RecordedLink]] = [], continuations: [PageContinuations] = []) {
        // The element array at its final size at once: grown by halves, a 212,000-row table's 850,000 elements
        // (80 bytes each) were held twice over while it was copied.
        elements.reserve(through: pages.reduce(0) { max($0, $1.largestID) })
        for (page, marks) in pages.enumerated() {
            let pageContinuations = page < continuations.count ? continuations[page] : PageContinuations()
            var pageOwners = [Int?](repeating: nil, count: max(marks.count, pageContinuations.last + 1))
            var mcid = 0
            func own(_ owner: Int?) {
                if let owner { elements.update(owner) { $0.content.append(.mcid(page: page, mcid: mcid)) } }
                pageOwners[mcid] = owner
                for m in pageContinuations.of(mcid) {
                    if let owner { elements.update(owner) { $0.content.append(.mcid(page: page, mcid: Int(m))) } }
                    pageOwners[Int(m)] = owner
                }
                mcid += 1
            }
            for run in marks.runs {
                switch run.mark {
                case .artifact:
                    mcid += run.count
                case .content(let nodes):
                    let owner = add(nodes)
                    for _ in 0 ..< run.count { own(owner) }
                case .cells(let row):
                    for k in 0 ..< run.count { own(add(row.nodes(k))) }
                }
            }
            owners.append(PageOwners(pageOwners))
            for (index, recorded) in (page < links.count ? links[page] : []).enumerated() {
                // A new element under the link's owner (as `add(owner + [link])`, without a path per link).
                let link = StructureNode(id: nextLinkID, type: "Link")
                nextLinkID += 1
                let owner = add(recorded.owner)
                var element = Element(node: link, parent: owner)
                element.content.append(.annotation(page: page, index: index))
                elements.insert(element, id: link.id)
                if let owner { elements.update(owner) { $0.children.append(link.id) } } else { top.append(link.id) }
                linkElements.append((page, index, link.id, recorded.contents))
            }
        }
        for id in elements.keys { elements.update(id) { if $0.children.count > 1 { $0.children.sort() } } }
        top.sort()
    }

    /// Adds the elements of a path not seen yet; returns the owner's id.
    private mutating func add(_ nodes: [StructureNode]) -> Int? {
        var parent: Int? = nil
        for node in nodes {
            if !elements.contains(node.id) {
                elements.insert(Element(node: node, parent: parent), id: node.id)
                if let parent { elements.update(parent) { $0.children.append(node.id) } } else { top.append(node.id) }
            }
            parent = node.id
        }
        return parent
    }
}

/// The elements by id: lowering's ids (1, 2, 3, ... in source order) index an array, the few others (links,
/// untagged content) a dictionary. A dictionary of a 50,000-row table's 200,000 elements took 38 MB.
struct ElementStore {
    typealias Element = StructureTree.Element
    /// Ids below this are dense: more elements than an 8 MB input can make.
    static let denseLimit = 1 << 26
    /// Link elements' ids (StructureTree) count up from here: dense too, in an array of their own.
    static let linkBase = 1 << 41
    private var dense: [Element?] = []
    private var links: [Element?] = []
    private var sparse: [Int: Element] = [:]

    subscript(id: Int) -> Element? {
        if id >= 0 && id < Self.denseLimit { return id < dense.count ? dense[id] : nil }
        if id >= Self.linkBase && id - Self.linkBase < Self.denseLimit {
            return id - Self.linkBase < links.count ? links[id - Self.linkBase] : nil
        }
        return sparse[id]
    }

    func contains(_ id: Int) -> Bool {
        if id >= 0 && id < Self.denseLimit { return id < dense.count && Self.isSet(dense[id]) }
        if id >= Self.linkBase && id - Self.linkBase < Self.denseLimit {
            return id - Self.linkBase < links.count && Self.isSet(links[id - Self.linkBase])
        }
        return sparse[id] != nil
    }

    /// Looked at in place: `!= nil` copied the element (its arrays retained and released) per lookup.
    private static func isSet(_ element: borrowing Element?) -> Bool {
        switch element {
        case .none: return false
        case .some: return true
        }
    }

    /// Room for ids up to `id` without growing again.
    mutating func reserve(through id: Int) {
        if id >= dense.count && id < Self.denseLimit { dense.reserveCapacity(id + 1) }
    }

    mutating func insert(_ element: Element, id: Int) {
        if id >= 0 && id < Self.denseLimit { return Self.insert(element, at: id, into: &dense) }
        if id >= Self.linkBase && id - Self.linkBase < Self.denseLimit {
            return Self.insert(element, at: id - Self.linkBase, into: &links)
        }
        sparse[id] = element
    }

    private static func insert(_ element: Element, at k: Int, into array: inout [Element?]) {
        if k >= array.count {
            // By halves (within the room reserved, when there is some): amortized, and never past the reserve.
            let room = array.capacity > k ? array.capacity - array.count : array.count / 2
            array += [Element?](repeating: nil, count: max(k + 1 - array.count, min(array.count / 2, room)))
        }
        array[k] = element
    }

    /// Changes element `id` in place (nothing when there is none).
    mutating func update(_ id: Int, _ change: (inout Element) -> Void) {
        if id >= 0 && id < Self.denseLimit {
            Self.update(at: id, in: &dense, change)
        } else if id >= Self.linkBase && id - Self.linkBase < Self.denseLimit {
            Self.update(at: id - Self.linkBase, in: &links, change)
        } else {
            guard var element = sparse.removeValue(forKey: id) else { return }
            change(&element)
            sparse[id] = element
        }
    }

    private static func update(at k: Int, in array: inout [Element?], _ change: (inout Element) -> Void) {
        guard k < array.count else { return }
        // Moved out and back, never copied: the change does not copy its arrays, and nothing is retained.
        var element: Element? = nil
        swap(&element, &array[k])
        if element != nil { change(&element!) }
        swap(&element, &array[k])
    }

    /// Every id, in increasing order.
    var keys: [Int] {
        let others = sparse.keys.sorted()
        let negative = others.filter { $0 < 0 }
        let below = others.filter { $0 >= 0 && $0 < Self.linkBase }, above = others.filter { $0 >= Self.linkBase }
        return negative + dense.indices.filter { dense[$0] != nil } + below
            + links.indices.filter { links[$0] != nil }.map { $0 + Self.linkBase } + above
    }
}
