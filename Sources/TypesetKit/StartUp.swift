// Work a build will wait for, started as early as the CLI knows there is a build (issue 14, start-up).

import TypesetLayout

extension Typesetter {
    /// Makes the shared font map now. Pango starts fontconfig's set-up (reading its XML configuration: some
    /// 24M instructions, a third of a one-page build) on a thread of its own when a font map is made, and
    /// lowering (list markers, heading numbers) and layout wait for it; made here, it runs while the input is
    /// read and parsed instead of after.
    public static func startFontSetup() { _ = LayoutEngine.shared }
}
