// Compact forms of what tagging records per marked-content sequence. 7.5 MB of text in 16 narrow columns
// makes 3 million lines, each a sequence (a hyphen the line breaker added ends one and gets a span of its
// own): held as arrays of enums, sets and dictionaries of arrays they took some 300 MB. Runs of one element,
// bit sets and packed integers hold the same in a few bytes per sequence.

/// One page's marked-content sequences in MCID order; consecutive sequences of one element (or artifacts)
/// are one run.
struct PageMarks {
    private(set) var runs: [(mark: MarkedContent, count: Int)] = []
    /// Sequences on the page (the next MCID).
    private(set) var count = 0

    /// The largest dense structure id the page's sequences name (lowering's; link ids come later).
    var largestID: Int {
        runs.reduce(0) { largest, run in
            switch run.mark {
            case .artifact: return largest
            case .content(let nodes):
                return nodes.reduce(largest) { $1.id < ElementSlots.denseLimit ? max($0, $1.id) : $0 }
            case .cells(let row): return max(largest, row.largestID)
            }
        }
    }

    mutating func append(_ mark: MarkedContent) {
        if case .content(let nodes) = mark, TableRowMarks.isCellPath(nodes) {
            var previous: TableRowMarks? = nil
            if let last = runs.last, case .cells(let row) = last.mark {
                if row.append(nodes) {
                    runs[runs.count - 1].count += 1
                    count += 1
                    return
                }
                previous = row
            }
            if let row = TableRowMarks(nodes, sharing: previous) {
                runs.append((.cells(row), 1))
                count += 1
                return
            }
        }
        if let last = runs.last, last.mark.sharesRun(with: mark) {
            runs[runs.count - 1].count += 1
        } else {
            runs.append((mark, 1))
        }
        count += 1
    }
}

extension MarkedContent {
    /// Sequences of the same element, or artifacts; a link is always a run of its own.
    func sharesRun(with other: MarkedContent) -> Bool {
        switch (self, other) {
        case (.artifact, .artifact): return true
        case (.content(let a), .content(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.id == $1.id }
        default: return false
        }
    }
}

/// Per page, the MCIDs whose sequence reads as nothing (added hyphens), as bit sets.
struct SilentMCIDs {
    private var pages: [[UInt64]] = []
    var count: Int { pages.count }

    mutating func appendPage(_ bits: [UInt64]) { pages.append(bits) }

    /// The page's MCIDs (the form the content rewrite and its memo key take).
    subscript(page: Int) -> Set<Int> {
        var set = Set<Int>()
        for (w, word) in pages[page].enumerated() where word != 0 {
            for b in 0 ..< 64 where word & (1 << UInt64(b)) != 0 { set.insert(w * 64 + b) }
        }
        return set
    }

    static func insert(_ mcid: Int, into bits: inout [UInt64]) {
        let word = mcid / 64
        if word >= bits.count { bits += [UInt64](repeating: 0, count: word + 1 - bits.count) }
        bits[word] |= 1 << UInt64(mcid % 64)
    }
}

/// One page's continuations (an element's MCID -> further MCIDs its sequence continues under), sorted by MCID.
struct PageContinuations {
    private var keys: [Int32] = []
    /// `values[ends[k - 1] ..< ends[k]]` continue `keys[k]`.
    private var ends: [Int32] = []
    private var values: [Int32] = []
    private(set) var last = -1

    init() {}

    /// From the content rewrite's dictionary. MCIDs of one page stay far below 2^31 (each is a line of content).
    init(_ map: [Int: [Int]]) {
        keys.reserveCapacity(map.count)
        ends.reserveCapacity(map.count)
        values.reserveCapacity(map.values.reduce(0) { $0 + $1.count })
        for key in map.keys.sorted() {
            guard let k = Int32(exactly: key), let more = map[key],
                  case let list = more.compactMap({ Int32(exactly: $0) }), list.count == more.count else { continue }
            guard let end = Int32(exactly: values.count + list.count) else { break }
            keys.append(k)
            values += list
            ends.append(end)
            last = max(last, more.max() ?? -1)
        }
    }

    /// The MCIDs `mcid` continues under, in order.
    func of(_ mcid: Int) -> ArraySlice<Int32> {
        guard let k = Int32(exactly: mcid) else { return [] }
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if keys[mid] < k { lo = mid + 1 } else { hi = mid }
        }
        guard lo < keys.count, keys[lo] == k else { return [] }
        return values[Int(lo == 0 ? 0 : ends[lo - 1]) ..< Int(ends[lo])]
    }
}

/// One page's parent-tree array (MCID -> owning element, nil for an artifact) as runs of one owner, 8 bytes a run.
struct PageOwners: Sequence {
    /// Owner -1: an artifact.
    private(set) var runs: [(owner: Int32, count: Int32)] = []

    /// Owners (-1: none). A page's MCIDs stay far below 2^31 (each is a line of content).
    init(_ owners: [Int32]) {
        for owner in owners {
            if let last = runs.last, last.owner == owner { runs[runs.count - 1].count += 1 } else { runs.append((owner, 1)) }
        }
    }

    /// Each owner replaced by `change(owner)` (slots by ranks, when the tree is complete).
    mutating func remap(_ change: (Int32) -> Int32) {
        for k in runs.indices where runs[k].owner >= 0 { runs[k].owner = change(runs[k].owner) }
    }

    func makeIterator() -> AnyIterator<Int?> {
        var run = 0, used: Int32 = 0
        let runs = runs
        return AnyIterator {
            while run < runs.count && used >= runs[run].count {
                run += 1
                used = 0
            }
            guard run < runs.count else { return nil }
            used += 1
            return runs[run].owner >= 0 ? Int(runs[run].owner) : nil
        }
    }
}
