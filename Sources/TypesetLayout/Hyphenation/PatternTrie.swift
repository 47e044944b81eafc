// One level of Liang patterns as a byte trie over UTF-8, flattened into arrays (parsing lines as Strings with a
// dictionary per trie node took ~20 ms for en_US, a tenth of a 50-page document's run).

struct PatternTrie {
    /// The edges of node n are `edgeBytes/edgeTargets[edgeStart[n]..<edgeStart[n+1]]`, sorted by byte.
    /// `nodeValues[n]` is the pattern ending at node n (-1: none); pattern k's digits are
    /// `digits[digitStart[k]...]`, one per byte position of its letters plus one (position i: before byte i).
    private var edgeStart: [Int32] = []
    private var edgeBytes: [UInt8] = []
    private var edgeTargets: [Int32] = []
    private var nodeValues: [Int32] = []
    private var digitStart: [Int32] = []
    private var digitCount: [UInt8] = []
    private var digits: [UInt8] = []
    var patternCount: Int { digitStart.count }

    /// Collects patterns, then builds the trie by inserting them in byte order: each new pattern shares only
    /// its common prefix with the one before, so nodes come out without a hash table (German's 77,000
    /// patterns load several times faster than with one), and a counting sort lays out the edges.
    struct Builder {
        private var letters: [UInt8] = []
        private var patterns: [(start: Int, count: Int)] = []
        private var digits: [UInt8] = []
        private var digitStart: [Int32] = []

        init(capacity: Int) {
            letters.reserveCapacity(capacity)
            digits.reserveCapacity(capacity)
        }

        /// One pattern such as `.ab3a4s` (letters as UTF-8, digits between them).
        mutating func add(_ line: ArraySlice<UInt8>) {
            let start = letters.count, firstDigit = digits.count
            digits.append(0)
            for b in line {
                if b >= 48 && b <= 57 { digits[digits.count - 1] = b - 48 } else {
                    letters.append(b)
                    digits.append(0)
                }
            }
            // The longest pattern in any file is about 40 letters; longer lines are not patterns.
            guard letters.count > start, letters.count - start < 255 else {
                letters.removeSubrange(start...)
                digits.removeSubrange(firstDigit...)
                return
            }
            patterns.append((start, letters.count - start))
            digitStart.append(Int32(clamping: firstDigit))
        }

        func build() -> PatternTrie {
            let word = { (k: Int) in letters[patterns[k].start ..< patterns[k].start + patterns[k].count] }
            var order = Array(patterns.indices)
            // Files are not sorted (en_US, hu_HU): compare by the first 8 bytes packed, then by the rest.
            let keys = patterns.map { p -> UInt64 in
                var key: UInt64 = 0
                for i in 0..<8 { key = key << 8 | UInt64(i < p.count ? letters[p.start + i] : 0) }
                return key
            }
            order.sort { a, b in
                keys[a] != keys[b] ? keys[a] < keys[b] : word(a).lexicographicallyPrecedes(word(b))
            }
            var parents: [Int32] = [], bytes: [UInt8] = []
            var ends: [(node: Int32, value: Int32)] = []
            var path: [Int32] = [0]
            var previous = letters[0..<0]
            for k in order {
                let current = word(k)
                var common = 0
                while common < previous.count && common < current.count
                    && previous[previous.startIndex + common] == current[current.startIndex + common] { common += 1 }
                path.removeLast(path.count - 1 - common)
                for b in current.dropFirst(common) {
                    parents.append(path[path.count - 1])
                    bytes.append(b)
                    path.append(Int32(clamping: parents.count))  // node 0 is the root: child i is node i + 1
                }
                ends.append((path[path.count - 1], Int32(clamping: k)))
                previous = current
            }
            var trie = PatternTrie()
            trie.digits = digits
            trie.digitStart = digitStart
            trie.digitCount = patterns.map { UInt8(clamping: $0.count + 1) }
            let nodeCount = parents.count + 1
            trie.edgeStart = [Int32](repeating: 0, count: nodeCount + 1)
            for p in parents { trie.edgeStart[Int(p) + 1] += 1 }
            for n in 0..<nodeCount { trie.edgeStart[n + 1] += trie.edgeStart[n] }
            // Stable by parent: a node's children were made in byte order, so its edges stay sorted.
            var fill = trie.edgeStart
            trie.edgeBytes = [UInt8](repeating: 0, count: parents.count)
            trie.edgeTargets = [Int32](repeating: 0, count: parents.count)
            for (i, p) in parents.enumerated() {
                let slot = Int(fill[Int(p)])
                fill[Int(p)] += 1
                trie.edgeBytes[slot] = bytes[i]
                trie.edgeTargets[slot] = Int32(clamping: i + 1)
            }
            trie.nodeValues = [Int32](repeating: -1, count: nodeCount)
            for end in ends { trie.nodeValues[Int(end.node)] = end.value }
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
                            let v = Int(nodeValues[node])
                            if v >= 0 {
                                let first = Int(digitStart[v])
                                for d in 0..<Int(digitCount[v]) where digits[first + d] > levels[i + d] {
                                    levels[i + d] = digits[first + d]
                                }
                            }
                        }
                    }
                }
            }
        }
        return levels
    }
}
