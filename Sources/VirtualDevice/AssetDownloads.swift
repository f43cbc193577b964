import Foundation
import SpeechCore

/// The clock the device's timed conditions (a slow download) run on, now `HarnessContext.clock`.
public enum DeviceClock {
    /// The running task's clock (`HarnessContext.clock`).
    @available(*, deprecated, message: "read HarnessContext.current.clock; set it on a HarnessContext")
    public static var current: any Clock<Duration> { HarnessContext.current.clock }
}
