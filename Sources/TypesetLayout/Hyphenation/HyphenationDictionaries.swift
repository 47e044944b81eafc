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

    /// TeX's \lefthyphenmin / \righthyphenmin by language (hyph-utf8, babel), for files whose header
    /// gives none; a header's LEFTHYPHENMIN / RIGHTHYPHENMIN wins. Unlisted languages: 2 / 3.
    static let defaultMinimums: [String: (left: Int, right: Int)] = [
        "en": (2, 3), "de": (2, 2), "fr": (2, 3), "es": (2, 2), "it": (2, 2), "nl": (2, 2), "pt": (2, 3),
        "sv": (2, 2), "da": (2, 2), "nb": (2, 2), "nn": (2, 2), "pl": (2, 2), "cs": (2, 3), "sk": (2, 3),
        "hu": (2, 2), "ro": (2, 2), "ru": (2, 2), "uk": (2, 2), "el": (1, 1), "fi": (2, 2), "hr": (2, 2),
        "sl": (2, 2), "ca": (2, 2), "bg": (2, 2), "lt": (2, 2), "lv": (2, 2), "is": (2, 2), "gl": (2, 2),
    ]

    /// Tags whose patterns live under another language's name: Norwegian `no` is Bokmål.
    static let languageAliases: [String: String] = ["no": "nb", "nob": "nb", "nno": "nn"]

    private static let lock = NSLock()
    nonisolated(unsafe) private static var loaded: [String: Hyphenator?] = [:]  // guarded by `lock`
    /// By the pattern file's resolved path: `de`, `de-CH` and `de-AT` share one (symlinked) file.
    nonisolated(unsafe) private static var loadedFiles: [String: Hyphenator] = [:]  // guarded by `lock`

    /// The hyphenator for a BCP 47 tag, or nil when no pattern file exists. `isNewlyMissing` is true the first
    /// time a language turns out to have no patterns in this process (warn then, once). Files load on first use.
    public static func hyphenator(for language: String) -> (hyphenator: Hyphenator?, isNewlyMissing: Bool) {
        let key = language.lowercased()
        lock.lock()
        defer { lock.unlock() }
        if let known = loaded[key] { return (known, false) }
        let found = find(key)
        loaded[key] = .some(found)
        return (found, found == nil)
    }

    /// Loads the patterns for `language` on another thread (PatternLoader's when it runs), so they are read
    /// while fontconfig starts (issue 14, start-up); a paragraph asking meanwhile waits for them. Once per
    /// language. A language without patterns is not recorded: the paragraph that asks still warns.
    public static func preload(_ language: String) {
        let key = language.lowercased()
        guard preloadLock.withLock({ preloaded.insert(key).inserted }) else { return }
        if PatternLoader.enqueue(key) { return }
        Thread.detachNewThread { load(key) }
    }

    /// Starts the thread that `preload` hands languages to: call before libqpdf starts loading.
    public static func startLoader() { PatternLoader.start() }

    /// Not `lock`, which a load holds while it reads.
    private static let preloadLock = NSLock()
    nonisolated(unsafe) private static var preloaded: Set<String> = []  // guarded by `preloadLock`

    static func load(_ key: String) {
        lock.lock()
        defer { lock.unlock() }
        if loaded[key] == nil, let found = find(key) { loaded[key] = .some(found) }
    }

    /// The hyphenator for a lower-cased tag, from a file loaded before or read now; the caller holds `lock`.
    private static func find(_ key: String) -> Hyphenator? {
        var found: Hyphenator? = nil
        let defaults = defaultMinimums[primaryLanguage(key)] ?? (2, 3)
        // The folder is listed only when no file has the usual name.
        for names in [{ namedFiles(for: key) }, { regionFiles(for: key) }] where found == nil {
            for name in names() {
                let path = resolved(directory + "/" + name)
                if let shared = loadedFiles[path] {
                    found = shared
                    break
                }
                if access(path, R_OK) == 0, let h = Hyphenator(contentsOf: path, defaults: defaults) {
                    loadedFiles[path] = h
                    found = h
                    break
                }
            }
        }
        return found
    }

    /// The path with symlinks resolved (realpath), or as given when it does not exist.
    private static func resolved(_ path: String) -> String {
        guard let real = realpath(path, nil) else { return path }
        defer { free(real) }
        return String(cString: real)
    }

    /// The pattern files read so far in this process (`--verbose`; tests check they stay unread when no
    /// paragraph hyphenates).
    public static func loadedPatternFiles() -> [String] {
        lock.lock()
        defer { lock.unlock() }
        return loadedFiles.keys.sorted()
    }

    public static func candidateFilesForTesting(_ tag: String) -> [String] { candidateFiles(for: tag.lowercased()) }

    /// `de-CH-1901` -> de, `no` -> nb.
    static func primaryLanguage(_ tag: String) -> String {
        let lang = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        return languageAliases[lang] ?? lang
    }

    /// File names to try, most specific first: `en-GB` -> hyph_en_GB, hyph_en_US (default region), hyph_en,
    /// then any region of the language.
    static func candidateFiles(for tag: String) -> [String] { namedFiles(for: tag) + regionFiles(for: tag) }

    /// The region is the first two-letter subtag after the language (`sr-Latn-RS`, `de-CH-1901`).
    static func namedFiles(for tag: String) -> [String] {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        let lang = primaryLanguage(tag)
        guard !lang.isEmpty else { return [] }
        var names: [String] = []
        if let region = parts.dropFirst().first(where: { $0.count == 2 && $0.allSatisfy(\.isLetter) }) {
            names.append("hyph_\(lang)_\(region.uppercased()).dic")
        }
        if let region = defaultRegion[lang] { names.append("hyph_\(lang)_\(region).dic") }
        names.append("hyph_\(lang).dic")
        return names
    }

    /// Any region of the language, as a last resort (lists the folder).
    static func regionFiles(for tag: String) -> [String] {
        let lang = primaryLanguage(tag)
        guard !lang.isEmpty, let files = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return files.filter { $0.hasPrefix("hyph_\(lang)_") && $0.hasSuffix(".dic") }.sorted()
    }
}
