// One level of Liang patterns as a byte trie over UTF-8. Built with one hash table for the edges, then
// flattened: parsing lines as Strings with a dictionary per trie node took ~20 ms for en_US, a tenth of a
// 50-page document's run.

struct PatternTrie {
    /// The edges of node n are `edgeBytes/edgeTargets[edgeStart[n]..<edgeStart[n+1]]`, sorted by byte.
    /// `nodeValues[n]` indexes `valueTable` when a pattern ends at node n (-1 otherwise).
    private var edgeStart: [Int32] = []
    private var edgeBytes: [UInt8] = []
    private var edgeTargets: [Int32] = []
    private var nodeValues: [Int32] = []
    /// Each pattern's digits, one per byte position of its letters plus one (position i: before byte i).
    private var valueTable: [[UInt8]] = []
    var patternCount: Int { valueTable.count }

    struct Builder {
        private var nodeCount: Int32 = 1
        private var edges: [Int: Int32] = [:]  // node << 8 | byte -> target
        private var ends: [Int32: Int] = [:]
        private var table: [[UInt8]] = []
        private var letters: [UInt8] = [], digits: [UInt8] = []

        init(capacity: Int) { edges.reserveCapacity(capacity) }

        /// One pattern such as `.ab3a4s` (letters as UTF-8, digits between them).
        mutating func add(_ line: ArraySlice<UInt8>) {
            letters.removeAll(keepingCapacity: true)
            digits.removeAll(keepingCapacity: true)
            digits.append(0)
            for b in line {
                if b >= 48 && b <= 57 { digits[digits.count - 1] = b - 48 } else {
                    letters.append(b)
                    digits.append(0)
                }
            }
            guard !letters.isEmpty else { return }
            var node: Int32 = 0
            for b in letters {
                let key = Int(node) << 8 | Int(b)
                if let target = edges[key] { node = target } else {
                    edges[key] = nodeCount
                    node = nodeCount
                    nodeCount += 1
                }
            }
            ends[node] = table.count
            table.append(digits)
        }

        func build() -> PatternTrie {
            var trie = PatternTrie()
            trie.valueTable = table
            // Edges sorted by (node, byte) give each node's edges contiguous and in byte order.
            let sorted = edges.sorted { $0.key < $1.key }
            trie.edgeStart = [Int32](repeating: 0, count: Int(nodeCount) + 1)
            trie.edgeBytes.reserveCapacity(sorted.count)
            trie.edgeTargets.reserveCapacity(sorted.count)
            for (key, target) in sorted {
                trie.edgeStart[(key >> 8) + 1] += 1
                trie.edgeBytes.append(UInt8(key & 0xFF))
                trie.edgeTargets.append(target)
            }
            for n in 0..<Int(nodeCount) { trie.edgeStart[n + 1] += trie.edgeStart[n] }
            trie.nodeValues = (0..<nodeCount).map { Int32(clamping: ends[$0] ?? -1) }
            return trie
        }
    }

    /// The highest pattern digit at each byte position of `bytes` (".word." as lower-cased UTF-8).
    func levels(_ bytes: [UInt8]) -> [UInt8] {
        var levels = [UInt8](repeating: 0, count: bytes.count + 1)
        edgeStart.withUnsafeBufferPointer { starts in
            edgeBytes.withUnsafeBufferPointer { eb in
                edgeTargets.withUnsafeBufferPointer { et in
                    for i in 0..<bytes.count {
                        var node = 0
                        var j = i
                        while j < bytes.count {
                            let b = bytes[j]
                            var k = Int(starts[node])
                            let end = Int(starts[node + 1])
                            var found = -1
                            while k < end {
                                if eb[k] == b { found = Int(et[k]); break }
                                if eb[k] > b { break }
                                k += 1
                            }
                            if found < 0 { break }
                            node = found
                            j += 1
                            let v = nodeValues[node]
                            if v >= 0 {
                                let digits = valueTable[Int(v)]
                                for (d, value) in digits.enumerated() where value > levels[i + d] { levels[i + d] = value }
                            }
                        }
                    }
                }
            }
        }
        return levels
    }
}
