// Liang hyphenation over the pattern files of the system's `hyphen` package (`/usr/share/hyphen/hyph_*.dic`,
// the format libhyphen and LibreOffice read). Pure Swift: patterns go into a byte trie (UTF-8), and a word is
// looked up as lower-cased UTF-8 bytes, so the hot path never builds Characters or Strings.

import Foundation

public final class Hyphenator: @unchecked Sendable {
    // @unchecked Sendable: the trie is immutable after init; the word cache is guarded by `cacheLock`.

    /// Fewest letters before / after a hyphen (the file's LEFTHYPHENMIN / RIGHTHYPHENMIN, default 2 / 3).
    public let leftMin: Int
    public let rightMin: Int

    /// Trie over pattern bytes, flattened: the edges of node n are `edgeBytes/edgeTargets[edgeStart[n]..<edgeStart[n+1]]`,
    /// sorted by byte. `values[n]` indexes `valueTable` when a pattern ends at node n (-1 otherwise).
    private var edgeStart: [Int32] = []
    private var edgeBytes: [UInt8] = []
    private var edgeTargets: [Int32] = []
    private var nodeValues: [Int32] = []
    /// Each pattern's digits, one per byte position of its letters plus one (position i: before byte i).
    private var valueTable: [[UInt8]] = []

    private let cacheLock = NSLock()
    private var cache: [[UInt8]: [Int]] = [:]

    /// Parses a `.dic` file's contents. The first line names the encoding (only UTF-8 files are read correctly).
    public convenience init(dictionary contents: String) {
        self.init(bytes: Array(contents.utf8))
    }

    /// The same from the file's bytes. Works on bytes with one hash table for the trie's edges: parsing lines as
    /// Strings with a dictionary per trie node took ~20 ms for en_US, a tenth of a 50-page document's run.
    init(bytes: [UInt8]) {
        var left = 2, right = 3
        var nodeCount: Int32 = 1
        var edges: [Int: Int32] = [:]  // node << 8 | byte -> target
        edges.reserveCapacity(bytes.count / 2)
        var ends: [Int32: Int] = [:]
        var table: [[UInt8]] = []
        var number = 0
        var lineStart = 0
        var letters: [UInt8] = [], digits: [UInt8] = []
        lines: while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count && bytes[lineEnd] != 10 && bytes[lineEnd] != 13 { lineEnd += 1 }
            let next = lineEnd + 1
            defer { lineStart = next }
            if lineEnd == lineStart { continue }  // empty lines are not counted (the first line is the encoding)
            number += 1
            var lo = lineStart, hi = lineEnd
            while lo < hi && (bytes[lo] == 32 || bytes[lo] == 9) { lo += 1 }
            while hi > lo && (bytes[hi - 1] == 32 || bytes[hi - 1] == 9) { hi -= 1 }
            let line = bytes[lo..<hi]
            if number == 1 || line.isEmpty || line.first == 37 || line.first == 35 { continue }  // "%", "#"
            if Self.hasPrefix(line, "LEFTHYPHENMIN") || Self.hasPrefix(line, "RIGHTHYPHENMIN") {
                let value = Int(String(decoding: line.split(separator: 32).last ?? [], as: UTF8.self)) ?? 0
                if value > 0 { if line.first == 76 { left = value } else { right = value } }
                continue
            }
            // Other header keywords (COMPOUND..., NOHYPHEN); NEXTLEVEL starts libhyphen's compound level: stop there.
            if (65...90).contains(line.first!)
                && line.allSatisfy({ (65...90).contains($0) || (48...57).contains($0) || $0 == 32 || $0 == 44 }) {
                if Self.hasPrefix(line, "NEXTLEVEL") && line.count == 9 { break lines }
                continue
            }
            // Non-standard patterns (`eszett/sz=,1,1`) change letters: not supported, skipped.
            if line.contains(47) { continue }
            letters.removeAll(keepingCapacity: true)
            digits.removeAll(keepingCapacity: true)
            digits.append(0)
            for b in line {
                if b >= 48 && b <= 57 { digits[digits.count - 1] = b - 48 } else {
                    letters.append(b)
                    digits.append(0)
                }
            }
            guard !letters.isEmpty else { continue }
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
        leftMin = left
        rightMin = right
        valueTable = table
        // Flatten: edges sorted by (node, byte) give each node's edges contiguous and in byte order.
        let sorted = edges.sorted { $0.key < $1.key }
        edgeStart = [Int32](repeating: 0, count: Int(nodeCount) + 1)
        edgeBytes.reserveCapacity(sorted.count)
        edgeTargets.reserveCapacity(sorted.count)
        for (key, target) in sorted {
            edgeStart[(key >> 8) + 1] += 1
            edgeBytes.append(UInt8(key & 0xFF))
            edgeTargets.append(target)
        }
        for n in 0..<Int(nodeCount) { edgeStart[n + 1] += edgeStart[n] }
        nodeValues = (0..<nodeCount).map { Int32(clamping: ends[$0] ?? -1) }
    }

    private static func hasPrefix(_ line: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        let p = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return line.count >= p.count && zip(line, p).allSatisfy { $0 == $1 }
    }

    public convenience init?(contentsOf path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(bytes: [UInt8](data))
    }

    /// Offsets (in Unicode scalars from the word's start) where `word` may be hyphenated: "hyphenation" -> [2, 6].
    public func hyphenationPoints(_ word: String) -> [Int] {
        Array(word.unicodeScalars).withUnsafeBufferPointer { hyphenationPoints(scalars: $0) }
    }

    /// The same for a word given as Unicode scalars; repeated words come from a cache.
    func hyphenationPoints(scalars word: UnsafeBufferPointer<Unicode.Scalar>) -> [Int] {
        guard word.count >= leftMin + rightMin else { return [] }
        // Lower-cased UTF-8 of ".word." and where each of the word's scalars starts in it.
        var bytes: [UInt8] = [46]
        bytes.reserveCapacity(word.count + 4)
        var scalarStarts: [Int] = []
        scalarStarts.reserveCapacity(word.count)
        for s in word {
            scalarStarts.append(bytes.count)
            let v = s.value
            if v < 0x80 {
                bytes.append(UInt8(v >= 65 && v <= 90 ? v + 32 : v))
            } else {
                for ls in s.properties.lowercaseMapping.unicodeScalars { bytes.append(contentsOf: UTF8.encode(ls)!) }
            }
        }
        bytes.append(46)
        cacheLock.lock()
        if let cached = cache[bytes] {
            cacheLock.unlock()
            return cached
        }
        cacheLock.unlock()
        let points = compute(bytes, scalarStarts: scalarStarts)
        cacheLock.lock()
        if cache.count > 200_000 { cache.removeAll(keepingCapacity: true) }  // bound memory on huge vocabularies
        cache[bytes] = points
        cacheLock.unlock()
        return points
    }

    private func compute(_ bytes: [UInt8], scalarStarts: [Int]) -> [Int] {
        var levels = [UInt8](repeating: 0, count: bytes.count + 1)
        edgeStart.withUnsafeBufferPointer { starts in
            edgeBytes.withUnsafeBufferPointer { eb in
                edgeTargets.withUnsafeBufferPointer { et in
                    for i in 0..<bytes.count {
                        var node = 0
                        var j = i
                        while j < bytes.count {
                            let b = bytes[j]
                            var k = Int(starts[node]), end = Int(starts[node + 1])
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
        // An odd level before scalar k, with enough letters on both sides, is a hyphenation point.
        var points: [Int] = []
        if scalarStarts.count - rightMin >= leftMin {
            for k in leftMin...(scalarStarts.count - rightMin) where levels[scalarStarts[k]] & 1 == 1 { points.append(k) }
        }
        return points
    }
}
