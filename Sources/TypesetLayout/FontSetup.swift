// Document fonts: `fonts:` files and folders loaded into fontconfig for the engine's font map, and a check of
// every family and face the document asks for: an unknown family falls back to DejaVu Serif with a warning,
// and a bold or italic that fontconfig has to synthesise (no such face installed) is a warning too.

import CPangoCairo
import Foundation
import RTSyntax
import TypesetIR

extension LayoutEngine {
    /// The family used instead of one that is not installed.
    public static let fallbackFamily = "DejaVu Serif"

    /// Generic names fontconfig resolves itself.
    static let genericFamilies: Set<String> = ["serif", "sans", "sans-serif", "monospace", "mono", "cursive", "fantasy",
                                               "system-ui", "emoji", "math"]

    /// Loads font files and folders (paths already resolved) into the font map. Returns the ones that failed.
    /// Fonts stay loaded for the process: the engine is shared and fontconfig has no per-document scope.
    public func loadFonts(_ paths: [String]) -> [String] {
        guard !paths.isEmpty else { return [] }
        var failed: [String] = []
        let config = FcConfigGetCurrent()
        for path in paths {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            let ok = exists && path.withCString { p in
                p.withMemoryRebound(to: FcChar8.self, capacity: path.utf8.count + 1) {
                    isDirectory.boolValue ? FcConfigAppFontAddDir(config, $0) : FcConfigAppFontAddFile(config, $0)
                }
            } != 0
            if !ok { failed.append(path) }
        }
        // The font map caches what fontconfig offered before; make it look again.
        pango_fc_font_map_config_changed(OpaquePointer(fontMap))
        familyNames = nil
        fontGeneration += 1
        return failed
    }

    /// Makes the font map look at fontconfig's fonts again (a worker engine after `loadFonts` on another).
    func reloadFonts() {
        pango_fc_font_map_config_changed(OpaquePointer(fontMap))
        familyNames = nil
    }

    /// Lower-cased names of the installed families (and the loaded ones).
    func installedFamilies() -> Set<String> {
        if let familyNames { return familyNames }
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>? = nil
        var count: Int32 = 0
        pango_font_map_list_families(fontMap, &families, &count)
        var names = Set<String>()
        for i in 0..<Int(count) {
            if let family = families?[i], let name = pango_font_family_get_name(family) {
                names.insert(String(cString: name).lowercased())
            }
        }
        g_free(families)
        familyNames = names
        return names
    }

    public func isInstalled(family: String) -> Bool {
        let lower = family.lowercased()
        return LayoutEngine.genericFamilies.contains(lower) || installedFamilies().contains(lower)
    }

    /// Whether fontconfig makes the face for `key` by emboldening or slanting a regular one
    /// (its `embolden` flag, or a shear in its `matrix`).
    func synthesis(_ key: FontKey) -> (bold: Bool, italic: Bool) {
        guard let font = pango_font_map_load_font(fontMap, context, fontDescription(key)) else { return (false, false) }
        defer { g_object_unref(UnsafeMutableRawPointer(font)) }
        guard let pattern = pango_fc_font_get_pattern(UnsafeMutableRawPointer(font).assumingMemoryBound(to: PangoFcFont.self)) else { return (false, false) }
        var embolden: FcBool = 0
        let bold = FcPatternGetBool(pattern, "embolden", 0, &embolden) == FcResultMatch && embolden != 0
        var matrix: UnsafeMutablePointer<FcMatrix>? = nil
        let italic = FcPatternGetMatrix(pattern, "matrix", 0, &matrix) == FcResultMatch && (matrix?.pointee.xy ?? 0) != 0
        return (bold, italic)
    }

    /// Checks every family and face `document` uses. Unknown families are replaced by `fallbackFamily` in
    /// `document`; each problem is reported once, at the first paragraph that shows it.
    public func checkFonts(_ document: inout TypesetDocument) -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var seenFamilies: [String: Bool] = [:]
        var seenFaces = Set<FontKey>()
        var unknown = Set<String>()
        func check(_ a: CharacterAttributes, at location: SourceLocation?) {
            if seenFamilies[a.fontFamily] == nil {
                let known = isInstalled(family: a.fontFamily)
                seenFamilies[a.fontFamily] = known
                if !known {
                    unknown.insert(a.fontFamily)
                    diagnostics.append(.warning("font family '\(a.fontFamily)' is not installed; using \(LayoutEngine.fallbackFamily)",
                                                at: document.familyLocations[a.fontFamily] ?? location))
                }
            }
            guard a.weight >= 600 || a.style != .normal else { return }
            var key = FontKey(a)
            if unknown.contains(key.family) { key.family = LayoutEngine.fallbackFamily }
            var face = key
            face.size = 10  // the face does not depend on the size
            guard seenFaces.insert(face).inserted else { return }
            // Loaded at the run's size: the fontset its paragraph needs anyway (one fontconfig sort, not two).
            let synthesised = synthesis(key)
            if key.weight >= 600 && synthesised.bold {
                diagnostics.append(.warning("font family '\(key.family)' has no bold face; bold is synthesised", at: location))
            }
            if key.style != .normal && synthesised.italic {
                diagnostics.append(.warning("font family '\(key.family)' has no italic face; italic is synthesised (slanted)",
                                            at: location))
            }
        }
        for block in document.blocks {
            guard case .paragraph(let p) = block else { continue }
            for run in p.runs { check(run.attributes, at: p.location) }
        }
        for p in document.footnotes.flatMap(\.paragraphs) {
            for run in p.runs { check(run.attributes, at: p.location) }
        }
        for running in [document.header, document.footer].compactMap({ $0 }) {
            for piece in running.left + running.center + running.right {
                switch piece {
                case .text(_, let a), .field(_, let a): check(a, at: nil)
                }
            }
        }
        if !unknown.isEmpty { replaceFamilies(unknown, in: &document) }
        return diagnostics
    }

    private func replaceFamilies(_ families: Set<String>, in document: inout TypesetDocument) {
        func fix(_ a: inout CharacterAttributes) {
            if families.contains(a.fontFamily) { a.fontFamily = LayoutEngine.fallbackFamily }
        }
        for i in document.blocks.indices {
            guard case .paragraph(var p) = document.blocks[i] else { continue }
            for r in p.runs.indices { fix(&p.runs[r].attributes) }
            document.blocks[i] = .paragraph(p)
        }
        for n in document.footnotes.indices {
            for k in document.footnotes[n].paragraphs.indices {
                for r in document.footnotes[n].paragraphs[k].runs.indices {
                    fix(&document.footnotes[n].paragraphs[k].runs[r].attributes)
                }
            }
        }
        func fixPieces(_ pieces: inout [RunningText.Piece]) {
            for k in pieces.indices {
                switch pieces[k] {
                case .text(let s, var a): fix(&a); pieces[k] = .text(s, a)
                case .field(let f, var a): fix(&a); pieces[k] = .field(f, a)
                }
            }
        }
        for keyPath in [\TypesetDocument.header, \TypesetDocument.footer] {
            guard var running = document[keyPath: keyPath] else { continue }
            fixPieces(&running.left); fixPieces(&running.center); fixPieces(&running.right)
            document[keyPath: keyPath] = running
        }
    }
}
