// Liang hyphenation over the pattern files of Debian's `hyphen-*` packages (`/usr/share/hyphen/hyph_*.dic`,
// the format libhyphen and LibreOffice read). Pure Swift: the file is decoded from its charset to UTF-8,
// patterns go into byte tries, and a word is looked up as lower-cased UTF-8 bytes, so the hot path never builds
// Characters or Strings. A file with `NEXTLEVEL` has two levels, as libhyphen reads them: the first splits a
// compound into its words (German), the second hyphenates each word.

import Foundation

public final class Hyphenator: @unchecked Sendable {
    // @unchecked Sendable: the tries are immutable after init; the word cache is guarded by `cacheLock`.

    /// Fewest letters before / after a hyphen: the file's LEFTHYPHENMIN / RIGHTHYPHENMIN, else the language's
    /// TeX default (`HyphenationDictionaries.defaultMinimums`), else 2 / 3.
    public let leftMin: Int
    public let rightMin: Int
    /// The same beside a compound boundary found by the first level (COMPOUNDLEFT/RIGHTHYPHENMIN, default 2 / 2).
    public let compoundLeftMin: Int
    public let compoundRightMin: Int

    private let compoundLevel: PatternTrie?
    private let wordLevel: PatternTrie

    /// Patterns read, both levels (tests).
    var patternCount: Int { wordLevel.patternCount + (compoundLevel?.patternCount ?? 0) }

    private let cacheLock = NSLock()
    private var cache: [[UInt8]: [Int]] = [:]

    /// Parses a `.dic` file's contents given as a String (so already Unicode: the charset line is skipped).
    public convenience init(dictionary contents: String) {
        let bytes = Array(contents.utf8)
        let firstEnd = bytes.firstIndex(where: { $0 == 10 || $0 == 13 }) ?? bytes.count
        self.init(utf8: bytes[firstEnd...], defaults: (2, 3))
    }

    /// Reads a file's bytes: the first line names the charset (`ISO8859-1`, `KOI8-R`); nil when it is not known.
    public convenience init?(contentsOf path: String, defaults: (left: Int, right: Int) = (2, 3)) {
        guard let raw = Hyphenator.fileBytes(path) else { return nil }
        let firstEnd = raw.firstIndex(where: { $0 == 10 || $0 == 13 }) ?? raw.count
        let charset = String(decoding: raw[0..<firstEnd], as: UTF8.self)
        guard let bytes = DictionaryCharset.utf8(raw[firstEnd...], charset: charset) else { return nil }
        self.init(utf8: bytes[...], defaults: defaults)
    }

    static let maxFileBytes = 64 << 20

    /// A file's bytes with plain POSIX reads: FileManager's Data path pulls in Foundation code (pages mapped and
    /// metadata instantiated) that a one-page build otherwise never runs (issue 14, start-up).
    /// Files over `maxFileBytes` are not read (as if missing): real pattern files are under 1 MB, and the bound
    /// keeps every trie index PatternTrie stores in 32 bits far below 2^31.
    static func fileBytes(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= maxFileBytes else { return nil }
        var bytes = [UInt8](repeating: 0, count: max(Int(info.st_size), 0))
        var got = 0
        while got < bytes.count {
            let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + got, $0.count - got) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            got += n
        }
        return bytes
    }

    /// The lines after the charset line, as UTF-8.
    init(utf8 bytes: ArraySlice<UInt8>, defaults: (left: Int, right: Int)) {
        var header: [String: Int] = [:]
        var levels: [PatternTrie.Builder] = [PatternTrie.Builder(bound: bytes.count + 1)]
        bytes.withUnsafeBufferPointer { bytes in
            var lineStart = 0
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count && bytes[lineEnd] != 10 && bytes[lineEnd] != 13 { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                var lo = lineStart, hi = lineEnd
                while lo < hi && (bytes[lo] == 32 || bytes[lo] == 9) { lo += 1 }
                while hi > lo && (bytes[hi - 1] == 32 || bytes[hi - 1] == 9) { hi -= 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[lo..<hi])
                guard let first = line.first, first != 37, first != 35 else { continue }  // empty, "%", "#"
                // Header keywords: LEFTHYPHENMIN 2, COMPOUNDLEFTHYPHENMIN 2, NOHYPHEN ..., NEXTLEVEL.
                // Patterns are lower case: a line starting with a capital is a keyword.
                if (65...90).contains(first) {
                    let words = line.split(separator: 32).map { String(decoding: $0, as: UTF8.self) }
                    if words == ["NEXTLEVEL"] {
                        levels.append(PatternTrie.Builder(bound: bytes.count + 1))
                    } else if words.count == 2, let value = Int(words[1]), value > 0 {
                        header[words[0]] = value
                    }
                    continue
                }
                // Non-standard patterns (`eszett/sz=,1,1`) change letters: not supported, skipped.
                if line.contains(47) { continue }
                levels[levels.count - 1].add(line)
            }
        }
        leftMin = header["LEFTHYPHENMIN"] ?? defaults.left
        rightMin = header["RIGHTHYPHENMIN"] ?? defaults.right
        compoundLeftMin = header["COMPOUNDLEFTHYPHENMIN"] ?? 2
        compoundRightMin = header["COMPOUNDRIGHTHYPHENMIN"] ?? 2
        wordLevel = levels[levels.count - 1].build()
        compoundLevel = levels.count > 1 ? levels[0].build() : nil
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
        scalarStarts.reserveCapacity(word.count + 1)
        for s in word {
            scalarStarts.append(bytes.count)
            let v = s.value
            if v < 0x80 {
                bytes.append(UInt8(v >= 65 && v <= 90 ? v + 32 : v))
            } else {
                for ls in s.properties.lowercaseMapping.unicodeScalars { bytes.append(contentsOf: UTF8.encode(ls)!) }
            }
        }
        scalarStarts.append(bytes.count)
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

    /// `bytes` is ".word.", `scalarStarts` where each scalar starts in it (plus the end of the last).
    private func compute(_ bytes: [UInt8], scalarStarts: [Int]) -> [Int] {
        let n = scalarStarts.count - 1
        var compoundBreaks: [Int] = []
        if let compoundLevel {
            let levels = compoundLevel.levels(bytes)
            compoundBreaks = oddPoints(levels, scalarStarts, from: 0, to: n, left: compoundLeftMin, right: compoundRightMin)
        }
        // Each part between compound breaks is hyphenated as a word of its own (".part.").
        var points: [Int] = []
        var start = 0
        for end in compoundBreaks + [n] {
            if start > 0 { points.append(start) }
            var part: [UInt8] = [46]
            part.append(contentsOf: bytes[scalarStarts[start]..<scalarStarts[end]])
            part.append(46)
            let shift = scalarStarts[start] - 1
            let starts = scalarStarts[start...end].map { $0 - shift }
            let levels = wordLevel.levels(part)
            points += oddPoints(levels, starts, from: 0, to: end - start,
                                left: start == 0 ? leftMin : compoundLeftMin,
                                right: end == n ? rightMin : compoundRightMin).map { $0 + start }
            start = end
        }
        return points.filter { $0 >= leftMin && n - $0 >= rightMin }
    }

    /// Scalar offsets k in from+left...to-right whose level before scalar k is odd.
    private func oddPoints(_ levels: [UInt8], _ starts: [Int], from: Int, to: Int, left: Int, right: Int) -> [Int] {
        guard to - right >= from + left else { return [] }
        return (from + left...to - right).filter { levels[starts[$0]] & 1 == 1 }
    }
}
