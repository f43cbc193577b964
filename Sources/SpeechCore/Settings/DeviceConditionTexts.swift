/// The text forms `SPEECH_HARNESS_ASSET_DOWNLOADS` takes.
@available(*, deprecated, message: "the setting decodes into AssetDownloads; use AssetDownloads(setting:)")
public enum AssetDownloadsText {
    /// The value normalized (`slow:3`, `offline`), or nil when it is none of the forms.
    public static func parse(_ text: String) -> String? {
        let word = text.lowercased()
        if ["immediate", "fail-midway", "offline", "disk-full"].contains(word) { return word }
        guard word.hasPrefix("slow:"), let seconds = Double(word.dropFirst(5)), seconds.isFinite, seconds > 0,
            seconds <= 3_600
        else { return nil }
        return "slow:" + EngineName.number(seconds)
    }
}

/// The forms `SPEECH_HARNESS_INTERRUPTION` takes, read into times.
@available(
    *, deprecated, message: "the setting decodes into MicrophoneInterruption; use MicrophoneInterruption.parse(_:)"
)
public enum InterruptionText {
    public enum Parsed: Sendable, Equatable {
        case none
        case call(at: Double, until: Double)
        case routeChange(at: Double)
    }

    /// `none`, `call:AT-UNTIL` (0 ≤ AT < UNTIL) or `route-change:AT` (AT ≥ 0), in seconds; nil for
    /// anything else.
    public static func parse(_ text: String) -> Parsed? {
        let word = text.lowercased()
        if word == "none" { return Parsed.none }
        let parts = word.split(separator: ":", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let times = parts[1].split(separator: "-", omittingEmptySubsequences: false).map { Double($0) }
        switch parts[0] {
        case "call":
            guard times.count == 2, let at = times[0], let until = times[1], at >= 0, until > at, until.isFinite
            else { return nil }
            return .call(at: at, until: until)
        case "route-change":
            guard times.count == 1, let at = times[0], at >= 0, at.isFinite else { return nil }
            return .routeChange(at: at)
        default: return nil
        }
    }
}
