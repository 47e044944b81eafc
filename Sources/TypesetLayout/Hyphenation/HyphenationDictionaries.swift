// Finds and caches the pattern file for a paragraph language: loaded once per language per process.

import Foundation

public enum HyphenationDictionaries {
    /// Where Debian's `hyphen-*` packages put their patterns.
    public static let directory = "/usr/share/hyphen"

    /// The usual region when a tag names only a language (`de` -> `de_DE`).
    static let defaultRegion: [String: String] = [
        "en": "US", "de": "DE", "fr": "FR", "es": "ES", "it": "IT", "nl": "NL", "pt": "PT", "sv": "SE",
        "da": "DK", "nb": "NO", "nn": "NO", "fi": "FI", "pl": "PL", "cs": "CZ", "sk": "SK", "hu": "HU",
        "ru": "RU", "uk": "UA", "ro": "RO", "hr": "HR", "sl": "SI", "el": "GR", "ca": "ES", "lt": "LT",
        "lv": "LV", "bg": "BG", "sr": "RS", "is": "IS", "gl": "ES", "af": "ZA", "id": "ID", "te": "IN",
    ]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: Hyphenator?] = [:]  // guarded by `lock`

    /// The hyphenator for a BCP 47 tag, or nil when no pattern file exists. `isNewlyMissing` is true the first
    /// time a language turns out to have no patterns in this process (warn then, once).
    public static func hyphenator(for language: String) -> (hyphenator: Hyphenator?, isNewlyMissing: Bool) {
        let key = language.lowercased()
        lock.lock()
        defer { lock.unlock() }
        if let known = loaded[key] { return (known, false) }
        var found: Hyphenator? = nil
        for name in candidateFiles(for: key) {
            let path = directory + "/" + name
            if FileManager.default.fileExists(atPath: path), let h = Hyphenator(contentsOf: path) {
                found = h
                break
            }
        }
        loaded[key] = .some(found)
        return (found, found == nil)
    }

    public static func candidateFilesForTesting(_ tag: String) -> [String] { candidateFiles(for: tag.lowercased()) }

    /// File names to try, most specific first: `en-GB` -> hyph_en_GB, hyph_en_US (default region), hyph_en.
    static func candidateFiles(for tag: String) -> [String] {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let lang = parts.first, !lang.isEmpty else { return [] }
        var names: [String] = []
        if parts.count > 1, let region = parts.last, region.count == 2 {
            names.append("hyph_\(lang)_\(region.uppercased()).dic")
        }
        if let region = defaultRegion[lang] { names.append("hyph_\(lang)_\(region).dic") }
        names.append("hyph_\(lang).dic")
        // Any region of the language as a last resort.
        if let files = try? FileManager.default.contentsOfDirectory(atPath: directory) {
            names += files.filter { $0.hasPrefix("hyph_\(lang)_") && $0.hasSuffix(".dic") }.sorted()
        }
        return names
    }
}
