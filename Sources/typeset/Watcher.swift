// `--watch`: rebuild when any input's modification time changes. Polling (once a second) needs no
// platform API and covers every input the last build read: includes, template, data, images, fonts.

import Foundation

enum Watcher {
    /// `build` runs one build and returns the files it read.
    static func run(build: () -> [String]) -> Never {
        var stamps = stampsOf(build())
        while true {
            Thread.sleep(forTimeInterval: 1)
            if stampsOf(Array(stamps.keys)) != stamps {
                printError("typeset: change detected, rebuilding")
                stamps = stampsOf(build())
            }
        }
    }

    private static func stampsOf(_ paths: [String]) -> [String: Date] {
        var out: [String: Date] = [:]
        for path in paths {
            out[path] = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date ?? .distantPast
        }
        return out
    }
}
