// Record, then play back, the way a voice-memo or transcription app does it: ask for the
// microphone (macOS's AVCaptureDevice way), tap the input node, write every buffer to a WAV file
// made with the input's own settings, stop, then play the file through an AVAudioPlayerNode
// connected to the output and wait until it has played back. On Linux the microphone is the
// virtual one (SPEECH_HARNESS_MICROPHONE) and the speaker writes what it played to
// SPEECH_HARNESS_SPEAKER, so a test can compare the two files.
// Usage: example-record-playback SECONDS [DIRECTORY]
import AVFoundation

final class Recorder: @unchecked Sendable {
    private let audioEngine = AVAudioEngine()
    private var file: AVAudioFile?
    private var playerNode: AVAudioPlayerNode?
    private let lock = NSLock()
    private var framesWritten: AVAudioFramePosition = 0

    func isAuthorized() async -> Bool {
        if AVCaptureDevice.authorizationStatus(for: .audio) == .authorized { return true }
        return await AVCaptureDevice.requestAccess(for: .audio)
    }

    /// Records until `seconds` of audio are in the file.
    func record(seconds: Double, to url: URL) async throws {
        let inputSettings = audioEngine.inputNode.inputFormat(forBus: 0).settings
        file = try AVAudioFile(forWriting: url, settings: inputSettings)
        let format = audioEngine.inputNode.outputFormat(forBus: 0)
        let wanted = AVAudioFramePosition(seconds * format.sampleRate)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            audioEngine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: format) { [self] buffer, _ in
                lock.lock()
                defer { lock.unlock() }
                guard let file, framesWritten < wanted else { return }
                do {
                    try file.write(from: buffer)
                } catch {
                    print("file writing error: \(error)")
                }
                framesWritten += AVAudioFramePosition(buffer.frameLength)
                if framesWritten >= wanted { done.resume() }
            }
            audioEngine.prepare()
            do {
                try audioEngine.start()
            } catch {
                print("cannot start the engine: \(error)")
                done.resume()
            }
        }
        audioEngine.stop()
        audioEngine.inputNode.removeTap(onBus: 0)
        lock.withLock { file = nil }
    }

    /// Plays the file and returns once it has been played back.
    func play(_ url: URL) async throws {
        let file = try AVAudioFile(forReading: url)
        let playerNode = AVAudioPlayerNode()
        self.playerNode = playerNode
        audioEngine.attach(playerNode)
        audioEngine.connect(playerNode, to: audioEngine.outputNode, format: file.processingFormat)
        // Scheduled before the player starts, so that its timeline begins with the file.
        let how = try await withCheckedThrowingContinuation { done in
            playerNode.scheduleFile(file, at: nil, completionCallbackType: .dataPlayedBack) {
                done.resume(returning: $0)
            }
            do {
                try audioEngine.start()
                playerNode.play()
            } catch {
                done.resume(throwing: error)
            }
        }
        if let nodeTime = playerNode.lastRenderTime, let playerTime = playerNode.playerTime(forNodeTime: nodeTime) {
            print(String(format: "played %.2f s (%@)", Double(playerTime.sampleTime) / playerTime.sampleRate, "\(how)"))
        }
        playerNode.stop()
        audioEngine.stop()
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard let seconds = arguments.first.flatMap(Double.init), seconds > 0 else {
    print("usage: example-record-playback SECONDS [DIRECTORY]")
    exit(2)
}
let directory = URL(fileURLWithPath: arguments.dropFirst().first ?? FileManager.default.temporaryDirectory.path)
let url = directory.appendingPathComponent("recording").appendingPathExtension(for: .wav)
let recorder = Recorder()
guard await recorder.isAuthorized() else {
    print("user denied mic permission")
    exit(1)
}
do {
    try await recorder.record(seconds: seconds, to: url)
    let recorded = try AVAudioFile(forReading: url)
    print(
        String(
            format: "recorded %.2f s to %@", Double(recorded.length) / recorded.processingFormat.sampleRate,
            url.lastPathComponent))
    try await recorder.play(url)
} catch {
    print("error: \(error)")
    exit(1)
}
