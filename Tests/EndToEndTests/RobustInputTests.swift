// Issue 8, crashes and unbounded input: every reproducer here once trapped (exit 132), grew without
// bound or printed a misleading message. Each must now be a located message with the right exit status.

import Foundation
import XCTest

final class RobustInputTests: XCTestCase {
    /// Runs a shell line in `dir` with the built binary as `$T` (redirections need a shell).
    func shell(_ line: String, in dir: String, environment: [String: String] = [:]) throws -> RunResult {
        try Harness.run("/bin/sh", ["-c", line], environment: environment.merging(["T": Harness.binary]) { $1 }, cwd: dir)
    }

    func testLengthsWithManyDigitsAreWarningsWithTheDefault() throws {
        let dir = try Harness.scratch()
        try TestImage.writePNG(to: dir + "/i.png")
        let digits = String(repeating: "9", count: 400)
        try Harness.write("""
            ---
            font-size: \(digits)pt
            ---
            {indent=3000000pt}
            First paragraph.

            Big [x]{size=100000000000pt} word.

            Image ![](i.png){height=100000000000pt} here.

            {space-before=1e400pt}
            Last paragraph.
            """, to: dir + "/doc.rt")
        let result = try Harness.typeset(["doc.rt", "-o", "doc.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        for location in ["doc.rt:2:12", "doc.rt:4:2", "doc.rt:7:9", "doc.rt:9:18"] {
            XCTAssertTrue(result.stderr.contains("\(location): warning: bad value"), "\(location) in \(result.stderr)")
        }
        XCTAssertTrue(result.stderr.contains("limited to 14400pt"), result.stderr)
        let text = try PDF.text(dir + "/doc.pdf")
        for word in ["First paragraph.", "Big", "word.", "Image", "Last paragraph."] {
            XCTAssertTrue(text.contains(word), "\(word) in \(text)")
        }
        // The default body size (10pt) is used, not some clamped giant.
        let first = try XCTUnwrap(try PDF.words(dir + "/doc.pdf").first { $0.text == "First" })
        XCTAssertLessThan(first.yMax - first.yMin, 15)
    }

    func testStandardInputThatIsADirectoryOrClosedIsALocatedError() throws {
        let dir = try Harness.scratch()
        let directory = try shell("\"$T\" - -o out.pdf < /tmp", in: dir)
        XCTAssertEqual(directory.status, 1)
        XCTAssertTrue(directory.stderr.contains("<stdin>:1:1: error: cannot read standard input: it is a directory"), directory.stderr)
        let closed = try shell("\"$T\" - -o out.pdf <&-", in: dir)
        XCTAssertEqual(closed.status, 1)
        XCTAssertTrue(closed.stderr.contains("<stdin>:1:1: error: cannot read standard input: it is closed"), closed.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/out.pdf"))
    }

    /// `yes |` and `/dev/zero` never end: reading stops at the size bound of a file (8 MB), not at 4 GB.
    func testEndlessStandardInputStopsAtTheBound() throws {
        let dir = try Harness.scratch()
        let yes = try shell("yes | timeout 300 \"$T\" - -o out.pdf", in: dir)
        XCTAssertEqual(yes.status, 1, yes.stderr)
        XCTAssertTrue(yes.stderr.contains("<stdin>:1:1: error: standard input is too large: the limit is 8 MB"), yes.stderr)
        let zero = try shell("timeout 300 \"$T\" - -o out.pdf < /dev/zero", in: dir)
        XCTAssertEqual(zero.status, 1, zero.stderr)
        XCTAssertTrue(zero.stderr.contains("standard input is too large"), zero.stderr)
        let file = try shell("timeout 300 \"$T\" /dev/zero -o out.pdf", in: dir)
        XCTAssertEqual(file.status, 1, file.stderr)
        XCTAssertTrue(file.stderr.contains("the limit is 8 MB"), file.stderr)
        try Harness.write("Text.\n\n@include /dev/zero\n", to: dir + "/z.rt")
        let include = try shell("timeout 300 \"$T\" z.rt -o out.pdf --root /", in: dir)
        XCTAssertEqual(include.status, 1, include.stderr)
        XCTAssertTrue(include.stderr.contains("z.rt:3:1: error: '/dev/zero' is a device, not a file"), include.stderr)
        try Harness.write("---\ntemplate: /dev/zero\n---\nText.\n", to: dir + "/t.rt")
        let template = try shell("timeout 300 \"$T\" t.rt -o out.pdf --root /", in: dir)
        XCTAssertEqual(template.status, 1, template.stderr)
    }

    /// A named pipe named by a document (include, image, font) waited for a writer forever (section 11: no
    /// input makes typeset hang): it is an error at the name. The input itself may be a pipe: `typeset <(gen)`.
    func testNamedPipesInADocumentAreErrorsNotHangs() throws {
        let dir = try Harness.scratch()
        for fifo in ["f.rt", "f.png", "f.ttf"] { XCTAssertEqual(mkfifo(dir + "/" + fifo, 0o600), 0) }
        let documents = ["a.rt": "A\n\n@include f.rt\n", "b.rt": "A ![x](f.png) b\n", "c.rt": "---\nfonts: [f.ttf]\n---\nA\n"]
        let expected = ["a.rt": "a.rt:3:1: error: 'f.rt' is a named pipe (FIFO), not a file",
                        "b.rt": "b.rt:1:3: error: 'f.png' is a named pipe (FIFO), not a file",
                        "c.rt": "c.rt:2:9: error: 'f.ttf' is a named pipe (FIFO), not a file"]
        for (name, text) in documents.sorted(by: { $0.key < $1.key }) {
            try Harness.write(text, to: dir + "/" + name)
            let run = try shell("timeout 60 \"$T\" \(name) -o out.pdf", in: dir)
            XCTAssertEqual(run.status, 1, run.stderr)
            XCTAssertTrue(run.stderr.contains(expected[name]!), run.stderr)
        }
        let piped = try Harness.run("/bin/bash", ["-c", "timeout 60 \"$T\" <(printf 'Piped *text*.\\n') -o piped.pdf"],
                                    environment: ["T": Harness.binary], cwd: dir)
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertEqual(try PDF.text(dir + "/piped.pdf").trimmingCharacters(in: .whitespacesAndNewlines), "Piped text.")
    }

    /// `wrap=none` keeps a line whole: one longer than the page runs off it, unseen, so it is a located warning
    /// (section 11: no text lost silently); one that fits says nothing.
    func testAnUnwrappedLineWiderThanTheColumnIsAWarning() throws {
        let dir = try Harness.scratch()
        let long = (1...40).map { "word\($0)" }.joined(separator: " ")
        try Harness.write("Intro.\n\n{wrap=none}\n\(long)\n\n{wrap=none}\nShort line.\n", to: dir + "/w.rt")
        let run = try shell("\"$T\" w.rt -o w.pdf", in: dir)
        XCTAssertEqual(run.status, 0, run.stderr)
        let warnings = run.stderr.split(separator: "\n").filter { $0.contains("wrap=none") }
        XCTAssertEqual(warnings.count, 1, run.stderr)
        XCTAssertTrue(warnings.first?.hasPrefix("w.rt:4:1: warning: a line of this paragraph (wrap=none) is ") == true, run.stderr)
    }

    func testWriteErrorsAreReportedAndLeaveNothing() throws {
        let dir = try Harness.scratch()
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        try Harness.write("Hello.\n", to: dir + "/h.rt")
        let before = try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasSuffix(".tmp") }
        let device = try shell("\"$T\" h.rt -o /dev/full", in: dir, environment: ["TMPDIR": tmp])
        XCTAssertEqual(device.status, 1)
        XCTAssertTrue(device.stderr.contains("cannot write '/dev/full': no space left on device"), device.stderr)
        let stdout = try shell("\"$T\" h.rt -o - > /dev/full", in: dir, environment: ["TMPDIR": tmp])
        XCTAssertEqual(stdout.status, 1)
        XCTAssertTrue(stdout.stderr.contains("cannot write standard output: no space left on device"), stdout.stderr)
        let measure = try shell("\"$T\" measure h.rt --width 5cm > /dev/full", in: dir, environment: ["TMPDIR": tmp])
        XCTAssertEqual(measure.status, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: tmp), [])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: "/dev").filter { $0.hasSuffix(".tmp") }, before)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir).sorted(), ["h.rt", "tmp"])
    }

    /// `make` interrupted, `timeout`, Ctrl-C: the temporary `.OUT.pdf.PID.N.tmp` goes with the process.
    func testSignalsRemoveTheTemporaryFile() throws {
        let dir = try Harness.scratch()
        let paragraph = String(repeating: "Words that take a while to set in justified lines. ", count: 20)
        try Harness.write("---\njustify: true\nhyphenate: true\n---\n" + String(repeating: paragraph + "\n\n", count: 3000),
                          to: dir + "/long.rt")
        for signal in [SIGTERM, SIGINT] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: Harness.binary)
            process.arguments = ["long.rt", "-o", "long.pdf"]
            process.currentDirectoryURL = URL(fileURLWithPath: dir)
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Wait (by polling, without a time budget on the build) until the temporary exists.
            var sawTemporary = false
            for _ in 0 ..< 6000 where process.isRunning {
                let names = try FileManager.default.contentsOfDirectory(atPath: dir)
                if names.contains(where: { $0.hasPrefix(".long.pdf.") && $0.hasSuffix(".tmp") }) { sawTemporary = true; break }
                usleep(20_000)
            }
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            XCTAssertTrue(sawTemporary, "the build ended before it wrote a temporary file")
            XCTAssertEqual(process.terminationReason, .uncaughtSignal)
            XCTAssertEqual(process.terminationStatus, signal)
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["long.rt"], "signal \(signal)")
        }
    }

    func testIncludeAmplificationIsBounded() throws {
        let dir = try Harness.scratch()
        // 100^5 copies of a paragraph: ten million times the files' size without a bound on the total.
        try Harness.write(String(repeating: "A line of text that the includes below repeat a great many times over. ", count: 10) + "\n\n",
                          to: dir + "/f0.rt")
        for level in 1 ... 5 {
            try Harness.write(String(repeating: "@include f\(level - 1).rt\n\n", count: 100), to: dir + "/f\(level).rt")
        }
        let result = try Harness.typeset(["f5.rt", "-o", "f5.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("error: 'f5.rt' with its @include files is too large: the limit is 8 MB"), result.stderr)
        XCTAssertEqual(result.stderr.components(separatedBy: "error:").count, 2, "one error: \(result.stderr.prefix(500))")
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/f5.pdf"))
    }

    func testDataFileWithMillionsOfValuesThroughAliasesIsAnError() throws {
        let dir = try Harness.scratch()
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1 ... 6 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        yaml += "items: *a6\n"
        try Harness.write(yaml, to: dir + "/big.yaml")
        try Harness.write("{{#items}}{{.}}{{/items}}\n", to: dir + "/d.rt")
        let result = try Harness.typeset(["d.rt", "--data", "big.yaml", "-o", "d.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("big.yaml:1:1: error: data file 'big.yaml' is too large"), result.stderr)
    }

    /// The same ten million values in front matter `vars:` are an error at the front matter, not an empty section.
    func testFrontMatterWithMillionsOfValuesThroughAliasesIsAnError() throws {
        let dir = try Harness.scratch()
        var vars = "  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1 ... 6 {
            vars += "  a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        try Harness.write("---\nvars:\n" + vars + "  items: *a6\n---\n{{#items}}{{.}}{{/items}}\n", to: dir + "/d.rt")
        let result = try Harness.typeset(["d.rt", "-o", "d.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("d.rt:2:1: error: front matter is too large"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/d.pdf"))
    }

    func testFontWarningsNameTheFrontMatterValue() throws {
        let dir = try Harness.scratch()
        try Harness.write("---\nfonts:\n  - nope.ttf\n---\nHello.\n", to: dir + "/f.rt")
        let result = try Harness.typeset(["f.rt", "-o", "f.pdf"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("f.rt:3:5: warning: cannot load font"), result.stderr)
    }

    func testDependencyFileEscapesColonsForMake() throws {
        let dir = try Harness.scratch()
        try Harness.write("Included.\n", to: dir + "/part:1 $x#.rt")
        try Harness.write("Main.\n\n@include \"part:1 $x#.rt\"\n", to: dir + "/main.rt")
        let result = try Harness.typeset(["main.rt", "-o", "main.pdf", "--deps", "main.d"], cwd: dir)
        XCTAssertEqual(result.status, 0, result.stderr)
        try Harness.write("main.pdf:\n\t\"$(T)\" main.rt -o main.pdf --deps main.d\ninclude main.d\n", to: dir + "/Makefile")
        let make = try Harness.run("make", ["-q", "-C", dir, "T=\(Harness.binary)"])
        XCTAssertFalse(make.stderr.contains("multiple target patterns"), make.stderr)
        XCTAssertEqual(make.status, 0, "make sees main.pdf up to date: \(make.stderr)")
        let touched = try Harness.run("/bin/sh", ["-c", "sleep 1; touch 'part:1 $x#.rt'; make -q T=\(Harness.binary)"], cwd: dir)
        XCTAssertEqual(touched.status, 1, "a change to the include makes main.pdf stale")
    }
}

/// A small valid PNG: typeset's own page image of a one-word document.
enum TestImage {
    static func writePNG(to path: String) throws {
        let dir = try Harness.scratch("image")
        try Harness.write("---\npage: 60pt x 40pt\nmargin: 5pt\n---\nImg\n", to: dir + "/i.rt")
        XCTAssertEqual(try Harness.typeset(["i.rt", "-o", "i.png"], cwd: dir).status, 0)
        try FileManager.default.moveItem(atPath: dir + "/i-1.png", toPath: path)
    }
}
