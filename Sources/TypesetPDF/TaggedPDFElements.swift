// Structure elements and the parent tree written as bytes through a cursor (PDFBytes.swift). A paragraph of
// 250,000 links has as many Link elements, kids and parent-tree entries (issue 8): a closure call, a capacity
// check and a literal read as `String.UTF8View` for each item cost more than its bytes.

import TypesetIR

extension TaggedPDF {
    /// Items (content, kids, parent-tree entries) written through one cursor at a time.
    static let itemsPerWrite = 512
    /// Bytes of one item at most: `<< /Type /OBJR /Pg N 0 R /Obj N 0 R >>` (numbers of 20 digits) and a space.
    static let itemMaximum = 96

    /// Object numbers the elements refer to.
    struct ElementNumbers {
        /// The element of rank r is object `first + r`.
        let first: Int
        let document: Int
        let pages: [Int]
        /// Per page, each link annotation's object.
        let annotations: AnnotationNumbers
    }

    /// The objects of the link annotations this stage writes: consecutive numbers, page after page, so a page's
    /// first and how many (not a number a link: issue 8).
    struct AnnotationNumbers {
        private var starts: [Int] = [], counts: [Int] = []

        /// Reserves `counts[p]` numbers for page p, in page order.
        init(counts: [Int], _ update: inout IncrementalUpdate) {
            self.counts = counts
            starts = counts.map { count in
                let start = update.nextNumber
                for _ in 0 ..< count { _ = update.reserve() }
                return start
            }
        }

        subscript(page: Int, index: Int) -> Int { starts[page] + index }

        /// Page p's annotation objects.
        func of(page p: Int) -> [Int] { Array(starts[p] ..< starts[p] + counts[p]) }
    }

    /// Element `r`: its content (marked-content sequences and link annotations), then its kids in source order;
    /// an inline `Code` kid (a code span) stands among the content where its text is (`inlineOrder`).
    static func writeElement(_ r: Int, of tree: StructureTree, _ numbers: ElementNumbers,
                             _ update: inout IncrementalUpdate) throws {
        let node = tree.node(r)
        var items = tree.packedContent(r)
        var kids = tree.children(r)
        let firstPage = items.first { !ContentPacking.isAnnotation($0) }.map(ContentPacking.page)
        // Mixed: written as one list of entries, the kids' among the items (kid k as `kidEntry | k`).
        if let mixed = inlineOrder(items, kids, tree) {
            items = mixed[...]
            kids = []
        }
        let parent = tree.parent(r).map { numbers.first + $0 } ?? numbers.document
        var nextItem = items.startIndex, nextKid = kids.startIndex
        var first = true, head = true
        // Written in parts: a paragraph of a million lines has a million kids. One closure literal (a nested
        // function capturing the loop's variables cost a dynamic exclusivity check for each access).
        while true {
            let itemEnd = min(items.endIndex, nextItem + itemsPerWrite)
            let kidEnd = min(kids.endIndex, nextKid + itemsPerWrite - (itemEnd - nextItem))
            let last = itemEnd == items.endIndex && kidEnd == kids.endIndex
            var maximum = itemMaximum * (itemEnd - nextItem + kidEnd - nextKid)
            if head { maximum += 64 + node.type.utf8.count }
            if last { maximum += tailMaximum(node) }
            try update.write(maximum: maximum, beginning: head ? numbers.first + r : nil) { out in
                if head {
                    out.put("<< /Type /StructElem /S /")
                    out.put(utf8: node.type)
                    out.put(" /P ")
                    out.putRef(parent)
                    out.put(" /K [")
                }
                for k in nextItem ..< itemEnd {
                    if !first { out.put(0x20) }
                    first = false
                    if items[k] & kidEntry != 0 {
                        out.putRef(numbers.first + Int(truncatingIfNeeded: items[k] & ~kidEntry))
                    } else {
                        putItem(items[k], firstPage: firstPage, numbers, to: &out)
                    }
                }
                for k in nextKid ..< kidEnd {
                    if !first { out.put(0x20) }
                    first = false
                    out.putRef(numbers.first + Int(kids[k]))
                }
                if last { putTail(node, firstPage: firstPage.map { numbers.pages[$0] }, to: &out) }
            }
            guard !last else { return }
            head = false
            nextItem = itemEnd
            nextKid = kidEnd
        }
    }

    /// Marks a kid's rank in a mixed list of entries (`inlineOrder`); content items never have bit 62 set.
    private static let kidEntry: UInt64 = 1 << 62

    /// The element's content and kids as one list when it has inline `Code` kids: each of those before the first
    /// content item drawn after its own first sequence, the other kids after all the content, as without them.
    /// nil when there is none (the content, then the kids).
    private static func inlineOrder(_ items: ArraySlice<UInt64>, _ kids: ArraySlice<Int32>,
                                    _ tree: StructureTree) -> [UInt64]? {
        func position(_ kid: Int32) -> UInt64? {
            guard tree.node(Int(kid)).type == "Code", let first = tree.packedContent(Int(kid)).first,
                  !ContentPacking.isAnnotation(first) else { return nil }
            return first
        }
        // Most elements have no such kid: nothing is made for them.
        guard kids.contains(where: { position($0) != nil }) else { return nil }
        var inline: [(position: UInt64, rank: Int32)] = [], others: [Int32] = []
        for kid in kids {
            if let p = position(kid) { inline.append((p, kid)) } else { others.append(kid) }
        }
        inline.sort { $0.position < $1.position }
        var mixed: [UInt64] = []
        mixed.reserveCapacity(items.count + kids.count)
        var next = 0
        for item in items {
            // MCIDs pack page before number, so the order of packed values is the drawing order.
            while next < inline.count && (ContentPacking.isAnnotation(item) || inline[next].position < item) {
                mixed.append(kidEntry | UInt64(inline[next].rank))
                next += 1
            }
            mixed.append(item)
        }
        for k in next ..< inline.count { mixed.append(kidEntry | UInt64(inline[k].rank)) }
        for kid in others { mixed.append(kidEntry | UInt64(kid)) }
        return mixed
    }

    /// A content item: an MCID (with its page when not the element's first), or a link annotation.
    private static func putItem(_ x: UInt64, firstPage: Int?, _ numbers: ElementNumbers, to out: inout ByteCursor) {
        let page = ContentPacking.page(x), n = ContentPacking.number(x)
        if ContentPacking.isAnnotation(x) {
            out.put("<< /Type /OBJR /Pg ")
            out.putRef(numbers.pages[page])
            out.put(" /Obj ")
            out.putRef(numbers.annotations[page, n])
            out.put(" >>")
        } else if page == firstPage {
            out.putInt(n)
        } else {
            out.put("<< /Type /MCR /Pg ")
            out.putRef(numbers.pages[page])
            out.put(" /MCID ")
            out.putInt(n)
            out.put(" >>")
        }
    }

    /// Bytes of an element's end at most: text strings take 4 bytes a byte (UTF-16 in hex), a note's id 52.
    private static func tailMaximum(_ node: StructureNode) -> Int {
        let texts = (node.alt?.utf8.count ?? 0) + (node.language?.utf8.count ?? 0)
        return 256 + 4 * texts + (node.scope?.utf8.count ?? 0) + (node.listNumbering?.utf8.count ?? 0)
    }

    /// `]`, the first page of its content, /Alt, /Lang, attributes, a note's /ID and the object's end.
    private static func putTail(_ node: StructureNode, firstPage: Int?, to out: inout ByteCursor) {
        out.put(UInt8(ascii: "]"))
        if let firstPage {
            out.put(" /Pg ")
            out.putRef(firstPage)
        }
        if let alt = node.alt {
            out.put(" /Alt ")
            PDFLinks.putPDFText(alt, to: &out)
        }
        if let language = node.language {
            out.put(" /Lang ")
            PDFLinks.putPDFText(language, to: &out)
        }
        if let scope = node.scope {
            out.put(" /A << /O /Table /Scope /")
            out.put(utf8: scope)
            out.put(" >>")
        }
        if let numbering = node.listNumbering {
            out.put(" /A << /O /List /ListNumbering /")
            out.put(utf8: numbering)
            out.put(" >>")
        }
        if node.type == "Note" {   // PDF/UA: notes have ids
            out.put(" /ID ")
            out.put(utf8: PDFSyntax.ascii("note-\(node.id)"))
        }
        out.put(" >>\nendobj\n")
    }

    /// Keys of the parent tree in one node: a node holds a few pages' arrays, and can go into an object stream.
    static let parentTreeLeaf = 32

    /// The parent tree (PDF 1.7, 14.7.4.4): page p's key is p, then one key per link annotation (`links` in
    /// key order, from the page count on). Past one
    /// leaf's worth it is a number tree: a root with /Kids and leaves with /Limits, each a few pages long (as
    /// one object it was megabytes for a long table, too large to pack).
    /// `links`: each link annotation's element (its object is `firstElement` + its rank); their keys follow
    /// the pages'.
    static func writeParentTree(_ number: Int, owners: [PageOwners], links: [StructureTree.LinkElement],
                                firstElement: Int, _ update: inout IncrementalUpdate) throws {
        let pages = owners.count, total = pages + links.count
        func writeEntries(_ keys: Range<Int>) throws {
            for k in keys {
                if k < pages {
                    try writeParentTreeEntry(k, owners[k], separator: k > keys.lowerBound, firstElement: firstElement, &update)
                    continue
                }
                let element = firstElement + links[k - pages].element, separator = k > keys.lowerBound
                try update.write(maximum: 48) { out in
                    if separator { out.put(0x20) }
                    out.putInt(k)
                    out.put(0x20)
                    out.putRef(element)
                }
            }
        }
        guard total > parentTreeLeaf else {
            try update.begin(number)
            try update.write("<< /Nums [")
            try writeEntries(0 ..< total)
            try update.write("] >>")
            return try update.end()
        }
        let leaves = stride(from: 0, to: total, by: parentTreeLeaf).map { $0 ..< min($0 + parentTreeLeaf, total) }
        let numbers = leaves.map { _ in update.reserve() }
        try update.begin(number)
        try update.write("<< /Kids [")
        for (k, leaf) in numbers.enumerated() {
            try update.write(maximum: 24) { out in
                if k > 0 { out.put(0x20) }
                out.putRef(leaf)
            }
        }
        try update.write("] >>")
        try update.end()
        for (keys, leaf) in zip(leaves, numbers) {
            try update.begin(leaf)
            try update.write("<< /Limits [\(keys.lowerBound) \(keys.upperBound - 1)] /Nums [")
            try writeEntries(keys)
            try update.write("] >>")
            try update.end()
        }
    }

    /// Page `p`'s parent-tree entry: `p [owner owner null ...]` (owners are ranks).
    static func writeParentTreeEntry(_ p: Int, _ owners: PageOwners, separator: Bool, firstElement: Int,
                                     _ update: inout IncrementalUpdate) throws {
        try update.write(maximum: 32) { out in
            if separator { out.put(0x20) }
            out.putInt(p)
            out.put(" [")
        }
        var inner = false
        for run in owners.runs {
            var left = Int(run.count)
            while left > 0 {
                let take = min(left, itemsPerWrite)
                try update.write(maximum: 32 * take) { out in
                    for _ in 0 ..< take {
                        if inner { out.put(0x20) }
                        inner = true
                        if run.owner >= 0 { out.putRef(firstElement + Int(run.owner)) } else { out.put("null") }
                    }
                }
                left -= take
            }
        }
        try update.write(maximum: 1) { $0.put(UInt8(ascii: "]")) }
    }

    /// `/Annots [N 0 R ...]`: cairo's annotations, then this stage's.
    static func annotsKey(_ cairo: [Int], _ own: [Int]) -> String {
        var out: [UInt8] = []
        out.appendWriting(maximum: 16 + 24 * (cairo.count + own.count)) { out in
            out.put("/Annots [")
            var first = true
            for n in cairo + own {
                if !first { out.put(0x20) }
                first = false
                out.putRef(n)
            }
            out.put(UInt8(ascii: "]"))
        }
        return String(decoding: out, as: UTF8.self)
    }
}
