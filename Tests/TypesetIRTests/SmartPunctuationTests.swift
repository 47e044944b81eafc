import RTSyntax
@testable import TypesetIR
import XCTest

/// Smart punctuation (RT section 5), from source text through the parser and lowering: no layout, no Cairo.
final class SmartPunctuationTests: XCTestCase {
    /// The lowered paragraphs' texts of `source`.
    private func texts(_ source: String, variables: [String: String] = [:]) -> [String] {
        let data = DataValue.map(variables.map { DataEntry(key: $0.key, value: .text($0.value)) })
        let parsed = RTParser.parse(Array(source.utf8), file: "t.rt", options: ParseOptions(expansion: ExpansionOptions(data: data)))
        let result = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: { RTParser.parseInlines($0, at: $1) })
        let body = result.document.blocks.flatMap { block -> [String] in
            switch block {
            case .paragraph(let p): return [p.text]
            case .table(let t): return t.rows.flatMap { $0.map(\.text) }
            default: return []
            }
        }
        // Notes are set at the column foot, so lowering keeps them beside the blocks.
        return body + result.document.footnotes.flatMap { $0.paragraphs.map(\.text) }
    }

    private func text(_ source: String) -> String { texts(source).first ?? "<none>" }

    func testDashesAndEllipses() {
        XCTAssertEqual(text("1990--2000, yes---no, wait..."), "1990\u{2013}2000, yes\u{2014}no, wait\u{2026}")
        // CommonMark's smart rule for longer runs: 4 = two en, 5 = em + en, 6 = two em; a single hyphen stays.
        XCTAssertEqual(text("a----b a-----b a------b a-b"),
                       "a\u{2013}\u{2013}b a\u{2014}\u{2013}b a\u{2014}\u{2014}b a-b")
        XCTAssertEqual(text("four.... dots"), "four\u{2026}. dots")
    }

    func testEnglishQuotesApostrophesAndNesting() {
        XCTAssertEqual(text("\"Hello,\" she said. 'Fine.'"), "\u{201C}Hello,\u{201D} she said. \u{2018}Fine.\u{2019}")
        XCTAssertEqual(text("don't stop, rock 'n' roll, the '90s, the dogs' bones"),
                       "don\u{2019}t stop, rock \u{2018}n\u{2019} roll, the \u{2019}90s, the dogs\u{2019} bones")
        XCTAssertEqual(text("\"She said 'hi' to me.\""), "\u{201C}She said \u{2018}hi\u{2019} to me.\u{201D}")
        // Across emphasis and a line break; a quote opening the paragraph opens.
        XCTAssertEqual(text("\"*Quoted* words\nover two lines\""), "\u{201C}Quoted words over two lines\u{201D}")
        XCTAssertEqual(text("\"[linked](https://example.org)\""), "\u{201C}linked\u{201D}")
    }

    func testGermanAndFrenchQuotes() {
        XCTAssertEqual(text("---\nlang: de\n---\nEr sagte: \"Das ist 'gut'.\""),
                       "Er sagte: \u{201E}Das ist \u{201A}gut\u{2018}.\u{201C}")
        XCTAssertEqual(text("---\nlang: fr\n---\nIl a dit \"bonjour\" et 'salut'... C'est l'homme."),
                       "Il a dit \u{AB}\u{202F}bonjour\u{202F}\u{BB} et \u{2039}\u{202F}salut\u{202F}\u{203A}\u{2026} C\u{2019}est l\u{2019}homme.")
        XCTAssertEqual(text("---\nlang: de-CH\n---\n\"Grüezi\""), "\u{201E}Grüezi\u{201C}")
        XCTAssertEqual(text("---\nlang: ru\n---\n\"Привет\""), "\u{201C}Привет\u{201D}", "others as en (contract)")
    }

    func testParagraphAndSpanLanguagePickQuotes() {
        let all = texts("{lang=de}\n\"Hallo\" -- ja.\n\n\"Back\" [sagte \"sie\"]{lang=fr} \"here\".\n\n::: {lang=de}\n\"Im Div\"\n:::\n")
        XCTAssertEqual(all, ["\u{201E}Hallo\u{201C} \u{2013} ja.",
                             "\u{201C}Back\u{201D} sagte \u{AB}\u{202F}sie\u{202F}\u{BB} \u{201C}here\u{201D}.",
                             "\u{201E}Im Div\u{201C}"])
    }

    func testBackslashAndEntitiesKeepWhatWasTyped() {
        XCTAssertEqual(text(#"\"straight\" a\--b a\...b it\'s"#), "\"straight\" a--b a...b it's")
        XCTAssertEqual(text("&quot;x&quot; a&#45;-b"), "\"x\" a--b")
        // Escaping one hyphen of three leaves an en dash of the other two.
        XCTAssertEqual(text(#"a\---b"#), "a-\u{2013}b")
    }

    func testCodeAndURLsUntouched() {
        XCTAssertEqual(text("Run `cmd --flag \"x\" ...` now -- ok"), "Run cmd --flag \"x\" ... now \u{2013} ok")
        XCTAssertEqual(text("See <https://example.org/a--b...c> and www.example.org/x--y."),
                       "See https://example.org/a--b...c and www.example.org/x--y.")
        XCTAssertEqual(texts("```\n\"code\" -- ...\n```\n"), ["\"code\" -- ..."])
        // Attribute values are not text: a link's title or a span's value never changes.
        XCTAssertEqual(text("[\"a\"]{title=\"x--y\"}"), "\u{201C}a\u{201D}")
    }

    func testSmartFalseTurnsItOff() {
        XCTAssertEqual(text("---\nsmart: false\n---\n\"Hi\" -- it's... done"), "\"Hi\" -- it's... done")
        let parsed = RTParser.parse(Array("---\nsmart: maybe\n---\nx\n".utf8), file: "t.rt")
        let result = Lowering.lower(parsed.document, options: LoweringOptions(), parseInlines: { RTParser.parseInlines($0, at: $1) })
        XCTAssertTrue(result.diagnostics.contains { $0.message.contains("'smart'") && $0.location?.line == 2 }, "\(result.diagnostics)")
    }

    /// Inserted values are text (section 7), and text gets smart punctuation, as pandoc does; at a line start only
    /// the value's first word is escaped against block markup, quotes excepted.
    func testInsertedVariableValuesAreTextAndGetSmartPunctuation() {
        let who = ["who": "\"Ann\" -- O'Neil *x*"]
        XCTAssertEqual(texts("Name: {{who}}.\n", variables: who), ["Name: \u{201C}Ann\u{201D} \u{2013} O\u{2019}Neil *x*."])
        XCTAssertEqual(texts("{{who}} here.\n", variables: who), ["\u{201C}Ann\u{201D} \u{2013} O\u{2019}Neil *x* here."])
        XCTAssertEqual(texts("{{v}}\n", variables: ["v": "--- 1. - x"]), ["--- 1. - x"], "no rule, list or dash made from a value")
    }

    func testHeadingsListsTablesAndFootnotes() {
        let all = texts("# \"Title\" -- one\n\n- it's\n\n| a |\n|---|\n| \"cell\" |\n\nNote.[^1]\n\n[^1]: \"noted\"\n")
        XCTAssertTrue(all.contains("\u{201C}Title\u{201D} \u{2013} one"), "\(all)")
        XCTAssertTrue(all.contains { $0.hasSuffix("it\u{2019}s") }, "\(all)")
        XCTAssertTrue(all.contains("\u{201C}cell\u{201D}"), "\(all)")
        XCTAssertTrue(all.contains { $0.hasSuffix("\u{201C}noted\u{201D}") }, "\(all)")
    }
}
