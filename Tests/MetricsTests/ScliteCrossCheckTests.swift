import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import Metrics

/// Our alignment against NIST sclite itself (Debian's sctk) on random sentences with many ties.
@Suite("sclite cross-check")
struct ScliteCrossCheckTests {
    static let sclite = "/usr/lib/sctk/bin/sclite"
    static let available = SystemFixture.isCI || FileManager.default.isExecutableFile(atPath: sclite)

    /// Per-utterance step kinds from sclite's SGML output, e.g. ["C", "S", "D"].
    static func scliteSteps(references: [String], hypotheses: [String]) throws -> [[String]] {
        let dir = try TemporaryDirectory()
        let ids = references.indices.map { String(format: "spk_%05d", $0) }
        let ref = zip(references, ids).map { "\($0) (\($1))" }.joined(separator: "\n") + "\n"
        let hyp = zip(hypotheses, ids).map { "\($0) (\($1))" }.joined(separator: "\n") + "\n"
        let refPath = try dir.write("ref.trn", bytes: Array(ref.utf8))
        let hypPath = try dir.write("hyp.trn", bytes: Array(hyp.utf8))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sclite)
        process.arguments = ["-r", refPath, "trn", "-h", hypPath, "trn", "-i", "spu_id", "-o", "sgml", "stdout"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var byID: [String: [String]] = [:]
        var current: String?
        for line in output.split(separator: "\n") {
            if line.hasPrefix("<PATH id=\"(") {
                let start = line.index(line.startIndex, offsetBy: 11)
                current = String(line[start...].prefix { $0 != ")" })
            } else if let id = current, !line.hasPrefix("<") {
                byID[id] = line.split(separator: ":").map { String($0.prefix(1)) }
                current = nil
            } else if line.hasPrefix("</PATH>") {
                if let id = current { byID[id] = [] }
                current = nil
            }
        }
        return ids.map { byID[$0] ?? [] }
    }

    static func kinds(_ alignment: Alignment) -> [String] {
        alignment.steps.map { step in
            switch step {
            case .correct: return "C"
            case .substitution: return "S"
            case .deletion: return "D"
            case .insertion: return "I"
            }
        }
    }

    @Test(.enabled(if: available)) func alignmentsEqualScliteOnRandomSentences() throws {
        var rng = SeededGenerator(seed: 42)
        let vocabulary = ["a", "b", "c", "d", "the", "oh"]
        func sentence(_ length: Int) -> String {
            (0..<length).map { _ in vocabulary.randomElement(using: &rng)! }.joined(separator: " ")
        }
        var references: [String] = [], hypotheses: [String] = []
        for _ in 0..<2_000 {
            references.append(sentence(Int.random(in: 1...9, using: &rng)))
            hypotheses.append(sentence(Int.random(in: 0...9, using: &rng)))
        }
        let expected = try Self.scliteSteps(references: references, hypotheses: hypotheses)
        var mismatches: [String] = []
        var pooled = ErrorCounts()
        var sclitePooled = [String: Int]()
        for (index, (r, h)) in zip(references, hypotheses).enumerated() {
            let alignment = WordAligner.alignWords(reference: r, hypothesis: h)
            pooled += alignment.counts
            for kind in expected[index] { sclitePooled[kind, default: 0] += 1 }
            if Self.kinds(alignment) != expected[index] && mismatches.count < 5 {
                mismatches.append("\(r) | \(h): ours \(Self.kinds(alignment)), sclite \(expected[index])")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n"))")
        #expect(pooled.hits == sclitePooled["C"] ?? 0)
        #expect(pooled.substitutions == sclitePooled["S"] ?? 0)
        #expect(pooled.deletions == sclitePooled["D"] ?? 0)
        #expect(pooled.insertions == sclitePooled["I"] ?? 0)
    }
}
