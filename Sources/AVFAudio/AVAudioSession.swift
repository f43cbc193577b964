import Foundation
import SpeechCore
import VirtualDevice

/// The app's audio session: how it uses audio and which hardware it gets. On Linux the hardware
/// is the virtual microphone of `DeviceSettings`; category, mode and options are kept and
/// reported back (they change no routing here), and the record permission is the configured one
/// (`SPEECH_HARNESS_RECORD_PERMISSION`). With permission denied, the microphone records
/// silence, as Apple documents for a device.
open class AVAudioSession: NSObject, @unchecked Sendable {
    public struct Category: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public static let ambient = Category("AVAudioSessionCategoryAmbient")
        public static let soloAmbient = Category("AVAudioSessionCategorySoloAmbient")
        public static let playback = Category("AVAudioSessionCategoryPlayback")
        public static let record = Category("AVAudioSessionCategoryRecord")
        public static let playAndRecord = Category("AVAudioSessionCategoryPlayAndRecord")
        public static let multiRoute = Category("AVAudioSessionCategoryMultiRoute")
        public static let audioProcessing = Category("AVAudioSessionCategoryAudioProcessing")
    }

    public struct Mode: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public static let `default` = Mode("AVAudioSessionModeDefault")
        public static let voiceChat = Mode("AVAudioSessionModeVoiceChat")
        public static let gameChat = Mode("AVAudioSessionModeGameChat")
        public static let videoRecording = Mode("AVAudioSessionModeVideoRecording")
        public static let measurement = Mode("AVAudioSessionModeMeasurement")
        public static let moviePlayback = Mode("AVAudioSessionModeMoviePlayback")
        public static let videoChat = Mode("AVAudioSessionModeVideoChat")
        public static let spokenAudio = Mode("AVAudioSessionModeSpokenAudio")
        public static let voicePrompt = Mode("AVAudioSessionModeVoicePrompt")
    }

    public struct CategoryOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let mixWithOthers = CategoryOptions(rawValue: 0x1)
        public static let duckOthers = CategoryOptions(rawValue: 0x2)
        public static let allowBluetooth = CategoryOptions(rawValue: 0x4)
        public static let allowBluetoothHFP = CategoryOptions(rawValue: 0x4)
        public static let defaultToSpeaker = CategoryOptions(rawValue: 0x8)
        public static let interruptSpokenAudioAndMixWithOthers = CategoryOptions(rawValue: 0x11)
        public static let allowBluetoothA2DP = CategoryOptions(rawValue: 0x20)
        public static let allowAirPlay = CategoryOptions(rawValue: 0x40)
        public static let overrideMutedMicrophoneInterruption = CategoryOptions(rawValue: 0x80)
    }

    public struct SetActiveOptions: OptionSet, Hashable, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let notifyOthersOnDeactivation = SetActiveOptions(rawValue: 1)
    }

    /// Apple's four-character codes ('undt', 'deny', 'grnt').
    public enum RecordPermission: UInt, Sendable {
        case undetermined = 0x756E_6474
        case denied = 0x6465_6E79
        case granted = 0x6772_6E74

        init(_ state: PermissionState) {
            switch state {
            case .authorized: self = .granted
            case .notDetermined: self = .undetermined
            case .denied, .restricted: self = .denied
            }
        }
    }

    public enum PortOverride: UInt, Sendable {
        case none = 0
        case speaker = 0x7370_6B72
    }

    public enum InterruptionType: UInt, Sendable {
        case began = 1
        case ended = 0
    }

    public struct InterruptionOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let shouldResume = InterruptionOptions(rawValue: 1)
    }

    public enum RouteChangeReason: UInt, Sendable {
        case unknown = 0
        case newDeviceAvailable, oldDeviceUnavailable, categoryChange, override
        case wakeFromSleep = 6
        case noSuitableRouteForCategory, routeConfigurationChange
    }

    public static let interruptionNotification = Notification.Name("AVAudioSessionInterruptionNotification")
    public static let routeChangeNotification = Notification.Name("AVAudioSessionRouteChangeNotification")
    public static let mediaServicesWereLostNotification = Notification.Name(
        "AVAudioSessionMediaServicesWereLostNotification")
    public static let mediaServicesWereResetNotification = Notification.Name(
        "AVAudioSessionMediaServicesWereResetNotification")

    private struct Configuration {
        var category: Category = .soloAmbient
        var mode: Mode = .default
        var options: CategoryOptions = []
        var active = false
        var preferredSampleRate: Double = 0
        var preferredIOBufferDuration: TimeInterval = 0
        var preferredInputChannels = 0
    }

    private let configuration = Locked(Configuration())
    private static let shared = AVAudioSession()

    /// The app's one session.
    open class func sharedInstance() -> AVAudioSession { shared }

    private var device: DeviceSettings { DeviceSettings.current }

    open var category: Category { configuration.withLock { $0.category } }
    open var mode: Mode { configuration.withLock { $0.mode } }
    open var categoryOptions: CategoryOptions { configuration.withLock { $0.options } }

    open func setCategory(_ category: Category) throws { try setCategory(category, mode: mode, options: []) }
    open func setCategory(_ category: Category, options: CategoryOptions = []) throws {
        try setCategory(category, mode: mode, options: options)
    }

    /// Sets how the app uses audio. `defaultToSpeaker` needs `playAndRecord` and the Bluetooth
    /// A2DP option a playing category, as on a device (error -50, `paramErr`).
    open func setCategory(_ category: Category, mode: Mode, options: CategoryOptions = []) throws {
        try refuseOnAnUnconfigurableDevice()
        if options.contains(.defaultToSpeaker) && category != .playAndRecord {
            throw NSError(
                domain: NSOSStatusErrorDomain, code: -50,
                userInfo: [NSLocalizedDescriptionKey: "defaultToSpeaker is only valid with the playAndRecord category"])
        }
        configuration.withLock {
            $0.category = category
            $0.mode = mode
            $0.options = options
        }
    }

    open func setMode(_ mode: Mode) throws { configuration.withLock { $0.mode = mode } }

    open func setActive(_ active: Bool, options: SetActiveOptions = []) throws {
        if active { try refuseOnAnUnconfigurableDevice() }
        configuration.withLock { $0.active = active }
    }

    /// A device whose audio system cannot be set up (`SPEECH_HARNESS_AUDIO_SESSION=unconfigurable`)
    /// refuses the configuration with Core Audio's `cannotStartRecording` ('!rec').
    private func refuseOnAnUnconfigurableDevice() throws {
        guard !device.audioSessionConfigurable else { return }
        throw NSError(
            domain: NSOSStatusErrorDomain, code: 561_145_187,
            userInfo: [NSLocalizedDescriptionKey: "the device's audio system cannot be configured"])
    }

    /// Harness extra: whether the app activated the session (an interruption deactivates it).
    public var isActive: Bool { configuration.withLock { $0.active } }

    /// A call took the session: it is no longer active until the app activates it again.
    func interrupted() { configuration.withLock { $0.active = false } }

    // MARK: Permission

    /// Deprecated by Apple in favour of `AVAudioApplication`; both read the same setting.
    open var recordPermission: RecordPermission {
        RecordPermission(HarnessContext.current.permissions.recordPermission)
    }

    /// Asks for microphone access. A permission not yet determined is granted (there is no user
    /// to ask); a decided one is reported at once. The block runs on a background queue.
    open func requestRecordPermission(_ response: @escaping @Sendable (Bool) -> Void) {
        let granted = HarnessContext.current.permissions.requestRecordPermission() == .authorized
        DispatchQueue.global().async { response(granted) }
    }

    // MARK: Hardware

    open var isInputAvailable: Bool { device.microphone.source != .none }
    open var sampleRate: Double { isInputAvailable ? device.microphone.sampleRate : 48_000 }
    open var inputNumberOfChannels: Int { isInputAvailable ? device.microphone.channelCount : 0 }
    open var maximumInputNumberOfChannels: Int { inputNumberOfChannels }
    open var outputNumberOfChannels: Int { 2 }
    open var inputLatency: TimeInterval { 0 }
    open var outputLatency: TimeInterval { 0 }
    /// The virtual microphone's buffers are 100 ms long at the least (see `CaptureSchedule`).
    open var ioBufferDuration: TimeInterval { 0.1 }
    open var isOtherAudioPlaying: Bool { false }
    open var secondaryAudioShouldBeSilencedHint: Bool { false }
    open var inputGain: Float { 1 }
    open var isInputGainSettable: Bool { false }

    open var preferredSampleRate: Double { configuration.withLock { $0.preferredSampleRate } }
    open var preferredIOBufferDuration: TimeInterval { configuration.withLock { $0.preferredIOBufferDuration } }

    /// Recorded, not applied: the virtual microphone keeps its configured rate, as devices that
    /// refuse the preference do, so the app's conversion path is always exercised.
    open func setPreferredSampleRate(_ sampleRate: Double) throws {
        configuration.withLock { $0.preferredSampleRate = sampleRate }
    }
    open func setPreferredIOBufferDuration(_ duration: TimeInterval) throws {
        configuration.withLock { $0.preferredIOBufferDuration = duration }
    }
    open func setPreferredInputNumberOfChannels(_ count: Int) throws {
        configuration.withLock { $0.preferredInputChannels = count }
    }
    open func overrideOutputAudioPort(_ portOverride: PortOverride) throws {}
}

public let AVAudioSessionInterruptionTypeKey = "AVAudioSessionInterruptionTypeKey"
public let AVAudioSessionInterruptionOptionKey = "AVAudioSessionInterruptionOptionKey"
public let AVAudioSessionRouteChangeReasonKey = "AVAudioSessionRouteChangeReasonKey"

#if !canImport(Darwin)
    /// Foundation on Linux has no `NSOSStatusErrorDomain`.
    public let NSOSStatusErrorDomain = "NSOSStatusErrorDomain"
#endif

/// The app's audio state across sessions (iOS 17, macOS 14): the record permission lives here now.
open class AVAudioApplication: NSObject, @unchecked Sendable {
    /// Apple names this enum in lower camel case.
    // swift-format-ignore: TypeNamesShouldBeCapitalized
    public enum recordPermission: Int, Sendable {
        case undetermined = 0x756E_6474
        case denied = 0x6465_6E79
        case granted = 0x6772_6E74
    }

    private static let sharedApplication = AVAudioApplication()
    open class var shared: AVAudioApplication { sharedApplication }

    open var recordPermission: AVAudioApplication.recordPermission {
        switch HarnessContext.current.permissions.recordPermission {
        case .authorized: return .granted
        case .notDetermined: return .undetermined
        case .denied, .restricted: return .denied
        }
    }

    /// Asks for microphone access (see `AVAudioSession.requestRecordPermission`).
    open class func requestRecordPermission(completionHandler response: @escaping @Sendable (Bool) -> Void) {
        let granted = HarnessContext.current.permissions.requestRecordPermission() == .authorized
        DispatchQueue.global().async { response(granted) }
    }

    open class func requestRecordPermission() async -> Bool {
        HarnessContext.current.permissions.requestRecordPermission() == .authorized
    }

    private let muted = Locked(false)
    open var isInputMuted: Bool { muted.withLock { $0 } }
    open func setInputMuted(_ muted: Bool) throws { self.muted.withLock { $0 = muted } }
}
