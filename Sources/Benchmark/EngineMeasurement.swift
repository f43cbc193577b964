import AudioIO
import CoreMedia
import Foundation
import Metrics
import SpeechCore

/// An engine's own speed, without the analyzer: what `speech-harness bench engine` reports.
public enum EngineMeasurement {
    public struct Report: Sendable {
        /// Sessions run (one for a long stream).
        public var sessions = 0
        public var audioSeconds = 0.0
        /// Wall time inside the engine's calls.
        public var callSeconds = 0.0
        /// CPU time the engine reported for its calls.
        public var reportedSeconds = 0.0
        public var words = 0
        /// SHA-256 of the final words with their times and confidences: equal digests, equal output.
        public var digest = ""
    }

    /// Streams `files` through `engine` alone (no analyzer) in chunks of `chunkMS`: one session
    /// per file, or one long session of `streamSeconds` built from the files back to back.
    public static func measure(
        engine: any RecognitionEngine, files: [String], locale: String, rate: Double, chunkMS: Int,
        streamSeconds: Double?
    ) async throws -> Report {
        var report = Report()
        var transcript = ""
        let clock = ContinuousClock()
        func record(_ update: HypothesisUpdate) {
            report.reportedSeconds += update.computeSeconds ?? 0
            for segment in update.finalized {
                for w in segment.words {
                    transcript += "\(w.text) \(w.range.start.seconds) \(w.range.end.seconds) \(w.confidence ?? -1)\n"
                    report.words += 1
                }
            }
        }
        func timed<T>(_ body: () async throws -> T) async rethrows -> T {
            let start = clock.now
            defer { report.callSeconds += start.duration(to: clock.now).seconds }
            return try await body()
        }
        let configuration = EngineSessionConfiguration(locale: locale, reportsPartialResults: true)
        /// Streams one file into `session` from `offset`; returns where its audio ends.
        func play(
            _ file: String, into session: any RecognitionSession, from offset: MediaTime
        ) async throws -> MediaTime {
            let chunker = try AudioChunker(path: file, chunkMilliseconds: chunkMS, sampleRate: rate)
            var end = offset
            while let chunk = try chunker.next() {
                let start = offset + chunk.startTime
                record(try await timed { try await session.accept(chunk.buffer, at: start) })
                end = start + chunk.duration
                report.audioSeconds += chunk.duration.seconds
            }
            return end
        }
        if let total = streamSeconds {
            // One long session: the files back to back until `total` seconds have streamed.
            let session = try await engine.makeSession(configuration)
            var offset = MediaTime.zero
            var index = 0
            while report.audioSeconds < total {
                offset = try await play(files[index % files.count], into: session, from: offset)
                index += 1
            }
            record(try await timed { try await session.finalize(through: offset) })
            await session.close()
            report.sessions = 1
        } else {
            for file in files {
                let session = try await engine.makeSession(configuration)
                let end = try await play(file, into: session, from: .zero)
                record(try await timed { try await session.finalize(through: end) })
                await session.close()
                report.sessions += 1
                transcript += "--\n"
            }
        }
        report.digest = SHA256.hex(Array(transcript.utf8))
        return report
    }
}
