// Inlines (RT section 5) -> text and attribute runs in a ParagraphBuilder.

import RTSyntax

extension DocumentLowerer {
    static let highlightColor = Color(red: 1, green: 0.945, blue: 0.463)   // #FFF176, a highlighter yellow
    static let superscriptScale = 0.7
    /// Raise / drop as a fraction of the surrounding font size (Typst-like).
    static let superscriptRaise = 0.35
    static let subscriptDrop = 0.2

    /// A paragraph's (heading's, cell's) inlines, with smart punctuation by the paragraph's `lang` unless `smart: false`.
    mutating func lowerParagraphInlines(_ inlines: [Inline], state: StyleState, into builder: inout ParagraphBuilder) {
        let content = smart ? SmartPunctuation.apply(inlines, language: state.character.language ?? state.paragraph.language)
                            : inlines
        lowerInlines(content, state.character, state: state, into: &builder)
    }

    /// `attributes` are the current character attributes; `state` supplies what `em` and `%` mean.
    mutating func lowerInlines(_ inlines: [Inline], _ attributes: CharacterAttributes, state: StyleState,
                               into builder: inout ParagraphBuilder) {
        // Per call, `attributes` and `state` do not change: their shared attributes and the last link's memo
        // made here are reused without comparing them again (a paragraph of 250,000 links, issue 8).
        var shared: Shared<CharacterAttributes>? = nil
        var linkMemo: LinkStyleMemo? = nil
        // Inline code's attributes, the `code` style applied once per call (it parses some 14 values).
        var code: Shared<CharacterAttributes>? = nil
        // By index: `for inline in inlines` copied each inline (retaining all it holds).
        for k in inlines.indices {
            switch inlines[k].kind {
            case .text(let text):
                if shared == nil { shared = builder.shared(attributes) }
                builder.appendCollapsingSpaces(text, shared: shared ?? builder.shared(attributes))
            case .softBreak:
                if shared == nil { shared = builder.shared(attributes) }
                builder.appendCollapsingSpaces(" ", shared: shared ?? builder.shared(attributes))
            case .hardBreak:
                builder.append("\u{2028}", attributes)
            case .tab:
                builder.append("\t", attributes)
            case .strong(let content):
                var a = attributes
                a.weight = max(a.weight, 700)
                lowerInlines(content, a, state: state, into: &builder)
            case .emphasis(let content):
                // Emphasis nested in emphasis stays italic (contract section 5, as CommonMark renderers show it).
                var a = attributes
                if a.style == .normal { a.style = .italic }
                lowerInlines(content, a, state: state, into: &builder)
            case .underline(let content):
                var a = attributes
                a.underline = .single
                lowerInlines(content, a, state: state, into: &builder)
            case .strikethrough(let content):
                var a = attributes
                a.strike = .single
                lowerInlines(content, a, state: state, into: &builder)
            case .superscript(let content):
                var a = attributes
                a.baselineShift += attributes.fontSize * Self.superscriptRaise
                a.fontSize = attributes.fontSize * Self.superscriptScale
                lowerInlines(content, a, state: state, into: &builder)
            case .subscript(let content):
                var a = attributes
                a.baselineShift -= attributes.fontSize * Self.subscriptDrop
                a.fontSize = attributes.fontSize * Self.superscriptScale
                lowerInlines(content, a, state: state, into: &builder)
            case .highlight(let content):
                var a = attributes
                a.background = Self.highlightColor
                lowerInlines(content, a, state: state, into: &builder)
            case .code(let text):
                if code == nil {
                    var inner = state
                    inner.character = attributes
                    sheet.apply("code", to: &inner, scope: .character)
                    inner.character.isCode = true
                    codeStyleApplications += 1
                    code = builder.shared(inner.character)
                }
                if let code { builder.append(text, shared: code) }
            case .link(let destination, let content) where content.isEmpty && destination.count > 1 && destination.hasPrefix("#"):
                appendCrossReference(String(destination.dropFirst()), page: false, attributes, state: state,
                                     at: inlines[k].range.start, into: &builder)
            case .span(let content, var spanAttributes) where Self.crossReferenceSpan(content, spanAttributes) != nil:
                // `[](#id){ref=page}`: `ref` picks what is set; other attributes style it as a span's do.
                var page = false
                if let pair = spanAttributes["ref"] {
                    switch pair.value.lowercased() {
                    case "page": page = true
                    case "label": break
                    default: diagnostics.append(.warning("bad ref '\(pair.value)': expected page or label; the label is set",
                                                         at: pair.valueRange.start))
                    }
                    spanAttributes.pairs.removeAll { $0.key == "ref" }
                }
                var inner = state
                inner.character = attributes
                sheet.apply(spanAttributes, to: &inner, scope: .character, diagnostics: &diagnostics)
                noteFontFamily(spanAttributes)
                if let id = spanAttributes.id { definedAnchors.insert(id); builder.anchors.append(id) }
                appendCrossReference(Self.crossReferenceSpan(content, spanAttributes) ?? "", page: page, inner.character,
                                     state: inner, at: inlines[k].range.start, into: &builder)
            case .link(let destination, let content):
                let memo: LinkStyleMemo
                if let last = linkMemo, last.destination == destination {
                    memo = last
                } else {
                    memo = linkState(destination, attributes, state: state)
                    linkMemo = memo
                }
                noteLinkUse(memo, at: inlines[k].range.start)
                if content.allSatisfy({ if case .text = $0.kind { true } else { false } }) {
                    // Plain text (`[a]`): appended with the link's shared attributes, no state copied for it.
                    for child in content {
                        if case .text(let text) = child.kind { builder.appendCollapsingSpaces(text, shared: memo.insideShared) }
                    }
                } else {
                    lowerInlines(content, memo.inside.character, state: memo.inside, into: &builder)
                }
            case .image(let image):
                if let pair = image.attributes["float"], !inRunningText {
                    // Only an image alone in its paragraph (an image block) floats (contract section 4).
                    diagnostics.append(.warning("float= is ignored: the image shares its paragraph with text "
                        + "(put it in a paragraph of its own to float it)", at: pair.keyRange.start))
                }
                appendImage(image, attributes, state: state, into: &builder)
            case .span(let content, let spanAttributes):
                var inner = state
                inner.character = attributes
                sheet.apply(spanAttributes, to: &inner, scope: .character, diagnostics: &diagnostics)
                noteFontFamily(spanAttributes)
                if let id = spanAttributes.id {
                    definedAnchors.insert(id)
                    builder.anchors.append(id)
                }
                if let pair = spanAttributes["link"], let target = inner.character.link, target != attributes.link {
                    noteLink(target, at: pair.valueRange.start)
                }
                lowerInlines(content, inner.character, state: inner, into: &builder)
            case .variable(let name):
                appendVariable(name, attributes, at: inlines[k].range.start, into: &builder)
            case .rawHTML:
                break   // resolved by the parser
            case .footnoteReference(let label):
                appendFootnoteMark(.label(label), attributes, at: inlines[k].range.start, into: &builder)
            case .inlineFootnote(let content):
                appendFootnoteMark(.inline(content), attributes, at: inlines[k].range.start, into: &builder)
            }
        }
    }

    mutating func noteLink(_ target: LinkTarget, at location: SourceLocation) {
        if case .destination(let id) = target { internalLinks.append((id, location)) }
        if case .warn(let message) = LinkPolicy.check(target) { diagnostics.append(.warning(message, at: location)) }
    }

    /// Command line / data values beat front matter `vars`; the value is literal text.
    private mutating func appendVariable(_ name: String, _ attributes: CharacterAttributes, at location: SourceLocation,
                                         into builder: inout ParagraphBuilder) {
        if inRunningText, let field = RunningText.Field(rawValue: name) {
            builder.fields.append((builder.length, field, attributes))
            return
        }
        if let value = options.variables[name] ?? frontMatterVariables[name] {
            builder.append(value, attributes)
        } else if !options.allowUndefined {
            diagnostics.append(.error("undefined variable '\(name)'", at: location))
        }
    }
}

extension DocumentLowerer {
    /// The state inside a link: the `link` style applied to the state outside (`state` with `attributes`), the
    /// target set unless the link policy drops it. Links in a row share the state outside and often their
    /// destination: both are remembered (`linkStyleMemo`), so a repeated destination is checked once; what
    /// each link reports (`noteLinkUse`) is still noted at each.
    mutating func linkState(_ destination: String, _ attributes: CharacterAttributes, state: StyleState) -> LinkStyleMemo {
        let memo: LinkStyleMemo
        if let last = linkStyleMemo, last.destination == destination, last.hasOutside(state, attributes) {
            memo = last
        } else {
            var styled: StyleState
            if let last = linkStyleMemo, last.hasOutside(state, attributes) {
                styled = last.styled
            } else {
                styled = state
                styled.character = attributes
                sheet.apply("link", to: &styled, scope: .character)
            }
            let target = linkTarget(destination)
            linkChecks += 1
            let verdict = target.map(LinkPolicy.check) ?? .pass
            var inside = styled
            if let target, verdict.keepsLink { inside.character.link = target }
            memo = LinkStyleMemo(state: state, attributes: attributes, destination: destination, styled: styled,
                                 inside: inside, target: target, verdict: verdict)
            linkStyleMemo = memo
        }
        return memo
    }

    /// What each link reports: the verdict's warning, an internal link to resolve at the end.
    mutating func noteLinkUse(_ memo: LinkStyleMemo, at location: SourceLocation) {
        if let target = memo.target {
            switch memo.verdict {
            case .drop(let reason):
                diagnostics.append(.warning(reason, at: location))
            case .warn(let message):
                if case .destination(let id) = target { internalLinks.append((id, location)) }
                diagnostics.append(.warning(message, at: location))
            case .pass:
                if case .destination(let id) = target { internalLinks.append((id, location)) }
            }
        }
    }
}

/// The last link's state outside, destination and state inside (`DocumentLowerer.linkState`). Held by
/// reference: reading a tuple of states copied (retained) them for every link.
final class LinkStyleMemo {
    let state: StyleState
    let attributes: CharacterAttributes
    let destination: String
    /// `state` with `attributes` and the `link` style, without a target.
    let styled: StyleState
    let inside: StyleState
    /// `inside.character`, shared.
    let insideShared: Shared<CharacterAttributes>
    let target: LinkTarget?
    let verdict: LinkPolicy.Verdict

    /// Compared here, in place (read from outside, each state was copied first).
    func hasOutside(_ state: StyleState, _ attributes: CharacterAttributes) -> Bool {
        self.attributes == attributes && self.state == state
    }

    init(state: StyleState, attributes: CharacterAttributes, destination: String, styled: StyleState,
         inside: StyleState, target: LinkTarget?, verdict: LinkPolicy.Verdict) {
        self.state = state
        self.attributes = attributes
        self.destination = destination
        self.styled = styled
        self.inside = inside
        insideShared = Shared.of(inside.character)
        self.target = target
        self.verdict = verdict
    }
}

extension LinkPolicy.Verdict {
    var keepsLink: Bool { if case .drop = self { false } else { true } }
}
