/// Every setting of the harness, declared once. Library code reads a setting through its
/// declaration (`HarnessSettings.whisperBeamSize.value(in:)`), never by its variable's name; the
/// command line makes its options for settings from the same declarations; docs/configuration.md's
/// table is generated from ``all`` (`speech-harness settings --markdown`) and a test keeps the two
/// equal.
public enum HarnessSettings {
    // MARK: Engine choice and assets

    public static let engine = Setting<String?>(
        "SPEECH_HARNESS_ENGINE", key: "engine", option: "engine", group: .engine,
        allowed: "an engine id `speech-harness engines` lists",
        defaultText: "the preferred installed engine for the locale",
        summary: "The engine Apple-style code and commands use.")
    public static let script = Setting<String?>(
        "SPEECH_HARNESS_SCRIPT", key: "script", group: .engine,
        allowed: "a script JSON file, or manifest.jsonl#id", defaultText: "an empty script",
        summary: "What the scripted engine says: a script's words, or a corpus utterance's word times.")
    public static let assets = Setting<String?>(
        "SPEECH_HARNESS_ASSETS", key: "assets", group: .engine, allowed: "a folder",
        defaultText: "$XDG_CACHE_HOME/speech-harness/assets, else ~/.cache/speech-harness/assets",
        summary: "Where AssetInventory installs engine assets (models, templates).")
    public static let maximumReservedLocales = Setting<Int>(
        "SPEECH_HARNESS_MAX_RESERVED_LOCALES", key: "maxReservedLocales", group: .engine, range: 1...1_000,
        default: 5, summary: "How many locales AssetInventory reserves at once (`maximumReservedLocales`).")
    public static let maximumEngineInstances = Setting<Int>(
        "SPEECH_HARNESS_MAX_ENGINE_INSTANCES", key: "maxEngineInstances", group: .engine, range: 1...1_000,
        default: 4,
        summary:
            "How many distinct engine configurations analyzers hold at once before `insufficientResources` (read once per process)."
    )
    public static let dspTemplates = Setting<String?>(
        "SPEECH_HARNESS_DSP_TEMPLATES", key: "dspTemplates", group: .engine, allowed: "a folder",
        defaultText: "Corpus/build/dsp-templates under the package root",
        summary: "Where the DSP engine's enrolled template files are.")

    // MARK: The Whisper worker

    public static let whisperComputeType = Setting<String>(
        "SPEECH_HARNESS_WHISPER_COMPUTE_TYPE", key: "whisperComputeType", option: "whisper-compute-type",
        group: .whisper, oneOf: ["int8", "int8_float32", "float32"], default: "int8",
        summary: "Whisper's CTranslate2 compute type.")
    public static let whisperBeamSize = Setting<Int>(
        "SPEECH_HARNESS_WHISPER_BEAM_SIZE", key: "whisperBeamSize", option: "whisper-beam", group: .whisper,
        range: 1...16, default: 1, summary: "Whisper's beam size (1: greedy).")
    public static let whisperThreads = Setting<Int>(
        "SPEECH_HARNESS_WHISPER_THREADS", key: "whisperThreads", option: "whisper-threads", group: .whisper,
        range: 1...64, default: 1, summary: "CPU threads per Whisper worker process.")
    public static let whisperSeed = Setting<Int>(
        "SPEECH_HARNESS_WHISPER_SEED", key: "whisperSeed", option: "whisper-seed", group: .whisper,
        range: 0...Int(UInt32.max), default: 0,
        summary: "Seed of Whisper's fallback sampling, so runs repeat; a seed other than 0 is in the engine's name.")

    // MARK: The faulty worker

    public static let faultMode = Setting<FaultMode>(
        "SPEECH_HARNESS_FAULT_MODE", key: "faultMode", group: .faultWorker, default: .random,
        summary: "What `fault-worker` does: one fault on every session, or `random` faults at the rate below.")
    public static let faultRate = Setting<Double>(
        "SPEECH_HARNESS_FAULT_RATE", key: "faultRate", group: .faultWorker, range: 0...1, unit: "a share",
        default: 0.1, summary: "The share of sessions `fault-worker` fails in `random` mode.")
    public static let faultSeed = Setting<String>(
        "SPEECH_HARNESS_FAULT_SEED", key: "faultSeed", group: .faultWorker, allowed: "any text", default: "0",
        defaultText: "0",
        summary: "Seed of the random faults, hashed with each session's audio: the same seed plants the same faults.",
        parse: { $0 })
    public static let faultTimeout = Setting<Double>(
        "SPEECH_HARNESS_FAULT_TIMEOUT", key: "faultTimeout", group: .faultWorker, range: 0.001...3_600,
        unit: "seconds", default: 5, summary: "How long a `fault-worker` call may stay silent before it counts as hung."
    )

    // MARK: The simulated device

    public static let microphone = Setting<String?>(
        "SPEECH_HARNESS_MICROPHONE", key: "microphone", group: .device,
        allowed: "an audio file, manifest.jsonl#id, silence or none", defaultText: "none",
        summary: "What the virtual microphone behind `AVAudioEngine.inputNode` hears; none: no input device.")
    public static let microphonePacing = Setting<MicrophonePacing>(
        "SPEECH_HARNESS_MICROPHONE_PACING", key: "microphonePacing", group: .device, default: .realtime,
        summary: "Tap buffers at the pace of a device, or as fast as the program behind the tap takes them.")
    public static let microphoneLead = Setting<Double>(
        "SPEECH_HARNESS_MICROPHONE_LEAD", key: "microphoneLead", group: .device, range: 0...Double.infinity,
        unit: "seconds", default: 1,
        summary: "In fast pacing, the audio the program may hold unconsumed once a recogniser takes it.")
    public static let microphoneClockLead = Setting<Double>(
        "SPEECH_HARNESS_MICROPHONE_CLOCK_LEAD", key: "microphoneClockLead", group: .device,
        range: 0...Double.infinity, unit: "seconds", default: 10,
        summary: "In fast pacing, how far audio no recogniser takes may run ahead of wall time.")
    public static let microphoneEnd = Setting<MicrophoneSourceEnd>(
        "SPEECH_HARNESS_MICROPHONE_END", key: "microphoneEnd", group: .device,
        allowed: "silence, stop, or seconds of silence before the engine stops", default: .silence,
        defaultText: "silence",
        summary: "What the microphone does when its recording has played out.",
        parse: MicrophoneSourceEnd.init(setting:))
    public static let microphoneRate = Setting<Double>(
        "SPEECH_HARNESS_MICROPHONE_RATE", key: "microphoneRate", group: .device, range: 8_000...192_000,
        unit: "a sample rate in Hz", default: 48_000, summary: "The microphone's hardware sample rate.")
    public static let microphoneChannels = Setting<Int>(
        "SPEECH_HARNESS_MICROPHONE_CHANNELS", key: "microphoneChannels", group: .device, range: 1...8, default: 1,
        summary: "The microphone's hardware channel count.")
    public static let interruption = Setting<MicrophoneInterruption?>(
        "SPEECH_HARNESS_INTERRUPTION", key: "interruption", group: .device,
        allowed: "none, call:AT-UNTIL or route-change:AT (seconds of captured audio)", default: nil,
        defaultText: "none",
        summary:
            "What takes the microphone during capture: a call (the session's interruption began and ended, the audio between lost) or a route change (the engine stops).",
        parse: MicrophoneInterruption.parse)
    public static let recordPermission = Setting<PermissionState>(
        "SPEECH_HARNESS_RECORD_PERMISSION", key: "recordPermission", group: .device, default: .authorized,
        aliases: permissionAliases,
        summary:
            "Microphone access as the user left it (`granted` reads as authorized, `undetermined` as notDetermined).")
    public static let authorization = Setting<PermissionState>(
        "SPEECH_HARNESS_AUTHORIZATION", key: "authorization", group: .device, default: .authorized,
        aliases: permissionAliases, summary: "Speech recognition authorization as the user left it.")
    public static let deviceLocale = Setting<String>(
        "SPEECH_HARNESS_DEVICE_LOCALE", key: "deviceLocale", group: .device,
        allowed: "a locale identifier such as en-US, fr_FR or en-US-u-rg-gbzzzz", default: "en-US",
        defaultText: "en-US",
        summary:
            "The locale the device is set to: what `Locale.current` stands for where Apple-style code hands it to the speech APIs.",
        parse: LocaleTag.parse)
    public static let speechTranscriber = Setting<Bool>(
        "SPEECH_HARNESS_SPEECH_TRANSCRIBER", key: "speechTranscriber", group: .device, yes: "available",
        no: "unavailable", default: true,
        summary:
            "Whether the hardware runs SpeechTranscriber: unavailable makes `isAvailable` false and its locale lists empty; DictationTranscriber still works."
    )
    public static let supportedLocales = Setting<Bool>(
        "SPEECH_HARNESS_SUPPORTED_LOCALES", key: "supportedLocales", group: .device, yes: "engines", no: "none",
        default: true,
        summary:
            "The locales the transcribers offer: the engines', or none at all, as inside a virtual machine.")
    public static let assetDownloads = Setting<AssetDownloads>(
        "SPEECH_HARNESS_ASSET_DOWNLOADS", key: "assetDownloads", group: .device,
        allowed: "immediate, slow:SECONDS, fail-midway, offline or disk-full", default: .immediate,
        defaultText: "immediate",
        summary:
            "What asset downloads meet: `slow:3` advances `Progress` over 3 s; the failures throw Foundation's network or disk error.",
        parse: AssetDownloads.init(setting:))
    public static let audioSession = Setting<Bool>(
        "SPEECH_HARNESS_AUDIO_SESSION", key: "audioSession", group: .device, yes: "configurable",
        no: "unconfigurable", default: true,
        summary:
            "Whether the app's audio session can be set up: unconfigurable makes `AVAudioSession.setCategory` and `setActive(true)` throw (`cannotStartRecording`), and the SDK 27 capture provider `cannotConfigureAudioSystem`."
    )
    public static let osRelease = Setting<OSRelease>(
        "SPEECH_HARNESS_OS_RELEASE", key: "osRelease", group: .device, allowed: "one of 26, 27", default: .release27,
        defaultText: "27",
        summary:
            "The OS release whose Speech behaviour the device has where 26 and 27 differ: `AssetInventory.Status`'s order, and `AnalyzerInput.buffer` (the buffer given on 26, a new copy on each read on 27).",
        kind: .oneOf(["26", "27"]), parse: { Int($0).flatMap(OSRelease.init(rawValue:)) })
    public static let speaker = Setting<String?>(
        "SPEECH_HARNESS_SPEAKER", key: "speaker", group: .device, allowed: "a WAV file to write",
        defaultText: "none (kept in memory)", summary: "Where the virtual loudspeaker writes what was played.")

    /// Other words for permission states, as `PermissionState(setting:)` reads them.
    static let permissionAliases: [String: PermissionState] = ["granted": .authorized, "undetermined": .notDetermined]

    // MARK: Files and folders

    public static let root = Setting<String?>(
        "SPEECH_HARNESS_ROOT", key: "root", group: .files, allowed: "the package's folder",
        defaultText:
            "the working directory or a parent of the program that has scripts/workers, else the checkout the harness was built from",
        summary: "Where the package's own files are: worker scripts, the Python environment, built corpora.")
    public static let logDirectory = Setting<String?>(
        "SPEECH_HARNESS_LOG_DIR", key: "logDirectory", group: .files, allowed: "a folder",
        defaultText: "the temporary directory", summary: "Where PocketSphinx writes its log.")
    public static let trace = Setting<String?>(
        "SPEECH_HARNESS_TRACE", key: "trace", group: .files, allowed: "a file to write", defaultText: "none",
        summary: "Records what the speech APIs showed the program, for `migrate diff` (read once per process).")

    // MARK: Testing the harness

    public static let plantedFault = Setting<String?>(
        "SPEECH_HARNESS_PLANTED_FAULT", key: "plantedFault", group: .testing,
        allowed: "a planted fault's name (debug builds only)", defaultText: "none",
        summary: "Plants a rule violation in the reference, for the mutation check of a separate program.")
    public static let fuzzTarget = Setting<String?>(
        "SPEECH_HARNESS_FUZZ_TARGET", key: "fuzzTarget", group: .testing,
        allowed: "a target `speech-harness-fuzz --list` names", defaultText: "none",
        summary: "Which reader the libFuzzer build of `speech-harness-fuzz` fuzzes (scripts/fuzz sets it).")

    /// Every setting, in the order of the settings table.
    public static let all: [any SettingDescription] = [
        engine, script, assets, maximumReservedLocales, maximumEngineInstances, dspTemplates,
        whisperComputeType, whisperBeamSize, whisperThreads, whisperSeed,
        faultMode, faultRate, faultSeed, faultTimeout,
        microphone, microphonePacing, microphoneLead, microphoneClockLead, microphoneEnd, microphoneRate,
        microphoneChannels, interruption, recordPermission, authorization, deviceLocale, speechTranscriber,
        supportedLocales,
        assetDownloads, audioSession, osRelease, speaker,
        root, logDirectory, trace,
        plantedFault, fuzzTarget,
    ]

    /// The setting whose variable or configuration-file key is `name`.
    public static func named(_ name: String) -> (any SettingDescription)? {
        all.first { $0.variable == name || $0.key == name }
    }
}
