// Live dictation with the legacy API, written the way an iOS app's controller is: an audio
// session for recording, an AVAudioEngine tap feeding an SFSpeechAudioBufferRecognitionRequest,
// partial results shown as they come, the recogniser's delegate, and the final result's
// metadata. On Linux the microphone is the harness's virtual one (SPEECH_HARNESS_MICROPHONE);
// recording stops when the input goes away (the engine's configuration-change notification) or,
// with --stop-after, when a timer fires — a button in an app.
// Usage: example-live-dictation [locale] [--stop-after SECONDS]
import Speech

final class DictationController: NSObject, SFSpeechRecognizerDelegate, @unchecked Sendable {
    private let speechRecognizer: SFSpeechRecognizer
    private var recognitionRequest: SFSpeechAudioBufferRecognitionRequest?
    private var recognitionTask: SFSpeechRecognitionTask?
    private let audioEngine = AVAudioEngine()
    private var configurationObserver: NSObjectProtocol?

    init?(locale: Locale) {
        guard let recognizer = SFSpeechRecognizer(locale: locale) else { return nil }
        speechRecognizer = recognizer
        super.init()
        speechRecognizer.delegate = self
    }

    func speechRecognizer(_ speechRecognizer: SFSpeechRecognizer, availabilityDidChange available: Bool) {
        print("recognizer available: \(available)")
    }

    func startRecording() throws {
        recognitionTask?.cancel()
        recognitionTask = nil

        let audioSession = AVAudioSession.sharedInstance()
        try audioSession.setCategory(.record, mode: .measurement, options: .duckOthers)
        try audioSession.setActive(true, options: .notifyOthersOnDeactivation)
        let inputNode = audioEngine.inputNode

        let recognitionRequest = SFSpeechAudioBufferRecognitionRequest()
        self.recognitionRequest = recognitionRequest
        recognitionRequest.shouldReportPartialResults = true
        if #available(iOS 13, macOS 10.15, *) {
            recognitionRequest.requiresOnDeviceRecognition = true
        }

        recognitionTask = speechRecognizer.recognitionTask(with: recognitionRequest) { result, error in
            var isFinal = false
            if let result {
                isFinal = result.isFinal
                print(
                    isFinal
                        ? "final: \(result.bestTranscription.formattedString)"
                        : "partial: \(result.bestTranscription.formattedString)")
                if isFinal, let metadata = result.speechRecognitionMetadata {
                    print(
                        String(
                            format: "metadata: %.1f words/min, average pause %.2f s, speech from %.2f s for %.2f s",
                            metadata.speakingRate, metadata.averagePauseDuration,
                            metadata.speechStartTimestamp, metadata.speechDuration))
                    if let pitch = metadata.voiceAnalytics?.pitch.acousticFeatureValuePerFrame, !pitch.isEmpty {
                        print("voice analytics: \(pitch.count) frames")
                    }
                }
            }
            if error != nil || isFinal {
                self.audioEngine.stop()
                inputNode.removeTap(onBus: 0)
                self.recognitionRequest = nil
                self.recognitionTask = nil
                if let error { print("error: \(error.localizedDescription)") }
                exit(error == nil ? 0 : 1)
            }
        }

        let recordingFormat = inputNode.outputFormat(forBus: 0)
        inputNode.installTap(onBus: 0, bufferSize: 1024, format: recordingFormat) {
            (buffer: AVAudioPCMBuffer, when: AVAudioTime) in
            self.recognitionRequest?.append(buffer)
        }

        configurationObserver = NotificationCenter.default.addObserver(
            forName: .AVAudioEngineConfigurationChange, object: audioEngine, queue: nil
        ) { [weak self] _ in
            self?.stopRecording()
        }

        audioEngine.prepare()
        try audioEngine.start()
        print("listening…")
    }

    func stopRecording() {
        audioEngine.stop()
        recognitionRequest?.endAudio()
    }

    /// What a stop button does: the engine, then the tap, then the request.
    func stopButtonTapped() {
        print("stopping")
        audioEngine.stop()
        audioEngine.inputNode.removeTap(onBus: 0)
        recognitionRequest?.endAudio()
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
let stopFlag = arguments.firstIndex(of: "--stop-after")
let stopAfter = stopFlag.flatMap { $0 + 1 < arguments.count ? Double(arguments[$0 + 1]) : nil }
let positional = stopFlag.map { Array(arguments[..<$0] + arguments[min($0 + 2, arguments.count)...]) } ?? arguments
let locale = positional.first.map { Locale(identifier: $0) } ?? Locale(identifier: "en-US")
guard let controller = DictationController(locale: locale) else {
    print("speech recognition is not available for \(locale.identifier)")
    exit(1)
}

SFSpeechRecognizer.requestAuthorization { authStatus in
    OperationQueue.main.addOperation {
        switch authStatus {
        case .authorized:
            AVAudioApplication.requestRecordPermission { granted in
                OperationQueue.main.addOperation {
                    guard granted else {
                        print("microphone access denied")
                        exit(1)
                    }
                    do {
                        try controller.startRecording()
                        if let stopAfter {
                            DispatchQueue.main.asyncAfter(deadline: .now() + stopAfter) {
                                controller.stopButtonTapped()
                            }
                        }
                    } catch {
                        print("recording failed: \(error)")
                        exit(1)
                    }
                }
            }
        case .denied, .restricted, .notDetermined:
            print("speech recognition not authorized: \(authStatus)")
            exit(1)
        @unknown default:
            exit(1)
        }
    }
}
dispatchMain()
