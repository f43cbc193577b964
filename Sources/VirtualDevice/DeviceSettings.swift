import Foundation
import SpeechCore

/// The virtual microphone behind `AVAudioEngine.inputNode`: what it hears, in which hardware
/// format, how fast it delivers, and what happens when its recording runs out.
public struct MicrophoneSettings: Sendable, Hashable {
    public enum Source: Sendable, Hashable {
        /// An audio file (any format libsndfile reads), resampled to the hardware rate.
        case file(path: String)
        /// One utterance of a corpus manifest (`manifest.jsonl#id`).
        case utterance(manifest: String, id: String)
        /// A device that hears nothing.
        case silence
        /// No input device at all, as on a CI runner or a Mac mini without a microphone.
        case none
    }

    /// How the microphone delivers its buffers (`MicrophonePacing`, from SpeechCore).
    public typealias Pacing = MicrophonePacing
    /// What the microphone does once its recording has played out (`MicrophoneSourceEnd`, from SpeechCore).
    public typealias SourceEnd = MicrophoneSourceEnd
    /// What takes the microphone away during capture (`MicrophoneInterruption`, from SpeechCore).
    public typealias Interruption = MicrophoneInterruption

    public var source: Source
    /// The hardware format: an iPhone's built-in microphone reports 48 kHz mono Float32.
    public var sampleRate: Double
    public var channelCount: Int
    public var pacing: Pacing
    /// How far fast pacing may run ahead of the recogniser, or of the wall clock.
    public var fastPacing: FastPacing
    public var end: SourceEnd
    /// A call or a route change during capture; nil: none.
    public var interruption: Interruption?

    public init(
        source: Source, sampleRate: Double = 48_000, channelCount: Int = 1, pacing: Pacing = .realtime,
        fastPacing: FastPacing = FastPacing(), end: SourceEnd = .silence, interruption: Interruption? = nil
    ) {
        self.interruption = interruption
        self.source = source
        self.sampleRate = sampleRate
        self.channelCount = channelCount
        self.pacing = pacing
        self.fastPacing = fastPacing
        self.end = end
    }
}

/// The simulated device an Apple-style program runs on: its microphone, the permissions the user
/// gave, the locale it is set to, and the conditions its hardware and network impose (the device
/// profiles of docs/device-profiles.md). Chosen without touching the program: set on the context
/// (`HarnessContext.device`) in tests, else by the environment (see ``fromEnvironment(_:)``).
public struct DeviceSettings: Sendable, Hashable {
    public var microphone: MicrophoneSettings
    /// Microphone access (`AVAudioSession.recordPermission`, `AVAudioApplication.recordPermission`).
    public var recordPermission: PermissionState
    /// Speech recognition (`SFSpeechRecognizer.authorizationStatus()`).
    public var speechAuthorization: PermissionState
    /// Where the loudspeaker writes what was played (a WAV file); nil: kept in memory only.
    public var speakerOutput: String?
    /// The locale the device is set to, as a BCP-47 tag (``DeviceLocale``).
    public var locale: String
    /// Whether the hardware runs SpeechTranscriber (DictationTranscriber runs everywhere).
    public var speechTranscriberAvailable: Bool
    /// Whether the transcribers offer any locale (none inside a virtual machine).
    public var offersLocales: Bool
    /// What asset downloads meet.
    public var assetDownloads: AssetDownloads
    /// Whether the app's audio session can be set up (a device whose audio system refuses it).
    public var audioSessionConfigurable: Bool
    /// The OS release whose Speech behaviour the device has where 26 and 27 differ.
    public var osRelease: OSRelease

    public init(
        microphone: MicrophoneSettings = MicrophoneSettings(source: .none),
        recordPermission: PermissionState = .authorized,
        speechAuthorization: PermissionState = .authorized,
        speakerOutput: String? = nil,
        locale: String = "en-US",
        speechTranscriberAvailable: Bool = true,
        offersLocales: Bool = true,
        assetDownloads: AssetDownloads = .immediate,
        audioSessionConfigurable: Bool = true,
        osRelease: OSRelease = .release27
    ) {
        self.microphone = microphone
        self.recordPermission = recordPermission
        self.speechAuthorization = speechAuthorization
        self.speakerOutput = speakerOutput
        self.locale = LocaleTag.normalized(locale)
        self.speechTranscriberAvailable = speechTranscriberAvailable
        self.offersLocales = offersLocales
        self.assetDownloads = assetDownloads
        self.audioSessionConfigurable = audioSessionConfigurable
        self.osRelease = osRelease
    }

    /// The device set on the running task's context, if any (`HarnessContext.device`).
    @available(*, deprecated, message: "set HarnessContext.device and run under HarnessContext.$current")
    public static var override: DeviceSettings? { HarnessContext.current.chosenDevice }

    /// Reads the settings from the environment, as `HarnessSettings` declares them (the group
    /// "The simulated device": the microphone's source, pacing, leads, end, rate and channels, the
    /// two permissions, the device's locale, SpeechTranscriber's availability, the locales offered,
    /// asset downloads, the audio session, the OS release, the speaker's file). A value a setting cannot take is an error naming it.
    public static func fromEnvironment(
        _ environment: [String: String] = HarnessContext.current.environment.variables
    ) throws(DeviceSettingsError) -> DeviceSettings {
        typealias S = HarnessSettings
        var microphone = MicrophoneSettings(source: .none)
        if let text = S.microphone.text(in: environment) { microphone.source = source(text) }
        microphone.pacing = try S.microphonePacing.value(in: environment)
        microphone.fastPacing.recognitionLead = try S.microphoneLead.value(in: environment)
        microphone.fastPacing.clockLead = try S.microphoneClockLead.value(in: environment)
        microphone.end = try S.microphoneEnd.value(in: environment)
        microphone.sampleRate = try S.microphoneRate.value(in: environment)
        microphone.channelCount = try S.microphoneChannels.value(in: environment)
        microphone.interruption = try S.interruption.value(in: environment)
        return DeviceSettings(
            microphone: microphone,
            recordPermission: try S.recordPermission.value(in: environment),
            speechAuthorization: try S.authorization.value(in: environment),
            speakerOutput: S.speaker.text(in: environment),
            locale: try S.deviceLocale.value(in: environment),
            speechTranscriberAvailable: try S.speechTranscriber.value(in: environment),
            offersLocales: try S.supportedLocales.value(in: environment),
            assetDownloads: try S.assetDownloads.value(in: environment),
            audioSessionConfigurable: try S.audioSession.value(in: environment),
            osRelease: try S.osRelease.value(in: environment))
    }

    /// `silence`, `none`, `manifest.jsonl#id`, or a file path.
    public static func source(_ text: String) -> MicrophoneSettings.Source {
        switch text.lowercased() {
        case "silence": return .silence
        case "none": return .none
        default:
            if let hash = text.lastIndex(of: "#"), text[..<hash].hasSuffix(".jsonl") || text[..<hash].hasSuffix(".json")
            {
                return .utterance(manifest: String(text[..<hash]), id: String(text[text.index(after: hash)...]))
            }
            return .file(path: text)
        }
    }

    /// The running task's device (`HarnessContext.device`).
    public static var current: DeviceSettings { HarnessContext.current.device }

    /// The device `environment` describes. A value a setting cannot take reads as its default here
    /// (the Apple API that reads these settings cannot throw); the first throwing call of the
    /// harness's Apple API reports it (`HarnessEnvironment.validated()`).
    public static func usable(in environment: HarnessEnvironment) -> DeviceSettings {
        let usable = environment.variables.filter { name, value in
            guard let setting = HarnessSettings.named(name), setting.variable == name else { return true }
            return setting.givenText(in: [name: value]).map(setting.accepts) ?? true
        }
        return (try? fromEnvironment(usable)) ?? DeviceSettings()
    }
}

extension HarnessContext {
    private enum DeviceKey: HarnessContextKey {
        static let defaultValue: DeviceSettings? = nil
    }

    private enum PermissionsKey: HarnessContextKey {
        static let defaultValue = PermissionLedger.process
    }

    /// The simulated device: the one set here, else the one the environment's settings describe.
    public var device: DeviceSettings {
        get { chosenDevice ?? DeviceSettings.usable(in: environment) }
        set { chosenDevice = newValue }
    }

    /// The device set here, if any.
    var chosenDevice: DeviceSettings? {
        get { self[DeviceKey.self] }
        set { self[DeviceKey.self] = newValue }
    }

    /// The permissions the running program has asked for (the process's ledger unless a test
    /// gives its own, so tests do not see each other's answers).
    public var permissions: PermissionLedger {
        get { self[PermissionsKey.self] }
        set { self[PermissionsKey.self] = newValue }
    }
}

/// A setting of the simulated device that does not hold a value it can take.
public typealias DeviceSettingsError = SettingError

/// Permissions the running program has asked for: a request moves a state not yet determined to
/// the user's answer for the rest of the process, as the system remembers it on a device. Tests
/// that must not see each other's answers give each their own ledger (`HarnessContext.permissions`).
public final class PermissionLedger: Sendable {
    private struct Answers {
        var record: PermissionState?
        var speech: PermissionState?
    }

    private let answers = Locked(Answers())

    public init() {}

    /// The process's ledger.
    public static let process = PermissionLedger()

    /// The running task's ledger (`HarnessContext.permissions`).
    @available(*, deprecated, message: "read HarnessContext.current.permissions; set it on a HarnessContext")
    public static var current: PermissionLedger { HarnessContext.current.permissions }

    /// The record permission now.
    public var recordPermission: PermissionState { state(\.record, configured: \.recordPermission) }

    /// Asks for microphone access; returns the answer.
    public func requestRecordPermission() -> PermissionState { request(\.record, configured: \.recordPermission) }

    /// The speech-recognition authorization now.
    public var speechAuthorization: PermissionState { state(\.speech, configured: \.speechAuthorization) }

    /// Asks for speech recognition; returns the answer.
    public func requestSpeechAuthorization() -> PermissionState { request(\.speech, configured: \.speechAuthorization) }

    private func state(
        _ answer: KeyPath<Answers, PermissionState?>, configured: KeyPath<DeviceSettings, PermissionState>
    ) -> PermissionState {
        answers.withLock { $0[keyPath: answer] } ?? HarnessContext.current.device[keyPath: configured]
    }

    private func request(
        _ answer: WritableKeyPath<Answers, PermissionState?>, configured: KeyPath<DeviceSettings, PermissionState>
    ) -> PermissionState {
        let state = state(answer, configured: configured).afterRequest
        answers.withLock { $0[keyPath: answer] = state }
        return state
    }
}
