import Foundation
import SpeechCore
import TestSupport
import Testing

@testable import Metrics

/// `speech-harness score`'s library: transcript files read and paired, then scored; the counts
/// and per-utterance alignments against sclite's pralign report and jiwer 4 on the same pairs.
@Suite("Transcript scoring")
struct TranscriptScoringTests {
    static let sclite = ScliteCrossCheckTests.sclite
    static let python = SystemFixture.packageRoot + "/.venv/bin/python"
    static let available =
        SystemFixture.isCI
        || (FileManager.default.isExecutableFile(atPath: sclite)
            && FileManager.default.isExecutableFile(atPath: python))

    /// sclite's pralign report split into utterance blocks (id line to the blank line), by id.
    static func scliteBlocks(_ report: String) -> [String: String] {
        var blocks: [String: String] = [:]
        var current: (id: String, lines: [String])?
        for line in report.components(separatedBy: "\n") {
            if line.hasPrefix("id: (") {
                current = (String(line.dropFirst(5).dropLast()), [line])
            } else if var block = current {
                if line.isEmpty {
                    blocks[block.id] = block.lines.joined(separator: "\n")
                    current = nil
                } else {
                    block.lines.append(line)
                    current = block
                }
            }
        }
        return blocks
    }

    @Test(.enabled(if: available)) func equalsScliteAndJiwerOnRandomPairs() throws {
        var rng = SeededGenerator(seed: 2026)
        let vocabulary = ["a", "b", "c", "dd", "the", "oh", "seven", "x"]
        func sentence(_ range: ClosedRange<Int>) -> String {
            (0..<Int.random(in: range, using: &rng)).map { _ in vocabulary.randomElement(using: &rng)! }.joined(
                separator: " ")
        }
        var ref = "", hyp = "", pairs: [[String]] = []
        for index in 0..<20_000 {
            let r = sentence(1...10), h = sentence(0...10)
            ref += "\(r) (spk\(index % 7)_u\(index))\n"
            hyp += "\(h) (spk\(index % 7)_u\(index))\n"
            pairs.append([r, h])
        }
        let dir = try TemporaryDirectory()
        let refPath = try dir.write("ref.trn", bytes: Array(ref.utf8)),
            hypPath = try dir.write("hyp.trn", bytes: Array(hyp.utf8))
        let score = TranscriptScore(
            pairs: try TranscriptFile.pair(
                reference: TranscriptFile.parse(ref, file: refPath), referencePath: refPath,
                hypothesis: TranscriptFile.parse(hyp, file: hypPath), hypothesisPath: hypPath),
            policy: ScoringPolicy(normalizer: .none))
        #expect(score.utterances.count == 20_000)

        // sclite: every utterance's block (scores and the three alignment rows), character for character.
        let report = try ExternalProgram.run(
            Self.sclite, ["-r", refPath, "trn", "-h", hypPath, "trn", "-i", "spu_id", "-o", "pralign", "stdout"]
        ).output
        let theirs = Self.scliteBlocks(report)
        let ours = Self.scliteBlocks(score.pralign + "\n")
        #expect(theirs.count == 20_000 && ours.count == 20_000)
        let differing = ours.keys.sorted().filter { ours[$0] != theirs[$0] }
        #expect(
            differing.isEmpty,
            "\(differing.count) differ, e.g.\n\(differing.prefix(2).map { "ours:\n\(ours[$0]!)\nsclite:\n\(theirs[$0] ?? "none")" }.joined(separator: "\n"))"
        )

        // jiwer 4: the same totals of errors and reference words over the same pairs.
        let script = """
            import json, sys, jiwer
            pairs = json.load(sys.stdin)
            out = jiwer.process_words([p[0] for p in pairs], [p[1] if p[1] else "" for p in pairs])
            print(json.dumps({"S": out.substitutions, "D": out.deletions, "I": out.insertions, "H": out.hits, "wer": out.wer,
                              "mer": out.mer, "wil": out.wil, "wip": out.wip}))
            """
        let jiwer = try JSONDecoder().decode(
            [String: Double].self,
            from: Data(
                try ExternalProgram.run(Self.python, ["-c", script], input: try JSONEncoder().encode(pairs)).output.utf8
            ))
        // jiwer counts the fewest edits, so its WER equals ours with Levenshtein weights (the split
        // into S, D and I among equally short edit scripts is its own); sclite's weights give a
        // higher WER on some of these pairs, and the test says so rather than hiding it.
        let levenshtein = TranscriptScore(
            pairs: pairs.map { ("", $0[0], $0[1]) }, policy: ScoringPolicy(normalizer: .none),
            costs: .levenshtein
        ).words
        #expect(Double(levenshtein.referenceLength) == jiwer["H"]! + jiwer["S"]! + jiwer["D"]!)
        #expect(Double(levenshtein.errors) == jiwer["S"]! + jiwer["D"]! + jiwer["I"]!)
        #expect(levenshtein.errorRate == jiwer["wer"]!)
        // MER, WIL and WIP from jiwer's own counts equal its figures (the split of equally short
        // edit scripts into hits and edits is each aligner's, so the counts are jiwer's here).
        let jiwerCounts = ErrorCounts(
            hits: Int(jiwer["H"]!), substitutions: Int(jiwer["S"]!), deletions: Int(jiwer["D"]!),
            insertions: Int(jiwer["I"]!))
        #expect(abs(jiwerCounts.matchErrorRate - jiwer["mer"]!) < 1e-12)
        #expect(abs(jiwerCounts.wordInformationLost - jiwer["wil"]!) < 1e-12)
        #expect(abs(jiwerCounts.wordInformationPreserved - jiwer["wip"]!) < 1e-12)
        #expect(score.words.errors > levenshtein.errors)
    }

    @Test func filesArePairedByIDOrLineWithClearErrors() throws {
        let trn = try TranscriptFile.parse("a b (s_1)\nc (s_2)\n", file: "ref.trn")
        #expect(trn.isTRN && trn.entries.map(\.id) == ["s_1", "s_2"])
        let hyp = try TranscriptFile.parse("c (s_2)\na (s_1)\n", file: "hyp.trn")
        let pairs = try TranscriptFile.pair(
            reference: trn, referencePath: "ref.trn", hypothesis: hyp, hypothesisPath: "hyp.trn")
        #expect(pairs.map(\.hypothesis) == ["a ", "c "])
        let text = try TranscriptFile.parse("a b\nc\n", file: "hyp.txt")
        #expect(!text.isTRN)
        #expect(throws: TranscriptFile.Problem.self) {
            try TranscriptFile.pair(
                reference: trn, referencePath: "ref.trn", hypothesis: text, hypothesisPath: "hyp.txt")
        }
        let missing = try TranscriptFile.parse("a (s_1)\n", file: "short.trn")
        do {
            _ = try TranscriptFile.pair(
                reference: trn, referencePath: "ref.trn", hypothesis: missing, hypothesisPath: "short.trn")
            Issue.record("a missing hypothesis must be an error")
        } catch {
            #expect(error.description == "short.trn: has no hypothesis for (s_2) (reference line 2)")
        }
        #expect(
            throws: TranscriptFile.Problem(
                file: "dup.trn", line: 2, reason: "utterance id (s_1) again (first on line 1)")
        ) {
            try TranscriptFile.parse("a (s_1)\nb (s_1)\n", file: "dup.trn")
        }
    }
}
