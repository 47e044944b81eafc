// One level of Liang patterns as a byte trie over UTF-8. The edges live in one open-addressing hash table
// keyed by (node, byte), filled in a single pass over the file's lines: no sort and no per-node containers.
// Loading en_US's 11,000 patterns this way takes about a tenth of the instructions of sorting them into
// arrays first, and loading them is part of every one-page document that hyphenates (issue 14, start-up).

struct PatternTrie {
    /// Slot s holds the edge from node `keys[s] >> 8` over byte `keys[s] & 0xFF` to node `targets[s]`;
    /// 0 marks an empty slot (a pattern byte is never 0). `keys.count` is a power of two.
    private var keys: [UInt32]
    private var targets: [Int32]
    /// `nodeValues[n]` is the pattern ending at node n (-1: none); pattern k's digits are
    /// `digits[digitStart[k]...]`, one per byte position of its letters plus one (position i: before byte i).
    private var nodeValues: [Int32]
    private var digitStart: [Int32]
    private var digitCount: [UInt8]
    private var digits: [UInt8]
    var patternCount: Int { digitStart.count }

    /// Nodes are numbered in 24 bits (the key keeps 8 for the byte): far above any pattern file.
    private static let maxNodes = 1 << 24 - 1

    private init() {
        keys = [UInt32](repeating: 0, count: 1024)
        targets = [Int32](repeating: 0, count: 1024)
        nodeValues = [-1]  // the root
        digitStart = []
        digitCount = []
        digits = []
    }

    @inline(__always) private static func slot(_ key: UInt32, _ mask: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> 40) & mask
    }

    /// Collects one level's patterns; `build()` hands the trie over.
    struct Builder {
        private var trie = PatternTrie()
        private var edges = 0
        /// Digits written so far: `trie.digits` is allocated once at its bound and cut to this in `build()`.
        private var used = 0

        /// `bound`: the length of the level's text plus one; a pattern's digits (letters + 1) never take more
        /// than its line and line end, so all of them fit.
        init(bound: Int) {
            trie.digits = [UInt8](repeating: 0, count: bound)
        }

        /// One pattern such as `.ab3a4s` (letters as UTF-8, digits between them). Patterns with no letters or
        /// 255 or more are skipped (the longest in any file is about 40 letters); a repeated pattern replaces
        /// the earlier one.
        mutating func add(_ line: UnsafeBufferPointer<UInt8>) {
            var letters = 0
            for b in line where b < 48 || b > 57 { letters += 1 }
            guard letters > 0, letters < 255, trie.nodeValues.count + letters <= PatternTrie.maxNodes,
                  used + letters + 1 <= trie.digits.count else { return }
            // Room for every letter to make a node, so the walk below never resizes the table.
            while (edges + letters) * 2 > trie.keys.count { grow() }
            let first = used
            used += letters + 1
            var node = 0
            let before = trie.nodeValues.count
            trie.digits.withUnsafeMutableBufferPointer { digits in
                trie.keys.withUnsafeMutableBufferPointer { keys in
                    trie.targets.withUnsafeMutableBufferPointer { targets in
                        let mask = keys.count - 1
                        var position = first
                        for b in line {
                            if b >= 48 && b <= 57 {
                                digits[position] = b - 48
                                continue
                            }
                            position += 1
                            // The edge from `node` over `b`, made when missing.
                            let key = UInt32(truncatingIfNeeded: node) << 8 | UInt32(b)
                            var s = PatternTrie.slot(key, mask)
                            while keys[s] != 0 && keys[s] != key { s = (s + 1) & mask }
                            if keys[s] == 0 {
                                keys[s] = key
                                targets[s] = Int32(truncatingIfNeeded: trie.nodeValues.count)
                                trie.nodeValues.append(-1)
                            }
                            node = Int(targets[s])
                        }
                    }
                }
            }
            edges += trie.nodeValues.count - before
            trie.nodeValues[node] = Int32(truncatingIfNeeded: trie.digitStart.count)
            trie.digitStart.append(Int32(truncatingIfNeeded: first))
            trie.digitCount.append(UInt8(truncatingIfNeeded: letters + 1))
        }

        /// Doubles the table (kept at most half full, so probes stay short).
        private mutating func grow() {
            let oldKeys = trie.keys, oldTargets = trie.targets
            let size = oldKeys.count * 2, mask = size - 1
            var keys = [UInt32](repeating: 0, count: size)
            var targets = [Int32](repeating: 0, count: size)
            for (i, key) in oldKeys.enumerated() where key != 0 {
                var s = PatternTrie.slot(key, mask)
                while keys[s] != 0 { s = (s + 1) & mask }
                keys[s] = key
                targets[s] = oldTargets[i]
            }
            trie.keys = keys
            trie.targets = targets
        }

        func build() -> PatternTrie {
            var built = trie
            built.digits = Array(trie.digits[..<used])
            return built
        }
    }

    /// The highest pattern digit at each byte position of `bytes` (".word." as lower-cased UTF-8).
    func levels(_ bytes: [UInt8]) -> [UInt8] {
        var levels = [UInt8](repeating: 0, count: bytes.count + 1)
        let mask = keys.count - 1
        keys.withUnsafeBufferPointer { keys in
            targets.withUnsafeBufferPointer { targets in
                for i in 0..<bytes.count {
                    var node = 0
                    var j = i
                    while j < bytes.count {
                        let key = UInt32(truncatingIfNeeded: node) << 8 | UInt32(bytes[j])
                        var s = PatternTrie.slot(key, mask)
                        var found = -1
                        while keys[s] != 0 {
                            if keys[s] == key { found = Int(targets[s]); break }
                            s = (s + 1) & mask
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
        return levels
    }
}
