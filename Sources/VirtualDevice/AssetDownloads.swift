import Foundation
import SpeechCore

/// What the device's asset downloads meet. Apple documents no error for a failed download, so the
/// failures throw Foundation's own errors for the condition (see docs/device-profiles.md).
public enum AssetDownloads: Sendable, Hashable {
    /// As fast as the local files copy.
    case immediate
    /// `Progress` advances a tenth of the bytes at a time over `seconds` of the device's clock.
    case slow(seconds: Double)
    /// Half the bytes arrive, then the connection drops: `URLError(.networkConnectionLost)`.
    case failMidway
    /// No network: `URLError(.notConnectedToInternet)` before any byte.
    case offline
    /// No room to install: `CocoaError(.fileWriteOutOfSpace)` before any byte is written.
    case diskFull

    /// Reads `SPEECH_HARNESS_ASSET_DOWNLOADS`: `immediate`, `slow:SECONDS`, `fail-midway`,
    /// `offline`, `disk-full`.
    public init?(setting: String) {
        switch AssetDownloadsText.parse(setting) {
        case "immediate": self = .immediate
        case "fail-midway": self = .failMidway
        case "offline": self = .offline
        case "disk-full": self = .diskFull
        case let slow?:
            guard let seconds = Double(slow.dropFirst(5)) else { return nil }
            self = .slow(seconds: seconds)
        case nil: return nil
        }
    }
}

/// The clock the device's timed conditions (a slow download) run on, now `HarnessContext.clock`.
public enum DeviceClock {
    /// The running task's clock (`HarnessContext.clock`).
    @available(*, deprecated, message: "read HarnessContext.current.clock; set it on a HarnessContext")
    public static var current: any Clock<Duration> { HarnessContext.current.clock }
}
