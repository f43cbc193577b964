import AVFoundation
import Speech

/// Plays imported clips and transcribes their files; it also taps the microphone, which the Info.plist does not declare.
final class ClipPlayer {
    private let engine = AVAudioEngine() // lint: missing-usage-description
    private let player = AVAudioPlayerNode()

    func play(_ file: AVAudioFile) throws {
        engine.attach(player)
        engine.connect(player, to: engine.mainMixerNode, format: file.processingFormat)
        try engine.start()
        player.scheduleFile(file, at: nil)
        player.play()
    }

    func transcribe(_ url: URL) {
        SFSpeechRecognizer()?.recognitionTask(with: SFSpeechURLRecognitionRequest(url: url)) { _, _ in } // lint: legacy-api
    }

    func listen() throws {
        engine.inputNode.installTap(onBus: 0, bufferSize: 4096, format: nil) { _, _ in }
        try engine.start()
    }
}
