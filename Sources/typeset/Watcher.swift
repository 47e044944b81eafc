// `--watch`: rebuild when any input changes. Polling (once a second) needs no platform API and covers every input
// the last build read: includes, template, data, images, fonts. What counts as a change: WatchedInputs.swift.

import Foundation
import TypesetKit

enum Watcher {
    /// `first`: the document (known before the first build); `build` runs one build and returns the files it read.
    static func run(first: [String], build: () -> [String]) -> Never {
        var inputs = WatchedInputs(first)
        inputs.record(build)
        while true {
            Thread.sleep(forTimeInterval: 1)
            if inputs.changed() {
                printError("typeset: change detected, rebuilding")
                inputs.record(build)
            }
        }
    }
}
