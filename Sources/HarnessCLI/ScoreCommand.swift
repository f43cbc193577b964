import Foundation
import Metrics

/// `speech-harness score REF HYP`: error rates of a hypothesis file against a reference file, the
/// role of sclite and jiwer's command line, with the harness's normalisers.
enum ScoreCommand {
    static let specs: [CommandSpec] = [
        CommandSpec(
            path: "score",
            summary: "WER/CER of two transcript files (trn or one utterance per line), with sclite's alignments.",
            options: [normalizer.spec, equivalence.spec, pralign.spec, alignment.spec],
            arguments: [ArgumentSpec(name: "reference"), ArgumentSpec(name: "hypothesis")],
            details: "Files are trn (every line 'text (utterance-id)', paired by id) or plain text (paired by line).\n"
                + "Alignments use sclite's weights and tie-breaking, so counts equal sclite's on the same files;\n"
                + "--alignment levenshtein counts the fewest edits instead, as jiwer does (its WER can be lower).\n"
                + "Exit status: 0 scored, 1 a file could not be read or paired, 2 usage error.",
            run: { try run("score", $0, $1) })
    ]

    static let normalizer = Option.choice(
        "normalizer", TextNormalizer.self,
        help: "Normaliser applied to both sides first (default none: the words as written, as sclite and jiwer score).")
    static let equivalence = Option.text(
        "equivalence", value: "oh=zero|file", help: "Words scored as equal: the built-in oh=zero, or a 'a => b' file.")
    static let pralign = Option.flag(
        "pralign", help: "Also print each utterance's alignment as sclite's pralign report does.")
    static let alignment = Option.choice(
        "alignment", Alignment.self,
        help: "Edit weights: sclite's (default; counts equal sclite's) or plain edit distance (WER equal to jiwer's).")

    static func run(_ path: String, _ arguments: ParsedArguments, _ console: Console) throws -> Int32 {
        let policy = ScoringPolicy(
            normalizer: arguments[Self.normalizer] ?? TextNormalizer.none,
            equivalences: try BenchRunCommand.equivalences(arguments[Self.equivalence], command: path))
        let (referencePath, hypothesisPath) = (arguments.positionals[0], arguments.positionals[1])
        let reference = try read(referencePath), hypothesis = try read(hypothesisPath)
        let pairs = try TranscriptFile.pair(
            reference: reference, referencePath: referencePath,
            hypothesis: hypothesis, hypothesisPath: hypothesisPath)
        let costs: WordAligner.Costs
        switch arguments[Self.alignment] ?? .sclite {
        case .sclite: costs = .sclite
        case .levenshtein: costs = .levenshtein
        }
        let score = TranscriptScore(pairs: pairs, policy: policy, costs: costs)
        if arguments[Self.pralign] { console.out(score.pralign) }
        let w = score.words, c = score.characters
        console.out("scoring: \(policy.name)  utterances: \(pairs.count)")
        console.out(
            String(
                format: "WER %.2f%%  (S %d, D %d, I %d, N %d; hits %d)", w.errorRate * 100, w.substitutions,
                w.deletions,
                w.insertions, w.referenceLength, w.hits))
        console.out(
            String(
                format: "CER %.2f%%  (S %d, D %d, I %d, N %d)", c.errorRate * 100, c.substitutions, c.deletions,
                c.insertions, c.referenceLength))
        console.out(String(format: "SER %.2f%%", score.sentenceErrorRate * 100))
        console.out(
            String(
                format: "MER %.2f%%  WIL %.2f%%  WIP %.2f%%", w.matchErrorRate * 100, w.wordInformationLost * 100,
                w.wordInformationPreserved * 100))
        return 0
    }

    /// The edit weights `--alignment` names.
    enum Alignment: String, CaseIterable {
        case sclite, levenshtein
    }

    static func read(_ path: String) throws -> TranscriptFile {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TranscriptFile.Problem(
                file: path, line: 0,
                reason: FileManager.default.fileExists(atPath: path) ? "cannot read" : "no such file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TranscriptFile.Problem(file: path, line: 0, reason: "not UTF-8 text")
        }
        return try TranscriptFile.parse(text, file: path)
    }
}
