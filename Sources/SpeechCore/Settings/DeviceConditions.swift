/// The closed sets and small languages of the settings, as the values they decode into once, where
/// the settings are read: the device's conditions and the faulty worker's mode. The simulated
/// device (`DeviceSettings`) and the workers take these values; nothing parses their words again.

/// A value of a closed set written as one word (its raw value), compared without case.
public protocol SettingWord: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String {}

/// A privacy permission as the user left it. The words are the Speech framework's; the record
/// permission maps them onto AVFAudio's three states (`restricted` reads as denied there).
public enum PermissionState: String, SettingWord {
    case notDetermined, denied, restricted, authorized

    /// Reads a setting: `authorized`/`granted`, `denied`, `restricted`, `notDetermined`/`undetermined`
    /// (case-insensitive).
    public init?(setting: String) {
        switch setting.lowercased() {
        case "authorized", "granted": self = .authorized
        case "denied": self = .denied
        case "restricted": self = .restricted
        case "notdetermined", "undetermined": self = .notDetermined
        default: return nil
        }
    }

    /// What asking the user leaves: a state not yet determined is answered "allow" (there is no
    /// one to ask in CI); a decided one stays as it is, as on a device.
    public var afterRequest: PermissionState { self == .notDetermined ? .authorized : self }
}

/// The OS release a device runs, where Speech behaves differently on 26 and 27 (SDK 27 changed the
/// order `AssetInventory.Status` declares its cases in, and made `AnalyzerInput.buffer` a copy).
public enum OSRelease: Int, Sendable, Hashable, CaseIterable, Comparable {
    case release26 = 26
    case release27 = 27

    public static func < (a: OSRelease, b: OSRelease) -> Bool { a.rawValue < b.rawValue }
}

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

    /// Reads `SPEECH_HARNESS_ASSET_DOWNLOADS`: `immediate`, `slow:SECONDS` (above 0, at most an
    /// hour), `fail-midway`, `offline`, `disk-full`; nil for anything else.
    public init?(setting: String) {
        switch setting.lowercased() {
        case "immediate": self = .immediate
        case "fail-midway": self = .failMidway
        case "offline": self = .offline
        case "disk-full": self = .diskFull
        case let word where word.hasPrefix("slow:"):
            guard let seconds = Double(word.dropFirst(5)), seconds.isFinite, seconds > 0, seconds <= 3_600 else {
                return nil
            }
            self = .slow(seconds: seconds)
        default: return nil
        }
    }
}

/// How the virtual microphone delivers its buffers.
public enum MicrophonePacing: String, SettingWord {
    /// One tap buffer per buffer duration of wall time, as a device delivers them.
    case realtime
    /// Each buffer as soon as the program behind the tap is ready for it (see `FastPacing`); time
    /// stamps follow the samples.
    case fast
}

/// What the microphone does once its recording has played out.
public enum MicrophoneSourceEnd: Sendable, Hashable {
    /// Goes on delivering silence, as a real microphone does.
    case silence
    /// Delivers this many seconds of silence, then the engine stops and posts
    /// `AVAudioEngineConfigurationChange`, as when the input device goes away.
    case stopEngine(afterSilence: Double)

    /// Reads `SPEECH_HARNESS_MICROPHONE_END`: `silence`, `stop`, or seconds of silence before the
    /// engine stops; nil for anything else.
    public init?(setting: String) {
        switch setting.lowercased() {
        case "silence": self = .silence
        case "stop": self = .stopEngine(afterSilence: 0)
        default:
            guard let seconds = Double(setting), seconds.isFinite, seconds >= 0 else { return nil }
            self = .stopEngine(afterSilence: seconds)
        }
    }
}

/// What takes the microphone away during capture, in seconds of captured audio.
public enum MicrophoneInterruption: Sendable, Hashable {
    /// A phone call from `at` to `until`: the session is interrupted (the engine stops, the
    /// interruption notification says `began`), the audio in between is lost, and at `until`
    /// the notification says `ended` with `shouldResume`; the app must start the engine again.
    case call(at: Double, until: Double)
    /// The input route goes away at `at` (a headset unplugged): the route-change notification
    /// (`oldDeviceUnavailable`) and the engine's configuration change; the engine stops until
    /// the app starts it again, and the recording goes on from where it stopped.
    case routeChange(at: Double)

    /// Reads `SPEECH_HARNESS_INTERRUPTION`: `none` (`.some(nil)`), `call:AT-UNTIL` (0 ≤ AT < UNTIL)
    /// or `route-change:AT` (AT ≥ 0); nil for anything else.
    public static func parse(_ text: String) -> MicrophoneInterruption?? {
        let word = text.lowercased()
        if word == "none" { return .some(nil) }
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

/// What `fault-worker` does on its sessions.
public enum FaultMode: String, SettingWord {
    /// One of the faults below on a share of the sessions (`SPEECH_HARNESS_FAULT_RATE`).
    case random
    case exitAtStart = "exit-at-start"
    case crashMid = "crash-mid"
    case hang, garbage, oversized, error
    /// No fault.
    case ok
}
