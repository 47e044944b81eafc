// Where the structure tree (StructureTree.swift) keeps its elements while pages are read: lowering's ids
// (1, 2, 3, ... in source order) index 32-bit columns directly, the few others (links, untagged content) get
// slots of their own. An element is its node's shape (type and attributes, shared by every element with the
// same: a table's cells have one) and its parent: 8 bytes, where a struct with arrays took some 150.

import TypesetIR

struct ElementSlots {
    /// Ids below this are dense: more elements than an 8 MB input can make.
    static let denseLimit = 1 << 26
    /// Link elements' ids (StructureTree) count up from here.
    static let linkBase = 1 << 41
    /// Slots from here hold ids outside the dense range. Slots, ranks and counts all stay below 2^26 plus the
    /// links of an 8 MB input, so the 32-bit conversions below cannot lose bits.
    static let otherBase = Int32(truncatingIfNeeded: denseLimit)

    static func otherSlot(_ k: Int) -> Int32 { otherBase + Int32(truncatingIfNeeded: k) }

    /// Shape index + 1 (0: no element has this id) and parent slot (-1: the Document element).
    private var denseShape: [UInt32] = [], denseParent: [Int32] = []
    private var otherShape: [UInt32] = [], otherParent: [Int32] = []
    private(set) var otherIDs: [Int] = []
    private var otherIndex: [Int: Int32] = [:]
    /// Link ids (`linkBase`, `linkBase + 1`, ... as StructureTree hands them out) -> their `otherIDs` index,
    /// without hashing one per link.
    private var linkIndex: [Int32] = []
    private(set) var presentCount = 0
    /// Distinct nodes, with id 0.
    private var shapes: [StructureNode] = []
    private var shapeIndex: [StructureNode: UInt32] = [:]
    private var lastShape: UInt32 = 0
    /// The Link elements' shape index + 1 (0: none yet).
    private var linkShape: UInt32 = 0

    var denseCount: Int { denseShape.count }

    /// Room for dense ids up to `id` without growing again.
    mutating func reserve(through id: Int) {
        guard id >= denseShape.count && id < Self.denseLimit else { return }
        denseShape.reserveCapacity(id + 1)
        denseParent.reserveCapacity(id + 1)
    }

    /// Adds the elements of a path not seen yet; returns the owner's slot (-1 for an empty path).
    mutating func add(_ nodes: [StructureNode]) -> Int32 {
        var parent: Int32 = -1
        for node in nodes { parent = add(node, parent: parent) }
        return parent
    }

    /// Adds `node` under `parent` unless its id has an element already; returns its slot.
    mutating func add(_ node: StructureNode, parent: Int32) -> Int32 {
        let slot = makeSlot(node.id)
        guard !isPresent(slot) else { return slot }
        place(slot, shape: intern(node) + 1, parent: parent)
        return slot
    }

    /// `add(StructureNode(id: id, type: "Link"), parent: parent)`, its shape looked up once for all links.
    mutating func addLink(id: Int, parent: Int32) -> Int32 {
        let slot = makeSlot(id)
        guard !isPresent(slot) else { return slot }
        if linkShape == 0 { linkShape = intern(StructureNode(id: 0, type: "Link")) + 1 }
        place(slot, shape: linkShape, parent: parent)
        return slot
    }

    /// Records a new element's shape (interned index + 1) and parent in `slot`'s column.
    private mutating func place(_ slot: Int32, shape: UInt32, parent: Int32) {
        if slot < Self.otherBase {
            denseShape[Int(slot)] = shape
            denseParent[Int(slot)] = parent
        } else {
            otherShape[Int(slot - Self.otherBase)] = shape
            otherParent[Int(slot - Self.otherBase)] = parent
        }
        presentCount += 1
    }

    private mutating func makeSlot(_ id: Int) -> Int32 {
        if id >= 0 && id < Self.denseLimit {
            if id >= denseShape.count {
                // By halves (within the room reserved, when there is some): amortized, and never past the reserve.
                let room = denseShape.capacity > id ? denseShape.capacity - denseShape.count : denseShape.count / 2
                let more = max(id + 1 - denseShape.count, min(denseShape.count / 2, room))
                denseShape += repeatElement(0, count: more)
                denseParent += repeatElement(-1, count: more)
            }
            return Int32(truncatingIfNeeded: id)
        }
        let link = id &- Self.linkBase
        if link >= 0 && link < linkIndex.count { return Self.otherBase + linkIndex[link] }
        if let k = otherIndex[id] { return Self.otherBase + k }
        let k = Int32(truncatingIfNeeded: otherIDs.count)
        otherIDs.append(id)
        otherShape.append(0)
        otherParent.append(-1)
        if link == linkIndex.count { linkIndex.append(k) } else { otherIndex[id] = k }
        return Self.otherBase + k
    }

    private mutating func intern(_ node: StructureNode) -> UInt32 {
        var bare = node
        bare.id = 0
        if lastShape > 0 && shapes[Int(lastShape - 1)] == bare { return lastShape - 1 }
        let index: UInt32
        if let known = shapeIndex[bare] {
            index = known
        } else {
            index = UInt32(shapes.count)
            shapes.append(bare)
            shapeIndex[bare] = index
        }
        lastShape = index + 1
        return index
    }

    /// The slot of element `id`, nil when there is none.
    func existing(_ id: Int) -> Int32? {
        if id >= 0 && id < Self.denseLimit { return id < denseShape.count && denseShape[id] != 0 ? Int32(truncatingIfNeeded: id) : nil }
        let link = id &- Self.linkBase
        if link >= 0 && link < linkIndex.count { return Self.otherBase + linkIndex[link] }
        return otherIndex[id].map { Self.otherBase + $0 }
    }

    func isPresent(_ slot: Int32) -> Bool {
        slot < Self.otherBase ? denseShape[Int(slot)] != 0 : otherShape[Int(slot - Self.otherBase)] != 0
    }

    func parent(_ slot: Int32) -> Int32 {
        slot < Self.otherBase ? denseParent[Int(slot)] : otherParent[Int(slot - Self.otherBase)]
    }

    func id(_ slot: Int32) -> Int { slot < Self.otherBase ? Int(slot) : otherIDs[Int(slot - Self.otherBase)] }

    func node(_ slot: Int32) -> StructureNode {
        let shape = slot < Self.otherBase ? denseShape[Int(slot)] : otherShape[Int(slot - Self.otherBase)]
        var node = shapes[Int(shape) - 1]
        node.id = id(slot)
        return node
    }
}

extension StructureTree {
    /// An element as read back whole (tests; the writer reads by rank).
    struct Element {
        var node: StructureNode
        /// nil: a child of the Document element.
        var parent: Int?
        var children: [Int]
        var content: [Content]
    }

    /// The elements by id.
    struct Elements {
        let tree: StructureTree
        /// Every id, in increasing order.
        var keys: [Int] { (0 ..< tree.count).map(tree.id) }

        subscript(id: Int) -> Element? {
            guard let r = tree.rank(of: id) else { return nil }
            return Element(node: tree.node(r), parent: tree.parent(r).map(tree.id),
                           children: tree.children(r).map { tree.id(Int($0)) }, content: Array(tree.content(r)))
        }
    }

    var elements: Elements { Elements(tree: self) }

    /// Children of the Document element (ids), in reading order.
    var top: [Int] { topRanks.map { id(Int($0)) } }

    /// Page `p`'s owner of each MCID (ids; nil: an artifact).
    func ownerIDs(page p: Int) -> [Int?] { owners[p].map { $0.map(id) } }
}
