// Runs between front matter and block parsing: wraps the body in a template (if any) and expands
// `{{...}}`. The result is a new Source whose locations map back to the files the text came from.

enum Expansion {
    /// Front matter keys that are also variables (beneath `vars`), so a template can show `{{title}}`.
    static let metadataKeys = ["title", "author", "subject", "keywords", "date"]

    struct Result {
        var source: Source
        var frontMatter: FrontMatter?
        var templateFile: String?
        var firstLine = 0
        var steps = 0
        /// Undefined or map-valued names outside fences and code spans: errors unless in indented code (VariableExpander).
        var unlessInCode: [Diagnostic] = []
    }

    /// `src` body starts at line `firstLine`. Returns the expanded body (starting at line 0).
    static func run(_ src: Source, firstLine: Int, frontMatter: FrontMatter?, options: ExpansionOptions,
                    root: ReadRoot? = nil, diagnostics: inout [Diagnostic]) -> Result {
        var frontMatter = frontMatter
        var files = [src]
        var templateFile: String? = nil
        var templateStart = 0
        if let reference = options.template ?? frontMatter?["template"]?.scalar, !reference.isEmpty {
            let at = options.template == nil ? frontMatter?["template"]?.location : nil
            // A template path in front matter is a file the document names: it must be under the root.
            let namedByDocument = options.template == nil && (reference.contains("/") || reference.hasSuffix(".rt"))
            let loaded = options.loadTemplate?(reference, src.file)
            if namedByDocument, let loaded, !loaded.file.hasPrefix("<"), let refusal = root?.refusal(loaded.file) {
                diagnostics.append(.error(refusal, at: at ?? src.lineLocation(0)))
                return Result(source: src, frontMatter: frontMatter, firstLine: firstLine)
            }
            if let found = loaded {
                switch InputCheck.prepare(found.bytes, file: found.file) {
                case .failure(let error):
                    diagnostics.append(error)
                case .success(let prepared):
                    diagnostics += prepared.warnings
                    let template = Source(file: found.file, bytes: prepared.bytes, dropped: prepared.dropped)
                    if case .some(let closing) = FrontMatterParser.closingLine(template) {
                        guard let closing else {
                            diagnostics.append(.error("unclosed front matter in template", at: template.lineLocation(0)))
                            return Result(source: src, frontMatter: frontMatter, firstLine: firstLine)
                        }
                        let defaults = FrontMatterParser.parse(template, closing: closing, diagnostics: &diagnostics)
                        frontMatter = merge(defaults, under: frontMatter)
                        templateStart = closing + 1 < template.lineCount ? template.lineStarts[closing + 1] : template.bytes.count
                    }
                    files.append(template)
                    if !found.file.hasPrefix("<") { templateFile = found.file }
                }
            } else {
                diagnostics.append(.error("template '\(reference)' not found: use a built-in name (typeset --list-templates) or a path to an .rt file",
                                          at: at ?? src.lineLocation(0)))
            }
        }
        let data = variables(of: frontMatter).merging(options.data)

        let bodyStart = firstLine < src.lineCount ? src.lineStarts[firstLine] : src.bytes.count
        if files.count == 1 && !VariableExpander.needsExpansion(src.bytes, from: bodyStart) {
            return Result(source: src, frontMatter: frontMatter, firstLine: firstLine)
        }
        var expander = VariableExpander(files: files, data: data, allowUndefined: options.allowUndefined)
        let body = expander.parse(file: 0, from: bodyStart)
        if files.count > 1 {
            expander.content = body
            let wrapper = expander.parse(file: 1, from: templateStart)
            expander.render(wrapper, context: [data])
            if let rest = expander.content { expander.render(rest, context: [data]) }   // no {{content}}: append
        } else {
            expander.render(body, context: [data])
        }
        diagnostics.append(contentsOf: expander.diagnostics)
        // Over a bound the build fails anyway: parsing megabytes of partial output would only cost time.
        if expander.overflowed { expander.output.removeAll() }
        var out = Source(file: src.file, bytes: expander.output)
        out.map = expander.map
        var result = Result(source: out, frontMatter: frontMatter, templateFile: templateFile, steps: expander.work + expander.lookedBack)
        result.unlessInCode = expander.unlessInCode
        return result
    }

    /// Metadata keys and `vars` of the front matter, as the lowest-priority values.
    static func variables(of frontMatter: FrontMatter?) -> DataValue {
        var data = DataValue.map([])
        guard let frontMatter else { return data }
        let metadata = metadataKeys.compactMap { key in frontMatter[key].map { DataEntry(key: key, value: .from($0)) } }
        data = data.merging(.map(metadata))
        if let vars = frontMatter["vars"], case .mapping = vars.kind { data = data.merging(.from(vars)) }
        return data
    }

    /// An `@include`d file's text after its (ignored) front matter, expanded with the main file's values.
    static func expandInclude(_ src: Source, firstLine: Int, options: ExpansionOptions,
                              diagnostics: inout [Diagnostic], unlessInCode: inout [Diagnostic]) -> (Source, firstLine: Int, steps: Int) {
        let start = firstLine < src.lineCount ? src.lineStarts[firstLine] : src.bytes.count
        guard VariableExpander.needsExpansion(src.bytes, from: start) else { return (src, firstLine, 0) }
        var expander = VariableExpander(files: [src], data: options.data, allowUndefined: options.allowUndefined)
        expander.render(expander.parse(file: 0, from: start), context: [options.data])
        diagnostics.append(contentsOf: expander.diagnostics)
        unlessInCode.append(contentsOf: expander.unlessInCode)
        if expander.overflowed { expander.output.removeAll() }
        var out = Source(file: src.file, bytes: expander.output)
        out.map = expander.map
        return (out, 0, expander.work + expander.lookedBack)
    }

    /// Template defaults beneath the document's own keys; `vars` and `styles` merge entry by entry.
    static func merge(_ defaults: FrontMatter, under document: FrontMatter?) -> FrontMatter {
        guard let document else { return defaults }
        var entries = defaults.entries.filter { $0.key != "template" }
        for pair in document.entries {
            guard let k = entries.firstIndex(where: { $0.key == pair.key }) else {
                entries.append(pair)
                continue
            }
            if (pair.key == "vars" || pair.key == "styles"),
               case .mapping(var base) = entries[k].value.kind, case .mapping(let mine) = pair.value.kind {
                for entry in mine {
                    if let j = base.firstIndex(where: { $0.key == entry.key }) { base[j] = entry } else { base.append(entry) }
                }
                var merged = pair
                merged.value = YAMLValue(.mapping(base), at: pair.value.location)
                entries[k] = merged
            } else {
                entries[k] = pair
            }
        }
        return FrontMatter(entries: entries, range: document.range)
    }
}
