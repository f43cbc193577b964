import AVFoundation
import Speech

/// The twin of failure-handler: the stored handler and the failure method only report the
/// problem; nothing cancels the analyzer.
final class Session {
    private var continuation: AsyncStream<AnalyzerInput>.Continuation?
    private var analyzer: SpeechAnalyzer?
    private let converter: AnalyzerInputConverter
    private var onFailure: (() async -> Void)?
    private(set) var status = "idle"

    init(analyzer: SpeechAnalyzer, format: AVAudioFormat) {
        self.analyzer = analyzer
        converter = AnalyzerInputConverter(analyzerFormat: format)
        onFailure = { [weak self] in
            self?.status = "failed"
        }
    }

    func feed(_ buffer: AVAudioPCMBuffer) async {
        do {
            for input in try converter.convert(buffer, at: nil) { continuation?.yield(input) }
        } catch {
            continuation?.finish() // lint: input-finish-without-analyzer-finish
            await onFailure?()
        }
    }

    func interrupted() async {
        continuation?.finish() // lint: input-finish-without-analyzer-finish
        await fail(reason: "audio session interrupted")
    }

    private func fail(reason: String) async {
        print("transcription stopped: \(reason)")
        status = "failed"
    }
}
