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
    public init(dictionary contents: String) {
        var left = 2, right = 3
        var builder: [[UInt8: Int32]] = [[:]]
        var ends: [Int32: Int] = [:]
        var table: [[UInt8]] = []
        for (number, rawLine) in contents.split(whereSeparator: { $0 == "\n" || $0 == "\r" }).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if number == 0 || line.isEmpty || line.hasPrefix("%") || line.hasPrefix("#") { continue }
            if line.hasPrefix("LEFTHYPHENMIN") || line.hasPrefix("RIGHTHYPHENMIN") {
                let value = Int(line.split(separator: " ").last ?? "") ?? 0
                if value > 0 { if line.hasPrefix("LEFT") { left = value } else { right = value } }
                continue
            }
            // Other header keywords (COMPOUND..., NOHYPHEN); NEXTLEVEL starts libhyphen's compound level: stop there.
            if line.first!.isUppercase && line.allSatisfy({ $0.isUppercase || $0.isNumber || $0 == " " || $0 == "," }) {
                if line == "NEXTLEVEL" { break }
                continue
            }
            // Non-standard patterns (`eszett/sz=,1,1`) change letters: not supported, skipped.
            if line.contains("/") { continue }
            var letters: [UInt8] = []
            var digits: [UInt8] = [0]
            for b in line.utf8 {
                if b >= 48 && b <= 57 { digits[digits.count - 1] = b - 48 } else {
                    letters.append(b)
                    digits.append(0)
                }
            }
            guard !letters.isEmpty else { continue }
            var node: Int32 = 0
            for b in letters {
                if let next = builder[Int(node)][b] { node = next } else {
                    builder.append([:])
                    let next = Int32(builder.count - 1)
                    builder[Int(node)][b] = next
                    node = next
                }
            }
            ends[node] = table.count
            table.append(digits)
        }
        leftMin = left
        rightMin = right
        valueTable = table
        edgeStart.reserveCapacity(builder.count + 1)
        for (n, edges) in builder.enumerated() {
            edgeStart.append(Int32(edgeBytes.count))
            for (b, target) in edges.sorted(by: { $0.key < $1.key }) {
                edgeBytes.append(b)
                edgeTargets.append(target)
            }
            nodeValues.append(Int32(ends[Int32(n)] ?? -1))
        }
        edgeStart.append(Int32(edgeBytes.count))
    }

    public convenience init?(contentsOf path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(dictionary: String(decoding: data, as: UTF8.self))
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
