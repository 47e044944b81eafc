// swift-tools-version:6.0
// typeset: RT markup -> syntax tree -> attributed-string IR -> Pango layout -> Cairo PDF.
// One module per pipeline stage; data flows one way. RTSyntax and TypesetIR never touch Pango or Cairo.
import PackageDescription

// Release builds only (issue 14, start-up). Generic types such as [String: Int] are otherwise made from their
// mangled names at first use, which checks each conformance (String: Hashable) by scanning all of the binary's
// ~5,800 conformance records: some 3 ms of CPU in a one-page document. Calling the metadata accessors directly skips that.
// Each function in a section of its own, so that the link below can place the ones a build runs together.
let startUp: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-disable-concrete-type-metadata-mangled-name-accessors"], .when(configuration: .release)),
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux], configuration: .release)),
]

// The release link (issue 14, memory and start-up), with the toolchain's lld:
// - scripts/hot-functions.order (scripts/link_order.py) lists the functions typical builds run; placed first and
//   together, the pages they share are all the kernel maps of the 18 MB of code (it maps whole page-cache folios
//   of up to 256 KB around each first call): 6-8 MB of the binary resident for one page instead of 11.
// - packed relative relocations (DT_RELR, glibc 2.36): 15 KB to read at start instead of 1.9 MB of RELA entries.
let releaseLink: [LinkerSetting] = [
    .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs",
                  "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/scripts/hot-functions.order",
                  "-Xlinker", "--no-warn-symbol-ordering"],
                 .when(platforms: [.linux], configuration: .release)),
]

let package = Package(
    name: "typeset",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "typeset", targets: ["typeset"]),
        .library(name: "TypesetKit", targets: ["TypesetKit"]),
    ],
    dependencies: [
        // YAML front matter: the only maintained YAML parser in the toolchain's package set; gives marks (line/col).
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // Command line: standard, generates --help, and exit code 64 for usage errors is remapped to 2 in main.
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // C shim: the only place that sees Pango/Cairo headers.
        .systemLibrary(
            name: "CPangoCairo",
            pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev", "libfribidi-dev", "libcairo2-dev"])]
        ),
        // SVG images: librsvg parses them and draws them through cairo as vectors (no rasterising). Loaded with
        // dlopen on the first SVG (Sources/CRsvg/include/typeset_svg.h), so other documents never map it.
        .target(name: "CRsvg"),
        // qpdf's C API: the tagging stage rewrites cairo's file (structure tree, XMP, output intent). Loaded with
        // dlopen while a tagged build lays out (Sources/CQpdf/include/typeset_qpdf.h): linked, libqpdf and the
        // dozen libraries it pulls in were the largest part of the dynamic loader's work at every start.
        .target(name: "CQpdf", linkerSettings: [.linkedLibrary("z")]),
        // Removes temporary output files when a signal ends a build (a handler must be C to be signal-safe).
        .target(name: "CTempCleanup"),
        // glibc's mallopt and malloc_trim, called without dlsym (TypesetKit's MallocArenas).
        .target(name: "CMalloc"),
        // Stage 1: parse RT source into an immutable syntax tree with exact source ranges.
        .target(name: "RTSyntax", dependencies: [.product(name: "Yams", package: "Yams")], swiftSettings: startUp),
        // Stage 2: lower the tree with styles into the attributed-string IR (value types, no Cairo).
        .target(name: "TypesetIR", dependencies: ["RTSyntax"], swiftSettings: startUp),
        // Stage 3: lay out IR paragraphs with Pango into lines placed on pages.
        .target(name: "TypesetLayout", dependencies: ["TypesetIR", "CPangoCairo", "CRsvg"], swiftSettings: startUp),
        // Stage 4: draw laid-out pages with Cairo into a PDF (fonts, links, bookmarks, metadata).
        .target(name: "TypesetPDF", dependencies: ["TypesetLayout", "TypesetIR", "CPangoCairo", "CRsvg", "CQpdf", "CTempCleanup"], swiftSettings: startUp),
        // The pipeline as one call: file in, PDF out, diagnostics back. The CLI is a thin shell over it.
        .target(name: "TypesetKit", dependencies: ["RTSyntax", "TypesetIR", "TypesetLayout", "TypesetPDF", "CTempCleanup", "CMalloc"], swiftSettings: startUp),
        .executableTarget(
            name: "typeset",
            dependencies: ["TypesetKit", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: startUp,
            linkerSettings: releaseLink
        ),
        // libFuzzer target over the parser and the whole pipeline (`make fuzz`); a plain build replays inputs.
        .executableTarget(name: "typeset-fuzz", dependencies: ["TypesetKit", "RTSyntax", "TypesetIR"]),
        // The growth check (time ratio of two input sizes) the unit test targets share.
        .target(name: "GrowthCheck", path: "Tests/GrowthCheck"),
        .testTarget(name: "RTSyntaxTests", dependencies: ["RTSyntax", "GrowthCheck"]),
        .testTarget(name: "TypesetIRTests", dependencies: ["TypesetIR", "RTSyntax", "GrowthCheck"]),
        .testTarget(name: "TypesetLayoutTests", dependencies: ["TypesetLayout", "TypesetPDF", "TypesetIR", "GrowthCheck"]),
        .testTarget(name: "EndToEndTests", dependencies: []),
        // The library API (incremental builds) without the binary.
        .testTarget(name: "TypesetKitTests", dependencies: ["TypesetKit", "TypesetLayout", "CMalloc"]),
    ]
)
