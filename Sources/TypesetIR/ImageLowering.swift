// Images: resolve the path against the naming file's folder, check the file is a readable image (a missing or
// unreadable one is an error at its location), and read `{width height align baseline fit}`.

import Foundation
import RTSyntax

extension DocumentLowerer {
    /// Appends U+FFFC with the image's attachment; on error, reports it and appends nothing.
    mutating func appendImage(_ image: ImageReference, _ attributes: CharacterAttributes, state: StyleState,
                              into builder: inout ParagraphBuilder) {
        if inRunningText {
            diagnostics.append(.warning("images are not supported in a header or footer, ignored", at: image.range.start))
            return
        }
        if let chart = image.chart {
            appendChart(image, chart, attributes, state: state, into: &builder)
            return
        }
        if image.isRemote {
            appendRemoteImageAlt(image, attributes, into: &builder)
            return
        }
        let path = resolvePath(image.path, relativeTo: image.range.start.file)
        if let refusal = options.root?.refusal(path) {
            diagnostics.append(.error(refusal, at: image.range.start))
            return
        }
        if let problem = imageProblem(atPath: path, asWritten: image.path) {
            diagnostics.append(.error(problem, at: image.range.start))
            return
        }
        if referencedSet.insert(path).inserted { referencedFiles.append(path) }
        if path.lowercased().hasSuffix(".svg") || path.lowercased().hasSuffix(".svgz") {
            for reference in svgExternalReferences(path) {
                warn("SVG image '\(image.path)' refers to '\(reference)', which is not loaded: an SVG is drawn from its own file only (embed pictures as data: URLs)",
                     at: image.range.start)
            }
        }

        var attachment = ImageAttachment(path: path, location: image.range.start)
        readImageAttributes(image.attributes, into: &attachment, state: state)
        if attachment.width == nil && attachment.height == nil {
            // Given no size, a picture is set at 96 px per inch, but scaled down to fit the text's width and the
            // page's height, as pandoc's LaTeX and GitHub show a README's screenshots: at its natural size a 2,448 px
            // wide graph ran 1,836pt past the page's edge. A size given with `width`/`height` is set as asked.
            let style = state.paragraphStyle()
            attachment.maxWidth = max(state.columnWidth - max(style.headIndent, style.firstLineHeadIndent)
                                      - style.tailIndent, 1)
            attachment.maxHeight = max(contentHeight - 2 * state.character.fontSize, 1)
        }
        tagImage(&attachment, alt: image.attributes["alt"]?.value ?? image.alt,
                 decorative: image.attributes["decorative"]?.value.trimmingASCIIWhitespace().lowercased() == "true")
        if let id = image.attributes.id {
            definedAnchors.insert(id)
            builder.anchors.append(id)
        }
        builder.appendAttachment(attachment, attributes)
    }

    /// Remote images are never fetched (section 5): the alt text stands in their place.
    private mutating func appendRemoteImageAlt(_ image: ImageReference, _ attributes: CharacterAttributes,
                                               into builder: inout ParagraphBuilder) {
        let alt = image.attributes["alt"]?.value ?? image.alt
        let shown = alt.isEmpty ? "nothing is set in its place (it has no alt text)" : "its alt text is set in its place"
        warn("remote image '\(image.path)' is not fetched: \(shown)", at: image.range.start)
        builder.appendCollapsingSpaces(alt, attributes)
    }

    private mutating func readImageAttributes(_ attributes: Attributes, into image: inout ImageAttachment, state: StyleState) {
        if let style = attributes.styles.first {
            warn("styles have no effect on an image, ignored", at: style.range.start)
        }
        let floats = attributes["float"] != nil
        for pair in attributes.pairs {
            let value = pair.value.trimmingASCIIWhitespace()
            func bad(_ expected: String) {
                warn("bad value '\(pair.value)' for '\(pair.key)': expected \(expected)\(Length.rangeNote(pair.value)); ignored", at: pair.keyRange.start)
            }
            switch pair.key {
            case "width", "height":
                // `%` is of the column width, `em` of the surrounding text.
                guard let points = positive(paragraphLength(value, state)) else { bad("a positive length"); continue }
                if pair.key == "width" { image.width = points } else { image.height = points }
            case "align":
                guard let a = ImageAlignment(rawValue: value.lowercased()) else { bad("baseline, middle, top or bottom"); continue }
                image.alignment = a
            case "baseline":
                guard let points = fontLength(value, state) else { bad("a length"); continue }
                image.baselineOffset = points
            case "fit":
                guard let fit = ImageFit(rawValue: value.lowercased()) else { bad("contain or fill"); continue }
                image.fit = fit
            case "float":
                continue  // read by lowerFloatImage
            case "caption", "alt":
                continue  // a figure's caption (FigureLowering.swift); the accessible description (appendImage)
            case "decorative":
                if !["true", "false"].contains(value.lowercased()) { bad("true or false") }
            case "margin" where floats:
                continue
            default:
                warn("unknown image attribute '\(pair.key)', ignored", at: pair.keyRange.start)
            }
        }
    }

    private mutating func warn(_ message: String, at location: SourceLocation) {
        diagnostics.append(.warning(message, at: location))
    }
}

extension ImageReference {
    /// `http:` / `https:` (any case): never fetched.
    var isRemote: Bool {
        let lower = path.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}

/// nil when `path` names a readable PNG, JPEG or SVG file; otherwise what is wrong, for an error message.
func imageProblem(atPath path: String, asWritten written: String) -> String? {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
        return "image '\(written)' not found (looked for \(path))"
    }
    guard !isDirectory.boolValue, let handle = FileHandle(forReadingAtPath: path) else {
        return "cannot read image '\(written)'"
    }
    defer { try? handle.close() }
    let head = [UInt8]((try? handle.read(upToCount: 512)) ?? Data())
    if head.starts(with: [0x89, 0x50, 0x4E, 0x47]) || head.starts(with: [0xFF, 0xD8, 0xFF]) {
        return ImageLimits.problem(path, asWritten: written)
    }
    // SVG: XML text, possibly after a BOM and whitespace.
    var text = head[...]
    if text.starts(with: [0xEF, 0xBB, 0xBF]) { text = text.dropFirst(3) }
    if let first = text.first(where: { !$0.isASCIIWhitespace }), first == UInt8(ascii: "<"),
       String(decoding: head, as: UTF8.self).lowercased().contains("<svg") || String(decoding: head, as: UTF8.self).contains("<?xml") {
        return ImageLimits.svgProblem(path, asWritten: written)
    }
    return head.isEmpty ? "image '\(written)' is empty" : "image '\(written)' is not a PNG, JPEG or SVG file"
}
