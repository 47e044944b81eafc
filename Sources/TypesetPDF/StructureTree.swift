// The structure tree as the PDF will hold it, gathered from what the renderer recorded: every element of
// every path once, its parent, its children in source order (ids), and its content: marked-content
// sequences (page, MCID) in drawing order and link annotations (page, index among the page's links).
// Held packed (issue 8: a 212,000-row table has 850,000 elements; as structs with arrays each they took
// ~600 bytes a row): a few 32-bit columns per element, and children and content as one flat list each,
// grouped by element once every page is read. Elements are numbered by rank: their place in id order.

import TypesetIR

struct StructureTree {
    enum Content: Equatable {
        case mcid(page: Int, mcid: Int)
        case annotation(page: Int, index: Int)
    }

    /// Elements by rank (`count` of them, in increasing id order).
    private(set) var count = 0
    /// Children of the Document element (ranks), in reading order.
    private(set) var topRanks: [Int32] = []
    /// For each page, the element (rank) each MCID belongs to (nil: an artifact).
    private(set) var owners: [PageOwners] = []
    /// For each link annotation in page order, its Link element (rank).
    private(set) var linkElements: [LinkElement] = []

    /// A link annotation's page, its index among the page's links, and its element, in 32 bits each (a
    /// paragraph of two million links: issue 8).
    struct LinkElement {
        private var storedPage: Int32, storedIndex: Int32, storedElement: Int32
        init(page: Int, index: Int, element: Int) {
            (storedPage, storedIndex, storedElement) =
                (Int32(clamping: page), Int32(clamping: index), Int32(clamping: element))
        }
        var page: Int { Int(storedPage) }
        var index: Int { Int(storedIndex) }
        var element: Int {
            get { Int(storedElement) }
            set { storedElement = Int32(clamping: newValue) }
        }
    }

    private var slots = ElementSlots()
    /// Rank -> slot, slot -> rank.
    private var order: [Int32] = []
    private var denseRank: [Int32] = [], otherRank: [Int32] = []
    /// Children (ranks, increasing) of rank r: `children[childStart[r] ..< childStart[r + 1]]`.
    private var childStart: [Int32] = [], children: [Int32] = []
    /// Content (packed: `ContentPacking`) of rank r, in drawing order.
    private var contentStart: [Int32] = [], content: [UInt64] = []

    /// Link elements are made here; their ids come after every id lowering hands out.
    private var nextLinkID = ElementSlots.linkBase

    /// `continuations[page]`: further MCIDs each sequence continues under (ContentRewrite.swift).
    /// `links[page]`: the page's link annotations, each a Link element of its own under the element that owns it.
    /// Each page's records are released once read.
    init(pages: consuming [PageMarks], links: RecordedLinks = RecordedLinks(), continuations: [PageContinuations] = []) {
        slots.reserve(through: pages.reduce(0) { max($0, $1.largestID) })
        // (owning slot, packed content) in drawing order, grouped by element at the end.
        var itemOwners: [Int32] = [], items: [UInt64] = []
        let sequences = pages.reduce(0) { $0 + $1.count }
        itemOwners.reserveCapacity(sequences)
        items.reserveCapacity(sequences)
        for page in pages.indices {
            let marks = pages[page]
            pages[page] = PageMarks()
            let pageContinuations = page < continuations.count ? continuations[page] : PageContinuations()
            var pageOwners = [Int32](repeating: -1, count: max(marks.count, pageContinuations.last + 1))
            var mcid = 0
            func own(_ owner: Int32) {
                if owner >= 0 {
                    itemOwners.append(owner)
                    items.append(ContentPacking.pack(page, mcid, annotation: false))
                }
                pageOwners[mcid] = owner
                for m in pageContinuations.of(mcid) {
                    if owner >= 0 {
                        itemOwners.append(owner)
                        items.append(ContentPacking.pack(page, Int(m), annotation: false))
                    }
                    pageOwners[Int(m)] = owner
                }
                mcid += 1
            }
            for run in marks.runs {
                switch run.mark {
                case .artifact:
                    mcid += run.count
                case .content(let nodes):
                    let owner = slots.add(nodes)
                    for _ in 0 ..< run.count { own(owner) }
                case .cells(let record):
                    for k in 0 ..< record.rowCount {
                        let parent = slots.add(record.row(k), parent: slots.add(record.group))
                        for s in record.sequences(ofRow: k) { own(slots.add(record.cell(s), parent: parent)) }
                    }
                }
            }
            owners.append(PageOwners(pageOwners))
            for index in 0 ..< links.count(page: page) {
                let owner = slots.addLink(id: nextLinkID, parent: slots.add(links.owner(page: page, index: index)))
                nextLinkID += 1
                itemOwners.append(owner)
                items.append(ContentPacking.pack(page, index, annotation: true))
                linkElements.append(LinkElement(page: page, index: index, element: Int(owner)))
            }
        }
        rankElements()
        groupChildren()
        for k in itemOwners.indices { itemOwners[k] = rank(slot: itemOwners[k]) }
        groupContent(owners: itemOwners, items: items)
        itemOwners = []
        items = []
        var all = owners
        owners = []
        for p in all.indices { all[p].remap { self.rank(slot: $0) } }
        owners = all
        // In place: a mapped copy was held beside it.
        for k in linkElements.indices {
            linkElements[k].element = Int(rank(slot: Int32(truncatingIfNeeded: linkElements[k].element)))
        }
    }

    /// Ranks in id order: ids below the dense range, the dense ones, the rest.
    private mutating func rankElements() {
        let others = slots.otherIDs.indices.sorted { slots.otherIDs[$0] < slots.otherIDs[$1] }
        let below = others.prefix { slots.otherIDs[$0] < 0 }
        order.reserveCapacity(slots.presentCount)
        for k in below { order.append(ElementSlots.otherSlot(k)) }
        for id in 0 ..< slots.denseCount where slots.isPresent(Int32(truncatingIfNeeded: id)) { order.append(Int32(truncatingIfNeeded: id)) }
        for k in others.dropFirst(below.count) { order.append(ElementSlots.otherSlot(k)) }
        count = order.count
        denseRank = [Int32](repeating: -1, count: slots.denseCount)
        otherRank = [Int32](repeating: -1, count: slots.otherIDs.count)
        for (r, slot) in order.enumerated() {
            if slot < ElementSlots.otherBase { denseRank[Int(slot)] = Int32(truncatingIfNeeded: r) } else { otherRank[Int(slot - ElementSlots.otherBase)] = Int32(truncatingIfNeeded: r) }
        }
    }

    private func rank(slot: Int32) -> Int32 {
        if slot < 0 { return -1 }
        return slot < ElementSlots.otherBase ? denseRank[Int(slot)] : otherRank[Int(slot - ElementSlots.otherBase)]
    }

    /// Children by parent, each list in id order (ranks are visited in increasing order).
    private mutating func groupChildren() {
        var starts = [Int32](repeating: 0, count: count + 1)
        for r in 0 ..< count {
            let parent = rank(slot: slots.parent(order[r]))
            if parent >= 0 { starts[Int(parent) + 1] += 1 } else { topRanks.append(Int32(truncatingIfNeeded: r)) }
        }
        for r in 0 ..< count { starts[r + 1] += starts[r] }
        var next = starts
        children = [Int32](repeating: 0, count: Int(starts[count]))
        for r in 0 ..< count {
            let parent = rank(slot: slots.parent(order[r]))
            guard parent >= 0 else { continue }
            children[Int(next[Int(parent)])] = Int32(truncatingIfNeeded: r)
            next[Int(parent)] += 1
        }
        childStart = starts
    }

    /// Content by element (`itemOwners`: ranks), each list in drawing order (a stable counting sort).
    private mutating func groupContent(owners itemOwners: [Int32], items: [UInt64]) {
        var starts = [Int32](repeating: 0, count: count + 1)
        for r in itemOwners { starts[Int(r) + 1] += 1 }
        for r in 0 ..< count { starts[r + 1] += starts[r] }
        var next = starts
        content = [UInt64](repeating: 0, count: items.count)
        for (k, r) in itemOwners.enumerated() {
            content[Int(next[Int(r)])] = items[k]
            next[Int(r)] += 1
        }
        contentStart = starts
    }

    // MARK: Reading, by rank

    func id(_ r: Int) -> Int { slots.id(order[r]) }

    /// The element's node with its id.
    func node(_ r: Int) -> StructureNode { slots.node(order[r]) }

    /// nil: a child of the Document element.
    func parent(_ r: Int) -> Int? {
        let p = rank(slot: slots.parent(order[r]))
        return p >= 0 ? Int(p) : nil
    }

    func children(_ r: Int) -> ArraySlice<Int32> { children[Int(childStart[r]) ..< Int(childStart[r + 1])] }

    /// The element's content as packed (`ContentPacking`), in drawing order.
    func packedContent(_ r: Int) -> ArraySlice<UInt64> { content[Int(contentStart[r]) ..< Int(contentStart[r + 1])] }

    func content(_ r: Int) -> LazyMapSequence<ArraySlice<UInt64>, Content> {
        content[Int(contentStart[r]) ..< Int(contentStart[r + 1])].lazy.map(ContentPacking.unpack)
    }

    /// The rank of element `id`, nil when there is none.
    func rank(of id: Int) -> Int? {
        guard let slot = slots.existing(id) else { return nil }
        let r = rank(slot: slot)
        return r >= 0 ? Int(r) : nil
    }
}

/// Content as 8 bytes: kind, page and MCID (or annotation index). Pages (at most 10,000) and MCIDs or
/// annotation indexes of a page (far below 2^32) fit their fields.
enum ContentPacking {
    static func pack(_ page: Int, _ n: Int, annotation: Bool) -> UInt64 {
        let p = UInt64(clamping: page) & 0x7FFF_FFFF, v = UInt64(clamping: n) & 0xFFFF_FFFF
        return (annotation ? 1 << 63 : 0) | p << 32 | v
    }

    static func isAnnotation(_ x: UInt64) -> Bool { x >> 63 == 1 }
    static func page(_ x: UInt64) -> Int { Int((x >> 32) & 0x7FFF_FFFF) }
    /// The MCID or annotation index.
    static func number(_ x: UInt64) -> Int { Int(x & 0xFFFF_FFFF) }

    static func unpack(_ x: UInt64) -> StructureTree.Content {
        let page = Int((x >> 32) & 0x7FFF_FFFF), n = Int(x & 0xFFFF_FFFF)
        return x >> 63 == 1 ? .annotation(page: page, index: n) : .mcid(page: page, mcid: n)
    }
}
